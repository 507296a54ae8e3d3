package provider

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestParseModel(t *testing.T) {
	tests := []struct {
		ref      string
		provider string
		model    string
		wantErr  bool
	}{
		{ref: "ollama:qwen3:8b", provider: "ollama", model: "qwen3:8b"},
		{ref: "ollama:qwen3", provider: "ollama", model: "qwen3"},
		{ref: "ollama/qwen3:8b", provider: "ollama", model: "qwen3:8b"},
		{ref: "ollama:user/model:tag", provider: "ollama", model: "user/model:tag"},
		{ref: "ollama/user/model:tag", provider: "ollama", model: "user/model:tag"},
		{ref: "Ollama:llama3.2", provider: "ollama", model: "llama3.2"},
		{ref: "  ollama:qwen3:8b  ", provider: "ollama", model: "qwen3:8b"},
		{ref: "qwen3:8b", provider: "ollama", model: "qwen3:8b"},
		{ref: "qwen3", provider: "ollama", model: "qwen3"},
		{ref: "user/model:tag", provider: "ollama", model: "user/model:tag"},
		{ref: "hf.co/x/y:Q4", provider: "ollama", model: "hf.co/x/y:Q4"},
		{ref: "ollama:hf.co/x/y:Q4", provider: "ollama", model: "hf.co/x/y:Q4"},
		// A prefix that is not a provider stays in the model name.
		{ref: "ollamax:7b", provider: "ollama", model: "ollamax:7b"},
		{ref: "openai:gpt-4o", provider: "openai", model: "gpt-4o"},
		{ref: "OpenAI:gpt-4o", provider: "openai", model: "gpt-4o"},
		{ref: "llamacpp:any", provider: "llamacpp", model: "any"},
		{ref: "lmstudio:qwen3-8b", provider: "lmstudio", model: "qwen3-8b"},
		{ref: "vllm:Qwen/Qwen3-8B", provider: "vllm", model: "Qwen/Qwen3-8B"},
		// Only Ollama takes "/" after its name: "openai/gpt-oss-20b" is a
		// Hugging Face style name, an Ollama model.
		{ref: "openai/gpt-oss-20b", provider: "ollama", model: "openai/gpt-oss-20b"},
		{ref: "vllmx:7b", provider: "ollama", model: "vllmx:7b"},
		{ref: "", wantErr: true},
		{ref: "   ", wantErr: true},
		{ref: "ollama", wantErr: true},
		{ref: "ollama:", wantErr: true},
		{ref: "ollama/", wantErr: true},
		{ref: "ollama: ", wantErr: true},
		{ref: "openai", wantErr: true},
		{ref: "vllm:", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			p, m, err := ParseModel(tt.ref)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("ParseModel(%q) = %q, %q, want an error", tt.ref, p, m)
				}
				const want = "no model given: pass -m ollama:MODEL, e.g. -m ollama:qwen3:8b"
				if err.Error() != want {
					t.Errorf("error = %q, want %q", err, want)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseModel(%q): %v", tt.ref, err)
			}
			if p != tt.provider || m != tt.model {
				t.Errorf("ParseModel(%q) = %q, %q, want %q, %q", tt.ref, p, m, tt.provider, tt.model)
			}
		})
	}
}

func TestParseModelWithConfiguredEngines(t *testing.T) {
	engines := []string{"gpu-box", "Lab"}
	tests := []struct{ ref, engine, model string }{
		{"gpu-box:Qwen/Qwen3-32B", "gpu-box", "Qwen/Qwen3-32B"},
		{"GPU-BOX:m", "gpu-box", "m"},
		{"lab:qwen3:8b", "Lab", "qwen3:8b"},
		// Not a configured engine: an Ollama name, whole.
		{"gpu:7b", "ollama", "gpu:7b"},
		{"llamacpp:x", "llamacpp", "x"},
	}
	for _, tt := range tests {
		e, m, err := ParseModelWith(tt.ref, engines)
		if err != nil || e != tt.engine || m != tt.model {
			t.Errorf("ParseModelWith(%q) = %q, %q, %v; want %q, %q", tt.ref, e, m, err, tt.engine, tt.model)
		}
	}
	if _, _, err := ParseModelWith("gpu-box:", engines); err == nil {
		t.Error("an engine without a model is not an error")
	}
}

