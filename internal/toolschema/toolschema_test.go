package toolschema_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/servers"
	"github.com/mcphost/mcphost/internal/toolschema"
	"github.com/mcphost/mcphost/mcptest"
)

// The schemas come live from the real reference servers, so a new server
// release that changes them is tested as it is.
func TestNormalizeRealServerSchemas(t *testing.T) {
	dir := t.TempDir()
	m := servers.NewManager([]config.ServerSpec{
		mcptest.EverythingSpec(t, "everything"),
		mcptest.FilesystemSpec(t, "filesystem", dir),
		mcptest.MemorySpec(t, "memory", dir+"/memory.json"),
	}, servers.Options{})
	defer m.Close()
	if errs := m.Start(context.Background()); len(errs) > 0 {
		t.Fatal(errs)
	}
	tools := m.Tools()
	perServer := map[string]int{}
	for _, tool := range tools {
		server, _, _ := m.Lookup(tool.Name)
		perServer[server]++
		t.Run(tool.Name, func(t *testing.T) {
			res, err := toolschema.Normalize(tool.Parameters, toolschema.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Wrapped != "" {
				t.Errorf("an object schema was wrapped")
			}
			var orig, norm map[string]any
			mustDecode(t, tool.Parameters, &orig)
			mustDecode(t, res.Schema, &norm)
			if _, ok := orig["$schema"]; ok && strings.Contains(string(res.Schema), "$schema") {
				t.Errorf("$schema kept: %s", res.Schema)
			}
			if norm["type"] != "object" {
				t.Errorf("root type %v", norm["type"])
			}
			// Nothing the model needs is lost: same properties, same
			// required list, same types, nested item schemas included.
			op, _ := orig["properties"].(map[string]any)
			np, _ := norm["properties"].(map[string]any)
			if !slices.Equal(slices.Sorted(maps.Keys(op)), slices.Sorted(maps.Keys(np))) {
				t.Errorf("properties %v became %v", slices.Sorted(maps.Keys(op)), slices.Sorted(maps.Keys(np)))
			}
			if !equalJSON(orig["required"], norm["required"]) {
				t.Errorf("required %v became %v", orig["required"], norm["required"])
			}
			for name, p := range op {
				pm, nm := p.(map[string]any), np[name].(map[string]any)
				for _, k := range []string{"type", "enum", "items", "description"} {
					if !equalJSON(pm[k], nm[k]) {
						t.Errorf("%s.%s: %v became %v", name, k, pm[k], nm[k])
					}
				}
			}
			assertOllamaReads(t, res.Schema)
		})
	}
	// All three servers were really there.
	if perServer["everything"] < 10 || perServer["filesystem"] < 10 || perServer["memory"] < 8 {
		t.Errorf("tools per server = %v", perServer)
	}
}

func TestNormalizeHardCases(t *testing.T) {
	long := strings.Repeat("word ", 200)
	tests := []struct {
		name    string
		in      string
		want    string // the normalised schema, as JSON (keys sorted)
		wrapped string
	}{
		{"pydantic: $defs, $ref, nullable anyOf, $id",
			`{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"urn:x","type":"object","$defs":{"Point":{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x","y"]}},"properties":{"at":{"$ref":"#/$defs/Point","description":"where"},"label":{"anyOf":[{"type":"string"},{"type":"null"}],"default":null,"description":"optional label"}},"required":["at"]}`,
			`{"properties":{"at":{"description":"where","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x","y"],"type":"object"},"label":{"default":null,"description":"optional label","type":"string"}},"required":["at"],"type":"object"}`, ""},
		{"draft-07 definitions and a ref inside items",
			`{"type":"object","definitions":{"Tag":{"type":"string","enum":["a","b"]}},"properties":{"tags":{"type":"array","items":{"$ref":"#/definitions/Tag"}}}}`,
			`{"properties":{"tags":{"items":{"enum":["a","b"],"type":"string"},"type":"array"}},"type":"object"}`, ""},
		{"recursive ref cut one level down",
			`{"type":"object","$defs":{"Node":{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/Node"}}}}},"properties":{"root":{"$ref":"#/$defs/Node"}}}`,
			`{"properties":{"root":{"properties":{"children":{"items":{"properties":{},"type":"object"},"type":"array"},"name":{"type":"string"}},"type":"object"}},"type":"object"}`, ""},
		{"reference to the root",
			`{"type":"object","properties":{"self":{"$ref":"#"},"n":{"type":"integer"}}}`,
			`{"properties":{"n":{"type":"integer"},"self":{"properties":{"n":{"type":"integer"},"self":{"properties":{},"type":"object"}},"type":"object"}},"type":"object"}`, ""},
		{"type list with null", `{"type":"object","properties":{"n":{"type":["integer","null"]},"v":{"type":["string","number","null"]}}}`,
			`{"properties":{"n":{"type":"integer"},"v":{"type":["string","number"]}},"type":"object"}`, ""},
		{"real union stays, oneOf as anyOf", `{"type":"object","properties":{"id":{"oneOf":[{"type":"string"},{"type":"integer"}]}}}`,
			`{"properties":{"id":{"anyOf":[{"type":"string"},{"type":"integer"}]}},"type":"object"}`, ""},
		{"allOf merged", `{"allOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"type":"object","properties":{"b":{"type":"number"}},"required":["b"]}]}`,
			`{"properties":{"a":{"type":"string"},"b":{"type":"number"}},"required":["a","b"],"type":"object"}`, ""},
		{"objects get properties", `{"type":"object","properties":{"opts":{"type":"object","additionalProperties":{"type":"string"}},"list":{"type":"array","items":{"type":"object"}}}}`,
			`{"properties":{"list":{"items":{"properties":{},"type":"object"},"type":"array"},"opts":{"additionalProperties":{"type":"string"},"properties":{},"type":"object"}},"type":"object"}`, ""},
		{"properties without type", `{"properties":{"q":{"type":"string"}}}`, `{"properties":{"q":{"type":"string"}},"type":"object"}`, ""},
		{"non-object root wrapped", `{"type":"string","description":"a city"}`,
			`{"properties":{"value":{"description":"a city","type":"string"}},"required":["value"],"type":"object"}`, toolschema.WrapProperty},
		{"array root wrapped", `{"type":"array","items":{"type":"number"}}`,
			`{"properties":{"value":{"items":{"type":"number"},"type":"array"}},"required":["value"],"type":"object"}`, toolschema.WrapProperty},
		{"root anyOf of objects merged", `{"anyOf":[{"type":"object","properties":{"path":{"type":"string"},"recursive":{"type":"boolean"}},"required":["path"]},{"type":"object","properties":{"path":{"type":"string"},"glob":{"type":"string"}},"required":["path","glob"]}]}`,
			`{"properties":{"glob":{"type":"string"},"path":{"type":"string"},"recursive":{"type":"boolean"}},"required":["path"],"type":"object"}`, ""},
		{"empty object", `{}`, `{"properties":{},"type":"object"}`, ""},
		{"true", `true`, `{"properties":{},"type":"object"}`, ""},
		{"null", `null`, `{"properties":{},"type":"object"}`, ""},
		{"nothing", ``, `{"properties":{},"type":"object"}`, ""},
		{"boolean property schema", `{"type":"object","properties":{"anything":true}}`, `{"properties":{"anything":{}},"type":"object"}`, ""},
		{"remote ref dropped, description kept", `{"type":"object","properties":{"x":{"$ref":"https://example.com/s.json","description":"d"}}}`,
			`{"properties":{"x":{"description":"d"}},"type":"object"}`, ""},
		{"OpenAPI nullable dropped", `{"type":"object","properties":{"x":{"type":"string","nullable":true}}}`,
			`{"properties":{"x":{"type":"string"}},"type":"object"}`, ""},
		{"property named like a keyword survives", `{"type":"object","properties":{"$schema":{"type":"string"},"id":{"type":"integer"}}}`,
			`{"properties":{"$schema":{"type":"string"},"id":{"type":"integer"}},"type":"object"}`, ""},
		{"long description capped", `{"type":"object","properties":{"x":{"type":"string","description":"` + long + `"}}}`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := toolschema.Normalize(json.RawMessage(tt.in), toolschema.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if tt.want != "" && string(res.Schema) != tt.want {
				t.Errorf("got  %s\nwant %s", res.Schema, tt.want)
			}
			if res.Wrapped != tt.wrapped {
				t.Errorf("wrapped = %q, want %q", res.Wrapped, tt.wrapped)
			}
			if strings.Contains(string(res.Schema), `"$ref"`) || strings.Contains(string(res.Schema), `"$defs"`) {
				t.Errorf("refs left: %s", res.Schema)
			}
			assertOllamaReads(t, res.Schema)
		})
	}
}

func TestNormalizeCapsDescriptions(t *testing.T) {
	long := strings.Repeat("lorem ipsum ", 100)
	in := `{"type":"object","description":"` + long + `","properties":{"x":{"type":"string","description":"` + long + `"}}}`
	res, err := toolschema.Normalize(json.RawMessage(in), toolschema.Options{MaxDescription: 50})
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Description string `json:"description"`
		Properties  struct {
			X struct {
				Description string `json:"description"`
			} `json:"x"`
		} `json:"properties"`
	}
	mustDecode(t, res.Schema, &s)
	for _, d := range []string{s.Description, s.Properties.X.Description} {
		if n := utf8.RuneCountInString(d); n > 50 || !strings.HasSuffix(d, "…") || strings.HasSuffix(d, " …") {
			t.Errorf("description %q (%d runes) not capped at 50 on a word boundary", d, n)
		}
	}
	if !slices.Contains(res.Changed, "shortened descriptions") {
		t.Errorf("changes = %q", res.Changed)
	}
}

