package toolcall

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mcphost/mcphost/internal/toolschema"
)

// Schema checks the arguments of one tool against the input schema its
// server published, after the few repairs that cannot change what a
// model meant. A Schema is safe for concurrent use.
type Schema struct {
	original   json.RawMessage
	normalised json.RawMessage
	wrapped    string

	once     sync.Once
	root     *jsonschema.Schema
	resolved *jsonschema.Resolved // nil when the schema cannot be used to validate

	shapeOnce sync.Once
	// shape is the normalised schema (refs inlined, nullable unions made
	// plain): simple to walk for repairs and to quote in errors. It is
	// decoded only when arguments fail, which valid calls never pay for.
	shape map[string]any
}

// NewSchema prepares the checks for a tool. original is the schema as the
// server published it, normalised what toolschema made of it, and wrapped
// the property that holds the whole argument when the original root was not
// an object ("" otherwise).
func NewSchema(original, normalised json.RawMessage, wrapped string) *Schema {
	return &Schema{original: original, normalised: normalised, wrapped: wrapped}
}

func (s *Schema) shaped() map[string]any {
	s.shapeOnce.Do(func() {
		_ = json.Unmarshal(s.normalised, &s.shape) // a toolschema result always decodes
		if s.shape == nil {
			s.shape = map[string]any{}
		}
	})
	return s.shape
}

// resolve compiles the original schema once, on the first call that needs
// it. A schema the validator cannot use (remote $refs, unknown draft that
// cannot be read as a supported one) turns validation off for the tool:
// the server still checks its own input.
func (s *Schema) resolve() {
	s.once.Do(func() {
		var root jsonschema.Schema
		if err := json.Unmarshal(s.original, &root); err != nil {
			return
		}
		switch root.Schema {
		case "", "http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema", "https://json-schema.org/draft/2020-12/schema":
		default:
			// Draft 4 and 2019-09 read the same for what tools use.
			root.Schema = ""
		}
		rs, err := root.Resolve(nil)
		if err != nil {
			return
		}
		s.root, s.resolved = &root, rs
	})
}

// validate checks args against the original schema; nil when valid or
// when the schema cannot validate.
func (s *Schema) validate(args map[string]any) error {
	s.resolve()
	if s.resolved == nil {
		return nil
	}
	var instance any = args
	if s.wrapped != "" {
		instance = args[s.wrapped]
	}
	return s.resolved.Validate(instance)
}

// ArgError is a call whose arguments do not fit the tool's schema, worded
// for the model: which argument, what it should be, and the part of the
// schema that says so.
type ArgError struct {
	Tool     string
	Argument string // empty when no single argument is to blame
	Problem  string
	// Schema is the JSON of the argument's (normalised) schema; empty when
	// Argument is.
	Schema string
}

func (e *ArgError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "invalid arguments for tool %q: ", e.Tool)
	if e.Argument != "" {
		fmt.Fprintf(&b, "argument %q %s", e.Argument, e.Problem)
	} else {
		b.WriteString(e.Problem)
	}
	if e.Schema != "" {
		fmt.Fprintf(&b, ". Schema of %q: %s", e.Argument, e.Schema)
	}
	b.WriteString(". The tool was not called; call it again with corrected arguments.")
	return b.String()
}

// Check returns the arguments to call the tool with: args when they are
// valid, else args with the safe repairs applied (listed in repairs) when
// that makes them valid. When they still do not validate, the error is an
// *ArgError and the tool must not be called. args is never modified.
//
// The repairs: a string holding a number or boolean where the schema wants
// one; a string holding JSON where an object or array is wanted; null for
// an optional argument dropped; missing arguments taken as {}.
func (s *Schema) Check(tool string, args map[string]any) (fixed map[string]any, repairs []string, err error) {
	if args == nil {
		args = map[string]any{}
		repairs = append(repairs, "missing arguments taken as {}")
	}
	if s.validate(args) == nil {
		return args, repairs, nil
	}
	fixed, _ = deepCopy(args).(map[string]any)
	shape := s.shaped()
	if s.wrapped != "" {
		if prop, ok := s.property(shape, s.wrapped); ok {
			if v, changed, what := repairValue(fixed[s.wrapped], prop); changed {
				fixed[s.wrapped] = v
				repairs = append(repairs, fmt.Sprintf("%q: %s", s.wrapped, what))
			}
		}
	} else {
		repairs = append(repairs, repairObject(fixed, shape, "")...)
	}
	verr := s.validate(fixed)
	if verr == nil {
		return fixed, repairs, nil
	}
	return nil, repairs, s.explain(tool, fixed, verr)
}

