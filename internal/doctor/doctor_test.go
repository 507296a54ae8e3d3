package doctor

import (
	"strings"
	"testing"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/ui"
)

func TestExitCode(t *testing.T) {
	ok := Check{Name: "engine", Status: StatusOK, Model: true}
	warn := Check{Name: "tool share", Status: StatusWarn}
	unknown := Check{Name: "context", Status: StatusUnknown, Model: true}
	server := Check{Name: "server x", Status: StatusFail}
	model := Check{Name: "model", Status: StatusFail, Model: true}
	for _, tc := range []struct {
		name   string
		checks []Check
		want   int
	}{
		{"nothing wrong", []Check{ok, warn, unknown}, ExitOK},
		{"a server", []Check{ok, server}, ExitOther},
		{"the model wins over a server", []Check{server, model}, ExitModel},
		{"no checks", nil, ExitOK},
	} {
		if got := (Report{Checks: tc.checks}).ExitCode(); got != tc.want {
			t.Errorf("%s: exit %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestWriteCheckShowsTheFixOnlyWhenSomethingIsWrong(t *testing.T) {
	var b strings.Builder
	_ = WriteCheck(&b, Check{Name: "model", Status: StatusFail, Detail: "Ollama does not have x", Fix: "ollama pull x"}, ui.Style{})
	_ = WriteCheck(&b, Check{Name: "engine", Status: StatusOK, Detail: "answers", Fix: "never shown"}, ui.Style{})
	_ = WriteCheck(&b, Check{Name: "context", Status: StatusUnknown, Detail: "not known\x1b[31m"}, ui.Style{})
	want := "✗ model: Ollama does not have x\n    → ollama pull x\n✓ engine: answers\n? context: not known\n"
	if b.String() != want {
		t.Errorf("got:\n%q\nwant:\n%q", b.String(), want)
	}
}

func TestAddressSaysWhereItCameFrom(t *testing.T) {
	for _, tc := range []struct {
		name   string
		s      config.Settings
		engine string
		want   string
	}{
		{"default", config.Settings{}, "ollama", "Ollama at http://127.0.0.1:11434 (its usual address)"},
		{"env", config.Settings{OllamaHost: "box:1234", OllamaHostSource: "OLLAMA_HOST"}, "ollama", "Ollama at http://box:1234 (from OLLAMA_HOST)"},
		{"preset moved", config.Settings{ProviderURL: "http://gpu:8000/v1", ProviderURLSource: "--provider-url"}, "vllm", "vLLM at http://gpu:8000/v1 (from --provider-url)"},
		{"configured", config.Settings{Providers: []config.Engine{{Name: "box", Type: "llamacpp", URL: "http://box:8080/v1", Source: "~/.mcphost.yml"}}}, "box",
			"llama.cpp at http://box:8080/v1 (from providers.box.url in ~/.mcphost.yml)"},
	} {
		if got := addressOf(&tc.s, tc.engine).where(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
