package e2e

import (
	"testing"

	"github.com/mcphost/mcphost/ollamatest"
	"github.com/mcphost/mcphost/openaitest"
)

func TestGenerationParametersReachTheModel(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	dir := t.TempDir()
	// A user file sets the general parameters and one model's own; the
	// command line wins over both.
	home := t.TempDir()
	writeConfig(t, home, ".mcphost.yml", "temperature: 0.7\ntop-k: 40\nmodels:\n  tiny: {temperature: 0.1, max-tokens: 256}\n")
	out := runBinary(t, invocation{args: []string{"-m", "ollama:tiny", "-p", "hi", "--top-p", "0.9", "--seed", "7", "--stop-sequences", "END", "--stop-sequences", "STOP"},
		dir: dir, home: home, host: ollama.URL})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	opts := ollama.Requests()[0].Options
	want := map[string]any{"temperature": 0.1, "top_k": float64(40), "top_p": 0.9, "num_predict": float64(256), "seed": float64(7)}
	for k, v := range want {
		if opts[k] != v {
			t.Errorf("option %s = %v (%T), want %v", k, opts[k], opts[k], v)
		}
	}
	if stop, _ := opts["stop"].([]any); len(stop) != 2 || stop[0] != "END" || stop[1] != "STOP" {
		t.Errorf("stop = %v", opts["stop"])
	}
	// Without any, none is sent: the model's own defaults stand.
	out = runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "hi"}, host: ollama.URL})
	if opts := ollama.Requests()[1].Options; out.code != 0 || opts["temperature"] != nil || opts["top_k"] != nil {
		t.Errorf("defaults sent %v", opts)
	}
}

func TestGenerationParametersReachAnOpenAICompatibleEngine(t *testing.T) {
	t.Parallel()
	llama := openaitest.NewServer(openaitest.Options{Flavor: openaitest.LlamaCpp, Models: []openaitest.Model{{ID: "tiny", ContextLength: 8192}}})
	defer llama.Close()
	out := runBinary(t, invocation{args: []string{"-m", "llamacpp:tiny", "--provider-url", llama.URL + "/v1", "-p", "hi",
		"--temperature", "0.2", "--top-p", "0.8", "--top-k", "20", "--max-tokens", "64", "--seed", "3", "--stop-sequences", "END"}})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	extra := llama.Requests()[0].Extra
	for k, want := range map[string]string{"temperature": "0.2", "top_p": "0.8", "top_k": "20", "max_tokens": "64", "seed": "3", "stop": `["END"]`} {
		if got := string(extra[k]); got != want {
			t.Errorf("%s = %s, want %s", k, got, want)
		}
	}
}