func TestNormalizeRejectsNonJSON(t *testing.T) {
	if _, err := toolschema.Normalize(json.RawMessage(`{"type":`), toolschema.Options{}); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("err = %v", err)
	}
}

func TestTrimDescription(t *testing.T) {
	tests := []struct {
		in    string
		limit int
		want  string
	}{
		{"short", 10, "short"},
		{"  padded  ", 10, "padded"},
		{"one two three four five", 15, "one two three…"},
		{"one two three four five", 12, "one two thr…"}, // no space near the cut
		{"unbrokenwordthatislong", 8, "unbroke…"},
		{"héllo wörld ünïcode", 13, "héllo wörld…"},
		{"anything", 0, "anything"},
	}
	for _, tt := range tests {
		if got := toolschema.TrimDescription(tt.in, tt.limit); got != tt.want {
			t.Errorf("TrimDescription(%q, %d) = %q, want %q", tt.in, tt.limit, got, tt.want)
		}
	}
}

// assertOllamaReads checks that Ollama's own tool types decode the schema
// strictly: what they cannot hold, Ollama would drop or fail on.
func assertOllamaReads(t *testing.T, schema json.RawMessage) {
	t.Helper()
	var p api.ToolFunctionParameters
	if err := json.Unmarshal(schema, &p); err != nil {
		t.Errorf("Ollama's types cannot read %s: %v", schema, err)
		return
	}
	if p.Type != "object" || p.Properties == nil {
		t.Errorf("Ollama reads type %q, properties %v", p.Type, p.Properties)
	}
}

func mustDecode(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("decoding %s: %v", b, err)
	}
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestNormalizeBoundsInlining(t *testing.T) {
	// Each definition uses the next one twice: 2^20 copies if inlined
	// naively.
	var defs []string
	for i := range 20 {
		defs = append(defs, fmt.Sprintf(`"D%d":{"type":"object","properties":{"a":{"$ref":"#/$defs/D%d"},"b":{"$ref":"#/$defs/D%d"}}}`, i, i+1, i+1))
	}
	defs = append(defs, `"D20":{"type":"string"}`)
	in := `{"type":"object","$defs":{` + strings.Join(defs, ",") + `},"properties":{"x":{"$ref":"#/$defs/D0"}}}`
	res, err := toolschema.Normalize(json.RawMessage(in), toolschema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Schema) > 64<<10 {
		t.Errorf("normalised schema is %d bytes", len(res.Schema))
	}
	assertOllamaReads(t, res.Schema)
}
