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
		{ref: "openai:gpt-4o", provider: "ollama", model: "openai:gpt-4o"},
		{ref: "", wantErr: true},
		{ref: "   ", wantErr: true},
		{ref: "ollama", wantErr: true},
		{ref: "ollama:", wantErr: true},
		{ref: "ollama/", wantErr: true},
		{ref: "ollama: ", wantErr: true},
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
