package toolschema_test

import (
	"encoding/json"
	"testing"

	"github.com/mcphost/mcphost/internal/toolschema"
)

// FuzzNormalize: any JSON comes out as an object schema with properties.
func FuzzNormalize(f *testing.F) {
	for _, seed := range []string{
		`{"type":"object","$defs":{"N":{"type":"object","properties":{"c":{"type":"array","items":{"$ref":"#/$defs/N"}}}}},"properties":{"n":{"$ref":"#/$defs/N"}}}`,
		`{"anyOf":[{"type":"object","properties":{"a":{}}},{"type":"null"}]}`,
		`{"allOf":[{"type":"string"},{"type":"object"}]}`,
		`{"$ref":"#"}`,
		`{"properties":{"x":{"$ref":"#/properties/x"}}}`,
		`[1,2]`, `"s"`, `false`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if !json.Valid([]byte(in)) {
			return
		}
		res, err := toolschema.Normalize(json.RawMessage(in), toolschema.Options{})
		if err != nil {
			t.Fatalf("valid JSON %q rejected: %v", in, err)
		}
		var out struct {
			Type       string          `json:"type"`
			Properties json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(res.Schema, &out); err != nil || out.Type != "object" || len(out.Properties) == 0 || out.Properties[0] != '{' {
			t.Errorf("%q became %s", in, res.Schema)
		}
	})
}
