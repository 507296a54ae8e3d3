package configload

import (
	"testing"

	"github.com/spf13/pflag"
)

func TestRegisterFlags(t *testing.T) {
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	RegisterFlags(fs)
	tests := []struct {
		name, short, def string
	}{
		{"model", "m", ""},
		{"prompt", "p", ""},
		{"config", "", ""},
		{"ollama-host", "", ""},
		{"provider-url", "", ""},
		{"provider-api-key", "", ""},
		{"pull", "", "false"},
		{"max-steps", "", "20"},
		{"system-prompt", "", ""},
		{"quiet", "", "false"},
		{"debug", "", "false"},
		{"num-ctx", "", "8192"},
		{"output", "", "text"},
		{"hide-thinking", "", "false"},
		{"think", "", "false"},
		{"theme", "", "auto"},
		{"no-cache", "", "false"},
		{"audit-result-bytes", "", "4096"},
		{"no-hooks", "", "false"},
		{"temperature", "", "0"},
		{"top-p", "", "0"},
		{"top-k", "", "0"},
		{"max-tokens", "", "0"},
		{"seed", "", "0"},
		{"stop-sequences", "", "[]"},
		{"session", "", ""},
		{"session-wait", "", ""},
		{"allow-tool", "", "[]"},
		{"deny-tool", "", "[]"},
		{"yolo", "", "false"},
		{"trust-project", "", "false"},
		{"audit", "", ""},
		{"max-result-bytes", "", "0"},
		{"elicitation", "", "decline"},
		{"sampling", "", "deny"},
		{"mcp-prompt", "", ""},
		{"prompt-arg", "", "[]"},
		{"max-reply-bytes", "", "8388608"},
		{"model-idle-timeout", "", "5m0s"},
		{"model-timeout", "", "30m0s"},
		{"max-stdin-bytes", "", "16777216"},
		{"max-parallel-tools", "", "8"},
		{"max-tool-calls", "", "32"},
		{"server-wait", "", "10s"},
		{"tool-share", "", "0.25"},
		{"embed-model", "", ""},
		{"url", "", ""},
		{"stdio", "", ""},
		{"oauth-client-id", "", ""},
		{"oauth-client-secret", "", ""},
		{"oauth-client-metadata-url", "", ""},
	}
	for _, tt := range tests {
		f := fs.Lookup(tt.name)
		if f == nil {
			t.Errorf("flag --%s is not defined", tt.name)
			continue
		}
		if f.Shorthand != tt.short {
			t.Errorf("--%s shorthand = %q, want %q", tt.name, f.Shorthand, tt.short)
		}
		if f.DefValue != tt.def {
			t.Errorf("--%s default = %q, want %q", tt.name, f.DefValue, tt.def)
		}
		if f.Usage == "" {
			t.Errorf("--%s has no help text", tt.name)
		}
	}
	n := 0
	fs.VisitAll(func(*pflag.Flag) { n++ })
	if n != len(tests) {
		t.Errorf("RegisterFlags defined %d flags, want %d", n, len(tests))
	}
}