// TestMisspeltEnginePrefix tells a slip in an engine's name from the real
// Ollama names that have colons in them: a slip is a configuration error
// saying the reference meant, an Ollama name goes to Ollama whole.
func TestMisspeltEnginePrefix(t *testing.T) {
	configured := []string{"gpu-box", "ollama2"}
	tests := []struct {
		ref   string
		meant string // "" when the reference is an Ollama model
	}{
		// Slips: two colons, or a "/" after the colon, with a prefix a few
		// edits from an engine's name.
		{"olama:qwen3:8b", "ollama:qwen3:8b"},
		{"Olama:qwen3:8b", "ollama:qwen3:8b"},
		{"ollma:llama3.2:3b", "ollama:llama3.2:3b"},
		{"olama:hf.co/bartowski/Qwen3-8B-GGUF:Q4_K_M", "ollama:hf.co/bartowski/Qwen3-8B-GGUF:Q4_K_M"},
		{"vlm:Qwen/Qwen3-8B", "vllm:Qwen/Qwen3-8B"},
		{"lmstuido:qwen/qwen3-8b", "lmstudio:qwen/qwen3-8b"},
		{"llamacp:qwen3:8b", "llamacpp:qwen3:8b"},
		{"llama.cpp:qwen3:8b", "llamacpp:qwen3:8b"},
		{"lama-server:unsloth/Qwen3-8B", "llamacpp:unsloth/Qwen3-8B"},
		{"opnai:gpt-4o:latest", "openai:gpt-4o:latest"},
		{"gpu-bx:Qwen/Qwen3-32B", "gpu-box:Qwen/Qwen3-32B"},
		{"gpubox:Qwen/Qwen3-32B", "gpu-box:Qwen/Qwen3-32B"},
		// Real Ollama names.
		{"qwen3:8b", ""},
		{"olama:8b", ""}, // MODEL:TAG: a model may be called "olama"
		{"deepseek-r1:1.5b", ""},
		{"gemma3:27b-it-qat", ""},
		{"hf.co/bartowski/Qwen3-8B-GGUF:Q4_K_M", ""},
		{"library/qwen3:8b", ""},
		{"olama/qwen3:8b", ""}, // a namespace "olama"
		{"registry.ollama.ai/library/qwen3:8b", ""},
		{"localhost:5000/qwen3:8b", ""},
		{"olama:5000/library/qwen3:8b", ""}, // a registry host with a port
		// Far from every engine: left to Ollama, which says what it makes
		// of the name.
		{"mistral:7b:instruct", ""},
		{"llama3:8b:q4", ""}, // two edits from "ollama"
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			engine, model, err := ParseModelWith(tt.ref, configured)
			if tt.meant == "" {
				if err != nil || engine != EngineOllama || model != tt.ref {
					t.Errorf("ParseModelWith(%q) = %q, %q, %v; want the Ollama model %q", tt.ref, engine, model, err, tt.ref)
				}
				return
			}
			if !errors.Is(err, ErrUnknownEngine) {
				t.Fatalf("ParseModelWith(%q) = %q, %q, %v; want a slip of the engine's name", tt.ref, engine, model, err)
			}
			given, _, _ := strings.Cut(tt.ref, ":")
			want := fmt.Sprintf("unknown engine %q in model %q: did you mean %s?", given, tt.ref, tt.meant)
			if err.Error() != want {
				t.Errorf("error = %q\nwant    %q", err, want)
			}
		})
	}
	// A configured engine is a name, not a slip of one.
	if engine, model, err := ParseModelWith("ollama2:qwen3:8b", configured); err != nil || engine != "ollama2" || model != "qwen3:8b" {
		t.Errorf("ParseModelWith(ollama2:qwen3:8b) = %q, %q, %v", engine, model, err)
	}
}