// TypeText types the arguments of a call written in a format that has no
// types of its own (Candidate.Text: the XML-style formats write every
// value as text): a string becomes the number, boolean, object or array
// the tool's schema asks for when it reads as one. Other values, and
// strings that do not read as what is asked, are left for Check to judge.
// This is reading the format, not repairing the model's mistake, so it is
// not reported as a repair. args is not modified.
func (s *Schema) TypeText(args map[string]any) map[string]any {
	props, _ := s.shaped()["properties"].(map[string]any)
	out := make(map[string]any, len(args))
	for k, v := range args {
		out[k] = v
		if prop, ok := props[k].(map[string]any); ok {
			if nv, changed, _ := repairValue(v, prop); changed {
				out[k] = nv
			}
		}
	}
	return out
}

// IsDefinition reports whether args are a tool's definition rather than
// its arguments: a JSON Schema object ("properties", with "type" or
// "required"), where the tool itself takes no argument called
// "properties". A model that repeats a tool's definition shows it; it does
// not call it.
func (s *Schema) IsDefinition(args map[string]any) bool {
	if _, ok := args["properties"].(map[string]any); !ok {
		return false
	}
	if _, ok := args["type"]; !ok {
		if _, ok := args["required"]; !ok {
			return false
		}
	}
	props, _ := s.shaped()["properties"].(map[string]any)
	_, takes := props["properties"]
	return !takes
}

// repairObject repairs the members of obj in place against the object
// schema shape and returns what it did. path prefixes argument names in the
// descriptions ("entities[0].name").
func repairObject(obj map[string]any, shape map[string]any, path string) []string {
	props, _ := shape["properties"].(map[string]any)
	required := toolschema.Strings(shape["required"])
	var repairs []string
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys) // repairs are reported in a stable order
	for _, k := range keys {
		v := obj[k]
		prop, _ := props[k].(map[string]any)
		name := path + k
		if v == nil && !slices.Contains(required, k) && !allowsNull(prop) {
			delete(obj, k)
			repairs = append(repairs, fmt.Sprintf("%q: dropped null for an optional argument", name))
			continue
		}
		if prop == nil {
			continue
		}
		nv, changed, what := repairValue(v, prop)
		if changed {
			obj[k] = nv
			repairs = append(repairs, fmt.Sprintf("%q: %s", name, what))
			v = nv
		}
		repairs = append(repairs, repairNested(v, prop, name)...)
	}
	return repairs
}

// repairNested descends into objects and arrays.
func repairNested(v any, prop map[string]any, name string) []string {
	switch v := v.(type) {
	case map[string]any:
		if _, ok := prop["properties"].(map[string]any); ok {
			return repairObject(v, prop, name+".")
		}
	case []any:
		items, ok := prop["items"].(map[string]any)
		if !ok {
			return nil
		}
		var repairs []string
		for i, e := range v {
			en := fmt.Sprintf("%s[%d]", name, i)
			if ne, changed, what := repairValue(e, items); changed {
				v[i] = ne
				e = ne
				repairs = append(repairs, fmt.Sprintf("%q: %s", en, what))
			}
			repairs = append(repairs, repairNested(e, items, en)...)
		}
		return repairs
	}
	return nil
}

// repairValue converts v to the type prop wants when v is a string that
// plainly holds a value of that type.
func repairValue(v any, prop map[string]any) (any, bool, string) {
	str, ok := v.(string)
	if !ok {
		return v, false, ""
	}
	types := typesOf(prop)
	if len(types) == 0 || slices.Contains(types, "string") {
		return v, false, ""
	}
	t := strings.TrimSpace(str)
	for _, want := range types {
		switch want {
		case "number", "integer":
			f, err := strconv.ParseFloat(t, 64)
			if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
				continue
			}
			if want == "integer" && f != math.Trunc(f) {
				continue
			}
			return f, true, fmt.Sprintf("string %q taken as %s", str, want)
		case "boolean":
			switch strings.ToLower(t) {
			case "true":
				return true, true, fmt.Sprintf("string %q taken as boolean", str)
			case "false":
				return false, true, fmt.Sprintf("string %q taken as boolean", str)
			}
		case "object", "array":
			var parsed any
			if err := json.Unmarshal([]byte(t), &parsed); err != nil {
				// Models that stringify also write Python literals.
				p, end, ok := parseValue(t, 0)
				if !ok || strings.TrimSpace(t[end:]) != "" {
					continue
				}
				parsed = p
			}
			if jsonType(parsed) == want {
				return parsed, true, fmt.Sprintf("JSON string parsed as %s", want)
			}
		}
	}
	return v, false, ""
}

func typesOf(prop map[string]any) []string {
	switch t := prop["type"].(type) {
	case string:
		return []string{t}
	case []any:
		return toolschema.Strings(t)
	}
	return nil
}

