// Package toolschema rewrites the JSON Schemas of MCP tools into the plain
// form that small local models and Ollama's tool templates handle: local
// $refs inlined, nullable unions turned into their plain type, every object
// with properties, an object at the root and descriptions of bounded length.
//
// The rewritten schema is only what the model is shown. Arguments are still
// validated against the schema the server published (see package toolcall),
// so nothing a server relies on is loosened by what happens here.
package toolschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Defaults of Options.
const (
	// DefaultMaxDescription caps each description inside a schema, in
	// runes: a sentence or two is what a model uses; pages of prose only
	// eat the context window.
	DefaultMaxDescription = 300
	// DefaultMaxToolDescription caps a tool's own description, in runes.
	DefaultMaxToolDescription = 1024
)

// WrapProperty is the property that holds the whole argument of a tool
// whose schema root is not an object (see Result.Wrapped).
const WrapProperty = "value"

// Options tune Normalize.
type Options struct {
	// MaxDescription caps descriptions inside the schema, in runes; 0
	// means DefaultMaxDescription, a negative value means no cap.
	MaxDescription int
}

// Result is a normalised schema.
type Result struct {
	// Schema is the normalised schema, always a JSON object with "type":
	// "object" and "properties".
	Schema json.RawMessage
	// Wrapped is WrapProperty when the original root was not an object
	// and was wrapped into one; the model's arguments then hold the real
	// value under that property.
	Wrapped string
	// Changed lists what was rewritten ("inlined $ref", "dropped $schema",
	// ...), once each, for --debug.
	Changed []string
}

// Normalize rewrites raw, a tool's input schema, for the model. It returns
// an error only when raw is not JSON at all; every schema that parses comes
// out as a usable object schema, because one odd tool must not cost the
// model the others.
func Normalize(raw json.RawMessage, opts Options) (Result, error) {
	if opts.MaxDescription == 0 {
		opts.MaxDescription = DefaultMaxDescription
	}
	var root any = map[string]any{}
	if t := bytes.TrimSpace(raw); len(t) > 0 && !bytes.Equal(t, []byte("null")) {
		dec := json.NewDecoder(bytes.NewReader(t))
		dec.UseNumber() // numbers in enums and defaults pass through unchanged
		if err := dec.Decode(&root); err != nil {
			return Result{}, fmt.Errorf("the input schema is not valid JSON: %w", err)
		}
	}
	n := &normalizer{root: root, opts: opts, seen: map[string]bool{}}
	out := n.walk(root, nil)
	res := Result{}
	out, res.Wrapped = n.objectRoot(out)
	b, err := json.Marshal(out)
	if err != nil {
		// Values decoded from JSON always encode again.
		return Result{}, fmt.Errorf("encoding the normalised schema: %w", err)
	}
	res.Schema = b
	res.Changed = n.changed
	return res, nil
}

// TrimDescription cuts s to at most limit runes, at a word boundary when
// one is near, ending it with "…". A limit of 0 or less leaves s whole.
func TrimDescription(s string, limit int) string {
	s = strings.TrimSpace(s)
	if limit <= 0 || utf8.RuneCountInString(s) <= limit {
		return s
	}
	r := []rune(s)[:limit-1]
	cut := len(r)
	// Back up to a space if one is within the last fifth, so no word is
	// cut in half.
	for i := len(r) - 1; i > len(r)*4/5; i-- {
		if unicode.IsSpace(r[i]) {
			cut = i
			break
		}
	}
	return strings.TrimRightFunc(string(r[:cut]), unicode.IsSpace) + "…"
}

type normalizer struct {
	root    any
	opts    Options
	changed []string
	seen    map[string]bool
	inlined int
}

// maxInlines bounds how many $refs one schema may have inlined: shared
// definitions referenced from many places multiply, and a schema built to
// explode must not cost more than a tool is worth.
const maxInlines = 256

func (n *normalizer) note(what string) {
	if !n.seen[what] {
		n.seen[what] = true
		n.changed = append(n.changed, what)
	}
}

// dropped are keywords that only identify or annotate a schema document;
// a model has no use for them and some templates choke on them.
var dropped = [...]string{"$schema", "$id", "id", "$comment", "$anchor", "$dynamicAnchor", "$vocabulary", "nullable"}

