package provider

import "testing"

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
