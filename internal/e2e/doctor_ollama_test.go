//go:build linux

package e2e

// End-to-end: "mcphost doctor" against the real Ollama with tiny models
// that call the probe's tool natively, write the call as text, call the
// wrong tool, or never call (see ollama_e2e_test.go).

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// createTextCallModel creates a model that writes its tool call as text:
// its template writes calls in <call> tags, so Ollama's parser waits for
// <call> and passes the model's <tool_call> through as content, as it
// does for a model whose template and training disagree.
func (o *realOllama) createTextCallModel(name string, genFlags ...string) {
	o.t.Helper()
	o.createModel(name+"-src", genFlags...)
	dir := filepath.Join(o.work, name+"-src")
	modelfile := filepath.Join(dir, "Modelfile")
	data, err := os.ReadFile(modelfile)
	if err != nil {
		o.t.Fatal(err)
	}
	text := strings.NewReplacer("<tool_call>", "<call>", "</tool_call>", "</call>").Replace(string(data))
	if text == string(data) {
		o.t.Fatal("the generator's template has no <tool_call> to replace")
	}
	if err := os.WriteFile(modelfile, []byte(text), 0o644); err != nil {
		o.t.Fatal(err)
	}
	o.create(name, dir)
}

func TestRealOllamaDoctor(t *testing.T) {
	t.Parallel()
	o := startRealOllama(t, "native", "-call", `get_weather={"city":"Paris","days":2}`, "-answer", "Sunny in Paris.")
	o.createTextCallModel("texty", "-call", `get_weather={"city":"Paris","days":2}`, "-answer", "Sunny in Paris.")
	o.createModel("wrong", "-call", `get_time={"zone":"Europe/Paris"}`, "-answer", "It is noon.")
	// Ollama drops a call of a tool the request does not offer.
	o.createModel("silent", "-call", `nowhere__nothing={"x":1}`, "-answer", "Never.")
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))

	tests := []struct {
		model string
		code  int
		want  []string
	}{
		{"native", 0, []string{
			"✓ engine: Ollama ",
			"✓ capabilities: tools: yes, vision: no, thinking: no",
			"✓ context: trained on 32768 tokens; mcphost asks for 8192",
			"✓ tool call: calls get_weather natively",
			`✓ arguments: city "Paris" (string), days 2 (integer), as asked`,
			`✓ stops: answered after one call: "Sunny in Paris."`,
			"✓ server everything: started in ",
		}},
		{"texty", 0, []string{
			"! tool call: writes the call of get_weather as text (<tool_call>), which mcphost recovered",
			`✓ arguments: city "Paris" (string), days 2 (integer), as asked`,
			"Set a low temperature: --temperature 0.2",
		}},
		{"wrong", 3, []string{
			"✗ tool call: called get_time when asked to call get_weather",
			"Another model does better: ollama:native calls the probe's tool natively",
		}},
		{"silent", 3, []string{
			"✗ tool call: never called a tool, and gave no answer",
			"Another model does better: ollama:native calls the probe's tool natively",
		}},
	}
	for _, tc := range tests {
		out := runBinary(t, invocation{args: []string{"doctor", "-m", tc.model}, dir: dir, host: o.URL})
		if out.code != tc.code {
			t.Errorf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", tc.model, out.code, tc.code, out.stdout, out.stderr)
			continue
		}
		wantAll(t, tc.model+": stdout", out.stdout, tc.want...)
		t.Logf("mcphost doctor -m %s (exit %d):\n%s", tc.model, out.code, out.stdout)
	}
	// Only mcphost's own probe tools were ever offered to the model.
	for _, req := range o.chats() {
		for _, tool := range req.Tools {
			if name := tool.Function.Name; name != "get_weather" && name != "get_time" {
				t.Errorf("the model was offered the user's tool %s", name)
			}
		}
	}
}
