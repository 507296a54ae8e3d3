package servers

import (
	"strings"
	"testing"
)

func TestStderrExcerptFindsTheCause(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  []string
	}{
		{"cause first, usage after", []string{"Error: no current context is set", "Usage:", "  server [flags]", "Flags:", "  -h, --help  help", "  --version  Print version information and quit"},
			[]string{"Error: no current context is set", "Flags:", "  -h, --help  help", "  --version  Print version information and quit"}},
		{"cause in a stack", []string{"node:internal/modules/esm/resolve:275", "    throw new ERR_UNKNOWN_BUILTIN_MODULE(specifier);", "Error [ERR_UNKNOWN_BUILTIN_MODULE]: No such built-in module: node:sqlite", "    at new NodeError (node:internal/errors:405:5)", "  code: 'ERR_UNKNOWN_BUILTIN_MODULE'", "}"},
			[]string{"throw new ERR_UNKNOWN_BUILTIN_MODULE(specifier);", "Error [ERR_UNKNOWN_BUILTIN_MODULE]: No such built-in module: node:sqlite", "at new NodeError (node:internal/errors:405:5)", "code: 'ERR_UNKNOWN_BUILTIN_MODULE'", "}"}},
		{"npm's log pointer is noise", []string{"npm error code E404", "npm error 404 Not Found - GET https://registry.npmjs.org/@x%2fnope", "npm error A complete log of this run can be found in: /root/.npm/_logs/x.log"},
			[]string{"npm error code E404", "npm error 404 Not Found - GET https://registry.npmjs.org/@x%2fnope"}},
		{"what it is doing", []string{"MCP server listening on http://localhost:8931/mcp", "debug: plugins loaded", "debug: heartbeat 1", "debug: heartbeat 2", "debug: heartbeat 3"},
			[]string{"MCP server listening on http://localhost:8931/mcp", "debug: heartbeat 1", "debug: heartbeat 2", "debug: heartbeat 3"}},
		{"nothing", []string{"", "  "}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := stderrExcerpt(tt.lines)
			for i := range got {
				got[i] = strings.TrimSpace(got[i])
			}
			want := tt.want
			for i := range want {
				want[i] = strings.TrimSpace(want[i])
			}
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("got  %q\nwant %q", got, want)
			}
		})
	}
	long := strings.Repeat("x", 1000)
	if got := stderrExcerpt([]string{long}); len([]rune(got[0])) != excerptWidth {
		t.Errorf("a long line is %d characters", len([]rune(got[0])))
	}
}