// walk returns the normalised copy of the schema node s. refs holds the
// $refs being inlined on the way down, to stop at recursion.
func (n *normalizer) walk(s any, refs []string) any {
	m, ok := s.(map[string]any)
	if !ok {
		// true (or anything that is not an object) accepts anything; false
		// accepts nothing, which a model cannot use either way.
		return map[string]any{}
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	if ref, ok := out["$ref"].(string); ok {
		delete(out, "$ref")
		out = n.inline(ref, out, refs)
		if out == nil {
			return map[string]any{}
		}
		refs = append(refs, ref)
	}
	for _, k := range dropped {
		if k == "id" {
			// "id" is a keyword only as a string beside a schema; as a
			// property name it lives under "properties", not here.
			if _, isString := out["id"].(string); !isString {
				continue
			}
		}
		if _, ok := out[k]; ok {
			delete(out, k)
			n.note("dropped " + k)
		}
	}
	for _, k := range [...]string{"$defs", "definitions"} {
		// Every reference into them is inlined by now.
		delete(out, k)
	}

	n.collapseUnion(out, "anyOf", refs)
	n.collapseUnion(out, "oneOf", refs)
	n.mergeAllOf(out, refs)
	n.plainType(out)

	if props, ok := out["properties"].(map[string]any); ok {
		np := make(map[string]any, len(props))
		for name, p := range props {
			np[name] = n.walk(p, refs)
		}
		out["properties"] = np
	} else {
		delete(out, "properties")
	}
	switch items := out["items"].(type) {
	case map[string]any:
		out["items"] = n.walk(items, refs)
	case []any:
		// Draft 7 tuple form: each position has its own schema.
		list := make([]any, len(items))
		for i, it := range items {
			list[i] = n.walk(it, refs)
		}
		out["items"] = list
	}
	if pi, ok := out["prefixItems"].([]any); ok {
		list := make([]any, len(pi))
		for i, it := range pi {
			list[i] = n.walk(it, refs)
		}
		out["prefixItems"] = list
	}
	if ap, ok := out["additionalProperties"].(map[string]any); ok {
		out["additionalProperties"] = n.walk(ap, refs)
	}

	if out["type"] == nil && out["properties"] != nil {
		out["type"] = "object"
		n.note("added type object")
	}
	if out["type"] == "object" && out["properties"] == nil {
		out["properties"] = map[string]any{}
		n.note("added empty properties")
	}
	if d, ok := out["description"].(string); ok && n.opts.MaxDescription > 0 {
		if t := TrimDescription(d, n.opts.MaxDescription); t != d {
			out["description"] = t
			n.note("shortened descriptions")
		}
	}
	return out
}

// inline returns the schema a local $ref points to, walked, with the
// keywords written beside the $ref (a description, say) taking precedence.
// A reference that is not local, does not resolve or recurses becomes a
// schema of the target's type alone; nil means nothing is known.
func (n *normalizer) inline(ref string, siblings map[string]any, refs []string) map[string]any {
	target, ok := pointer(n.root, ref)
	if !ok {
		n.note("dropped unresolvable $ref")
		return siblings
	}
	n.inlined++
	if n.inlined > maxInlines || slices.Contains(refs, ref) {
		// A recursive structure: show its type one level down and stop.
		n.note("cut recursive $ref")
		stub := map[string]any{}
		if tm, ok := target.(map[string]any); ok {
			if t, ok := tm["type"]; ok {
				stub["type"] = t
			}
		}
		for k, v := range siblings {
			stub[k] = v
		}
		return stub
	}
	n.note("inlined $ref")
	walked, _ := n.walk(target, append(refs, ref)).(map[string]any)
	merged := make(map[string]any, len(walked)+len(siblings))
	for k, v := range walked {
		merged[k] = v
	}
	for k, v := range siblings {
		merged[k] = v
	}
	return merged
}

// pointer resolves a local reference ("#", "#/$defs/X", "#/definitions/X",
// any JSON pointer into the document).
func pointer(root any, ref string) (any, bool) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, false
	}
	if frag == "" {
		return root, true
	}
	if !strings.HasPrefix(frag, "/") {
		return nil, false // a named $anchor; rare in tool schemas
	}
	cur := root
	for _, seg := range strings.Split(frag[1:], "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[seg]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// collapseUnion rewrites an anyOf/oneOf that only adds null ("string or
// null", the way optional fields are often written) into the plain type.
// A real union stays, as anyOf: Ollama's tool types know anyOf but not
// oneOf, and for a model the two read the same.
func (n *normalizer) collapseUnion(out map[string]any, key string, refs []string) {
	branches, ok := out[key].([]any)
	if !ok {
		delete(out, key)
		return
	}
	delete(out, key)
	var kept []any
	for _, b := range branches {
		w := n.walk(b, refs).(map[string]any)
		if isNullSchema(w) {
			n.note("made nullable type plain")
			continue
		}
		kept = append(kept, w)
	}
	switch len(kept) {
	case 0:
		out["type"] = "null"
	case 1:
		// The branch's keywords fill in; the node's own (its description)
		// win, since they were written for this place.
		for k, v := range kept[0].(map[string]any) {
			if _, has := out[k]; !has {
				out[k] = v
			}
		}
	default:
		if key == "oneOf" {
			n.note("turned oneOf into anyOf")
		}
		if prev, ok := out["anyOf"].([]any); ok {
			// Both anyOf and oneOf on one node: rare enough to keep one.
			kept = append(prev, kept...)
		}
		out["anyOf"] = kept
	}
}

// mergeAllOf folds an allOf of object schemas (how generators write
// "this and also that") into one object.
func (n *normalizer) mergeAllOf(out map[string]any, refs []string) {
	branches, ok := out["allOf"].([]any)
	if !ok {
		return
	}
	walked := make([]map[string]any, len(branches))
	for i, b := range branches {
		walked[i] = n.walk(b, refs).(map[string]any)
		if t, ok := walked[i]["type"]; ok && t != "object" && len(branches) > 1 {
			out["allOf"] = anySlice(walked[:i+1], branches[i+1:])
			return // not a plain object merge; leave it
		}
	}
	delete(out, "allOf")
	n.note("merged allOf")
	props, _ := out["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
	}
	req := Strings(out["required"])
	for _, w := range walked {
		for k, v := range w {
			switch k {
			case "properties":
				if pm, ok := v.(map[string]any); ok {
					for pk, pv := range pm {
						props[pk] = pv
					}
				}
			case "required":
				req = appendNew(req, Strings(v)...)
			default:
				if _, has := out[k]; !has {
					out[k] = v
				}
			}
		}
	}
	if len(props) > 0 || out["type"] == "object" {
		out["properties"] = props
	}
	if len(req) > 0 {
		out["required"] = toAnySlice(req)
	}
}

// plainType drops "null" from a list of types, and turns a one-element
// list into the plain string most templates expect.
func (n *normalizer) plainType(out map[string]any) {
	list, ok := out["type"].([]any)
	if !ok {
		return
	}
	var kept []any
	for _, t := range list {
		if t != "null" {
			kept = append(kept, t)
		}
	}
	switch {
	case len(kept) == 1:
		out["type"] = kept[0]
		n.note("made nullable type plain")
	case len(kept) == 0:
		out["type"] = "null"
	case len(kept) < len(list):
		out["type"] = kept
		n.note("made nullable type plain")
	}
}

// objectRoot makes the root an object schema: an anyOf of objects becomes
// one object with the properties of all (required: those every branch
// requires); anything else that is not an object is wrapped as the single
// property WrapProperty.
func (n *normalizer) objectRoot(s any) (any, string) {
	m := s.(map[string]any)
	if branches, ok := m["anyOf"].([]any); ok && m["type"] == nil && allObjects(branches) {
		delete(m, "anyOf")
		props := map[string]any{}
		var req []string
		for i, b := range branches {
			bm := b.(map[string]any)
			for k, v := range bm["properties"].(map[string]any) {
				props[k] = v
			}
			r := Strings(bm["required"])
			if i == 0 {
				req = r
			} else {
				req = intersect(req, r)
			}
		}
		m["type"] = "object"
		m["properties"] = props
		if len(req) > 0 {
			m["required"] = toAnySlice(req)
		}
		n.note("merged root anyOf")
		return m, ""
	}
	t, hasType := m["type"]
	if !hasType && m["anyOf"] == nil && m["enum"] == nil && m["const"] == nil && m["items"] == nil {
		// {} or a bare description: a tool without arguments.
		m["type"] = "object"
		m["properties"] = map[string]any{}
		return m, ""
	}
	if t == "object" {
		return m, ""
	}
	n.note("wrapped non-object root")
	wrapped := map[string]any{
		"type":       "object",
		"properties": map[string]any{WrapProperty: m},
		"required":   []any{WrapProperty},
	}
	return wrapped, WrapProperty
}

func isNullSchema(m map[string]any) bool {
	if m["type"] == "null" && len(m) <= 2 {
		_, desc := m["description"]
		return len(m) == 1 || desc
	}
	if c, ok := m["const"]; ok && c == nil && len(m) == 1 {
		return true
	}
	return false
}

func allObjects(branches []any) bool {
	if len(branches) == 0 {
		return false
	}
	for _, b := range branches {
		bm, ok := b.(map[string]any)
		if !ok || bm["type"] != "object" {
			return false
		}
		if _, ok := bm["properties"].(map[string]any); !ok {
			return false
		}
	}
	return true
}

// Strings returns the strings of a JSON array as encoding/json decodes
// it ([]any), skipping anything else: a schema's "required" names, or its
// list of types.
func Strings(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, e := range list {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func toAnySlice(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

func appendNew(list []string, add ...string) []string {
	for _, a := range add {
		if !slices.Contains(list, a) {
			list = append(list, a)
		}
	}
	return list
}

func intersect(a, b []string) []string {
	var out []string
	for _, x := range a {
		if slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

func anySlice(done []map[string]any, rest []any) []any {
	out := make([]any, 0, len(done)+len(rest))
	for _, d := range done {
		out = append(out, d)
	}
	return append(out, rest...)
}
