package toolcall_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcphost/mcphost/internal/toolcall"
	"github.com/mcphost/mcphost/internal/toolschema"
)

// schemaFor prepares a checker the way the runner does: normalised for the
// model, original for validation.
func schemaFor(t *testing.T, original string) *toolcall.Schema {
	t.Helper()
	res, err := toolschema.Normalize(json.RawMessage(original), toolschema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return toolcall.NewSchema(json.RawMessage(original), res.Schema, res.Wrapped)
}

// Real schemas of server-everything (as its server lists them) and a
// hand-made one with $defs, nullable fields and nested objects.
const (
	sumSchema     = `{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"a":{"description":"First number","type":"number"},"b":{"description":"Second number","type":"number"}},"required":["a","b"],"type":"object"}`
	annotSchema   = `{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"includeImage":{"default":false,"description":"Whether to include an example image","type":"boolean"},"messageType":{"description":"Type of message","enum":["error","success","debug"],"type":"string"}},"required":["messageType"],"type":"object"}`
	entitySchema  = `{"type":"object","$defs":{"Entity":{"type":"object","properties":{"name":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}},"weight":{"type":"integer"}},"required":["name"]}},"properties":{"entities":{"type":"array","items":{"$ref":"#/$defs/Entity"}},"note":{"anyOf":[{"type":"string"},{"type":"null"}]},"limit":{"type":"integer"},"strict":{"type":"boolean"}},"required":["entities"],"additionalProperties":false}`
	stringRoot    = `{"type":"string","minLength":2}`
	draft4Schema  = `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`
	remoteRefTool = `{"type":"object","properties":{"x":{"$ref":"https://example.com/x.json"}}}`
)

func TestCheckRepairs(t *testing.T) {
	tests := []struct {
		name, schema, args string
		want               string // arguments after Check
		repairs            []string
	}{
		{"valid untouched", sumSchema, `{"a":1,"b":2}`, `{"a":1,"b":2}`, nil},
		{"numbers as strings (llama3.2)", sumSchema, `{"a":"3","b":" 1.5 "}`, `{"a":3,"b":1.5}`,
			[]string{`"a": string "3" taken as number`, `"b": string " 1.5 " taken as number`}},
		{"boolean as string", annotSchema, `{"messageType":"debug","includeImage":"True"}`, `{"includeImage":true,"messageType":"debug"}`,
			[]string{`"includeImage": string "True" taken as boolean`}},
		{"null optional dropped", annotSchema, `{"messageType":"error","includeImage":null}`, `{"messageType":"error"}`,
			[]string{`"includeImage": dropped null for an optional argument`}},
		{"array as JSON string", entitySchema, `{"entities":"[{\"name\":\"Ada\",\"weight\":\"3\"}]"}`, `{"entities":[{"name":"Ada","weight":3}]}`,
			[]string{`"entities": JSON string parsed as array`, `"entities[0].weight": string "3" taken as integer`}},
		{"nullable kept when the schema allows null", entitySchema, `{"entities":[],"note":null}`, `{"entities":[],"note":null}`, nil},
		{"nested integer in $ref items", entitySchema, `{"entities":[{"name":"x","tags":["a"],"weight":"7"}],"limit":"10","strict":"false"}`,
			`{"entities":[{"name":"x","tags":["a"],"weight":7}],"limit":10,"strict":false}`,
			[]string{`"entities[0].weight": string "7" taken as integer`, `"limit": string "10" taken as integer`, `"strict": string "false" taken as boolean`}},
		{"missing arguments", `{"type":"object","properties":{}}`, `null`, `{}`, []string{"missing arguments taken as {}"}},
		{"non-object root wrapped", stringRoot, `{"value":"hello"}`, `{"value":"hello"}`, nil},
		{"draft 4 still validated", draft4Schema, `{"n":"4"}`, `{"n":4}`, []string{`"n": string "4" taken as integer`}},
		{"unresolvable schema: repairs only", remoteRefTool, `{"x":"anything"}`, `{"x":"anything"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var args map[string]any
			if err := json.Unmarshal([]byte(tt.args), &args); err != nil {
				t.Fatal(err)
			}
			before, _ := json.Marshal(args)
			fixed, repairs, err := schemaFor(t, tt.schema).Check("t", args)
			if err != nil {
				t.Fatalf("Check: %v", err)
			}
			got, _ := json.Marshal(fixed)
			if string(got) != tt.want {
				t.Errorf("arguments = %s, want %s", got, tt.want)
			}
			if !slices.Equal(repairs, tt.repairs) {
				t.Errorf("repairs = %q, want %q", repairs, tt.repairs)
			}
			if after, _ := json.Marshal(args); string(after) != string(before) {
				t.Errorf("Check modified the model's arguments: %s", after)
			}
		})
	}
}

func TestCheckRejects(t *testing.T) {
	tests := []struct {
		name, schema, args string
		argument           string
		want               []string // substrings of the message
	}{
		{"word for a number", sumSchema, `{"a":"three","b":1}`, "a",
			[]string{`invalid arguments for tool "t": argument "a" must be a number, got a string "three"`, `Schema of "a": {"description":"First number","type":"number"}`, "not called"}},
		{"missing required", sumSchema, `{"a":1}`, "b",
			[]string{`argument "b" is required but missing`, `"type":"number"`}},
		{"not in enum", annotSchema, `{"messageType":"warning"}`, "messageType",
			[]string{`argument "messageType" is invalid: enum: warning does not equal any of`, `"enum":["error","success","debug"]`}},
		{"unknown argument with additionalProperties false", entitySchema, `{"entities":[],"colour":"red"}`, "colour",
			[]string{`argument "colour" is not an argument of this tool; it takes entities, limit, note, strict`}},
		{"argument for a tool that takes none", `{"type":"object","properties":{},"additionalProperties":false}`, `{"path":"."}`, "path",
			[]string{`argument "path" is not an argument of this tool; it takes no arguments`}},
		{"nested item missing name ($ref inlined in the quoted schema)", entitySchema, `{"entities":[{"tags":[]}]}`, "entities",
			[]string{`argument "entities" is invalid: required: missing properties: ["name"]`, `Schema of "entities": {"items":{"properties":{"name":{"type":"string"}`}},
		{"integer wanted, fraction given", entitySchema, `{"entities":[],"limit":2.5}`, "limit",
			[]string{`argument "limit" must be an integer, got a number 2.5`}},
		{"wrapped root too short", stringRoot, `{"value":"x"}`, "value",
			[]string{`argument "value" is invalid: minLength`}},
		{"long value quoted whole characters only", sumSchema, `{"a":"x` + strings.Repeat("é", 40) + `","b":1}`, "a",
			[]string{`argument "a" must be a number, got a string "x` + strings.Repeat("é", 28) + `…`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var args map[string]any
			if err := json.Unmarshal([]byte(tt.args), &args); err != nil {
				t.Fatal(err)
			}
			fixed, _, err := schemaFor(t, tt.schema).Check("t", args)
			var ae *toolcall.ArgError
			if !errors.As(err, &ae) || fixed != nil {
				t.Fatalf("Check = %v, %v; want an *ArgError", fixed, err)
			}
			if ae.Argument != tt.argument {
				t.Errorf("argument at fault = %q, want %q (%v)", ae.Argument, tt.argument, err)
			}
			if !utf8.ValidString(err.Error()) {
				t.Errorf("message is not valid UTF-8: %q", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("message %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestTypeText(t *testing.T) {
	s := schemaFor(t, entitySchema)
	// As an XML-style format writes them: every value as text.
	args := map[string]any{"entities": `[{"name": "Ada"}]`, "limit": "5", "strict": "true", "note": "42", "extra": "7"}
	got := s.TypeText(args)
	b, _ := json.Marshal(got)
	if want := `{"entities":[{"name":"Ada"}],"extra":"7","limit":5,"note":"42","strict":true}`; string(b) != want {
		t.Errorf("typed = %s, want %s", b, want)
	}
	if args["limit"] != "5" {
		t.Errorf("TypeText modified its argument: %v", args)
	}
	// Text that does not read as the type asked for stays for Check.
	if got := s.TypeText(map[string]any{"limit": "five"}); got["limit"] != "five" {
		t.Errorf("limit = %v", got["limit"])
	}
}

func TestIsDefinition(t *testing.T) {
	sum := schemaFor(t, sumSchema)
	def := map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "number"}}, "required": []any{"a"}}
	if !sum.IsDefinition(def) {
		t.Error("a tool's own schema as its arguments is not taken for a definition")
	}
	if sum.IsDefinition(map[string]any{"a": 1, "b": 2}) {
		t.Error("plain arguments taken for a definition")
	}
	// A tool that takes a schema is called with one.
	takes := schemaFor(t, `{"type":"object","properties":{"type":{"type":"string"},"properties":{"type":"object"}}}`)
	if takes.IsDefinition(def) {
		t.Error("a tool that takes properties cannot be called with them")
	}
}
