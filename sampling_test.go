package main

import (
	"testing"

	"github.com/mcphost/mcphost/ollamatest"
)

func TestGenerationParametersReachTheModel(t *testing.T) {
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
