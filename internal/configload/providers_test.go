package configload

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/provider"
)

func TestLoadProviders(t *testing.T) {
	fx := newFixture(t)
	fx.env["VLLM_KEY"] = "vllm-secret-key"
	write(t, fx.home, ".mcphost.yml", `
providers:
  gpu-box:
    type: vLLM
    url: http://10.0.0.5:8000/v1
    api-key: ${VLLM_KEY}
    headers: {X-Team: ml}
  Lab: {url: "http://lab:8080/v1", headers: ["Authorization: Bearer ${VLLM_KEY}"]}
  llamacpp: {url: "http://gpu:8080/v1"}
`)
	// The project file's entry replaces the user file's of the same name.
	write(t, fx.work, ".mcphost.yml", "providers:\n  lab: {type: llama.cpp, url: \"http://lab2:8080\"}\n")
	s := fx.mustLoad(t)
	want := []config.Engine{
		{Name: "gpu-box", Type: provider.EngineVLLM, URL: "http://10.0.0.5:8000/v1", APIKey: "vllm-secret-key", Headers: map[string]string{"X-Team": "ml"}},
		{Name: "lab", Type: provider.EngineLlamaCpp, URL: "http://lab2:8080", Project: true},
		{Name: "llamacpp", Type: provider.EngineLlamaCpp, URL: "http://gpu:8080/v1"},
	}
	for i := range s.Providers {
		s.Providers[i].Source = ""
	}
	if !reflect.DeepEqual(s.Providers, want) {
		t.Errorf("providers = %+v\nwant %+v", s.Providers, want)
	}
}

func TestLoadProvidersErrors(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"providers: [a]", `"providers" must be an object`},
		{"providers: {x: {type: tgi, url: http://h/v1}}", `provider "x": "type" "tgi" is not one of openai, llamacpp, lmstudio, vllm, ollama`},
		{"providers: {x: {type: vllm}}", `provider "x": "url" is missing`},
		{"providers: {x: {url: h:8080}}", `provider "x": "url" must be an http:// or https:// address`},
		{"providers: {x: {url: http://h/v1, api-key: \"${NOPE}\"}}", `provider "x": "api-key" uses ${NOPE}, which is not set`},
		{"providers: {x: {url: http://h/v1, key: abc}}", `provider "x": has an unknown key "key"`},
		{"providers: {x: {url: http://h/v1, headers: [nocolon]}}", `provider "x": "headers" entry 1 has no colon`},
		{"providers: {\"a:b\": {url: http://h/v1}}", `the name must not contain ":"`},
		{"providers: {ollama: {url: http://h:11434}}", `"ollama" is the default Ollama`},
	}
	for _, tt := range tests {
		fx := newFixture(t)
		path := write(t, fx.work, ".mcphost.yml", tt.yaml)
		_, err := fx.load(t)
		var ce *config.Error
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.want) || ce.File != path {
			t.Errorf("%s: error %v, want one naming the file and %q", tt.yaml, err, tt.want)
		}
	}
}

func TestProviderKeySources(t *testing.T) {
	tests := []struct {
		name      string
		file      string
		env       map[string]string
		args      []string
		key, from string
	}{
		{"none", "", nil, nil, "", ""},
		{"OPENAI_API_KEY", "", map[string]string{"OPENAI_API_KEY": "sk-env"}, nil, "sk-env", "OPENAI_API_KEY"},
		{"file over OPENAI_API_KEY", "provider-api-key: sk-file\n", map[string]string{"OPENAI_API_KEY": "sk-env"}, nil, "sk-file", `"provider-api-key" in .mcphost.yml`},
		{"MCPHOST_ over file", "provider-api-key: sk-file\n", map[string]string{"MCPHOST_PROVIDER_API_KEY": "sk-mc"}, nil, "sk-mc", "MCPHOST_PROVIDER_API_KEY"},
		{"flag over all", "provider-api-key: sk-file\n", map[string]string{"MCPHOST_PROVIDER_API_KEY": "sk-mc"}, []string{"--provider-api-key", "sk-flag"}, "sk-flag", "--provider-api-key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(t)
			if tt.file != "" {
				write(t, fx.work, ".mcphost.yml", tt.file)
			}
			for k, v := range tt.env {
				fx.env[k] = v
			}
			fx.args = append(tt.args, "--provider-url", "http://127.0.0.1:8080/v1", "--pull")
			s := fx.mustLoad(t)
			if s.ProviderAPIKey != tt.key || s.ProviderKeySource != tt.from || s.ProviderURL != "http://127.0.0.1:8080/v1" || !s.Pull {
				t.Errorf("key %q from %q, url %q, pull %v", s.ProviderAPIKey, s.ProviderKeySource, s.ProviderURL, s.Pull)
			}
		})
	}
}