func allowsNull(prop map[string]any) bool {
	if prop == nil {
		return false
	}
	return slices.Contains(typesOf(prop), "null")
}

// explain turns a validation failure into an *ArgError naming the
// argument at fault where one can be found.
func (s *Schema) explain(tool string, args map[string]any, verr error) *ArgError {
	shape := s.shaped()
	if s.wrapped != "" {
		if prop, ok := s.property(shape, s.wrapped); ok {
			return &ArgError{Tool: tool, Argument: s.wrapped, Problem: problemOf(args[s.wrapped], prop, verr), Schema: quoteSchema(prop)}
		}
	}
	props, _ := shape["properties"].(map[string]any)
	for _, r := range toolschema.Strings(shape["required"]) {
		if _, ok := args[r]; !ok {
			e := &ArgError{Tool: tool, Argument: r, Problem: "is required but missing"}
			if p, ok := props[r].(map[string]any); ok {
				e.Schema = quoteSchema(p)
			}
			return e
		}
	}
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		prop, known := props[k].(map[string]any)
		if !known {
			if s.root != nil && s.root.AdditionalProperties != nil && s.root.AdditionalProperties.Not != nil {
				names := make([]string, 0, len(props))
				for p := range props {
					names = append(names, p)
				}
				slices.Sort(names)
				takes := "it takes no arguments"
				if len(names) > 0 {
					takes = "it takes " + strings.Join(names, ", ")
				}
				return &ArgError{Tool: tool, Argument: k, Problem: "is not an argument of this tool; " + takes}
			}
			continue
		}
		if ferr := s.validateField(k, args[k]); ferr != nil {
			return &ArgError{Tool: tool, Argument: k, Problem: problemOf(args[k], prop, ferr), Schema: quoteSchema(prop)}
		}
	}
	return &ArgError{Tool: tool, Problem: cleanError(verr)}
}

// validateField validates one argument against its part of the original
// schema, keeping the root's definitions so its $refs still resolve. It
// returns nil when it cannot tell.
func (s *Schema) validateField(name string, v any) error {
	if s.root == nil || s.root.Properties[name] == nil {
		return nil
	}
	sub := &jsonschema.Schema{
		Schema:      s.root.Schema,
		Type:        "object",
		Properties:  map[string]*jsonschema.Schema{name: s.root.Properties[name]},
		Defs:        s.root.Defs,
		Definitions: s.root.Definitions,
	}
	rs, err := sub.Resolve(nil)
	if err != nil {
		return nil
	}
	return rs.Validate(map[string]any{name: v})
}

// problemOf words what is wrong with v: a type mismatch plainly, anything
// else in the validator's words.
func problemOf(v any, prop map[string]any, err error) string {
	if types := typesOf(prop); len(types) > 0 {
		got := jsonType(v)
		ok := slices.Contains(types, got) || (got == "integer" && slices.Contains(types, "number"))
		if !ok {
			return fmt.Sprintf("must be %s, got %s %s", article(strings.Join(types, " or ")), article(got), preview(v))
		}
	}
	return "is invalid: " + cleanError(err)
}

// cleanError strips the validator's "validating /properties/x: " chain
// down to the reason at its end.
func cleanError(err error) string {
	msg := err.Error()
	for strings.HasPrefix(msg, "validating ") {
		_, rest, ok := strings.Cut(msg, ": ")
		if !ok {
			break
		}
		msg = rest
	}
	return msg
}

// maxSchemaQuote bounds the schema quoted back to the model.
const maxSchemaQuote = 400

func quoteSchema(prop map[string]any) string {
	b, err := json.Marshal(prop)
	if err != nil {
		return ""
	}
	if len(b) > maxSchemaQuote {
		return head(b, maxSchemaQuote) + "…"
	}
	return string(b)
}

func preview(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	if len(b) > 60 {
		return head(b, 59) + "…"
	}
	return string(b)
}

// head returns the first n bytes of b (len(b) > n), less the start of a
// UTF-8 character cut at n, so that what the model reads stays valid text.
func head(b []byte, n int) string {
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return string(b[:n])
}

func article(t string) string {
	switch {
	case t == "":
		return t
	case strings.ContainsRune("aeiou", rune(t[0])):
		return "an " + t
	}
	return "a " + t
}

// property returns shape.properties[name] as a schema object.
func (s *Schema) property(shape map[string]any, name string) (map[string]any, bool) {
	props, _ := shape["properties"].(map[string]any)
	p, ok := props[name].(map[string]any)
	return p, ok
}

// jsonType names the JSON type of a decoded value, "integer" for whole
// numbers as JSON Schema counts them.
func jsonType(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		if v == math.Trunc(v) {
			return "integer"
		}
		return "number"
	case int, int64, int32, json.Number:
		return "integer"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}
