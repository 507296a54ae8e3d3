package configload

import (
	"strings"
	"testing"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/shellwords"
)

func TestCommandName(t *testing.T) {
	for in, want := range map[string]string{
		"npx -y @modelcontextprotocol/server-everything@2026.1.1": "server-everything",
		"/usr/local/bin/my.server --port 1":                       "my",
		"uvx mcp-server-time":                                     "mcp-server-time",
		"python3 -m":                                              "python3",
		"./__weird__":                                             "weird",
	} {
		argv, _ := shellwords.Split(in)
		if got := commandName(argv); got != want {
			t.Errorf("commandName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAdhocServer(t *testing.T) {
	spec, err := AdhocServer("https://mcp.example.com/mcp", "")
	if err != nil || spec.Name != "mcp-example-com" || spec.Transport != config.TransportHTTP || !spec.FallbackSSE || spec.Source != "--url" {
		t.Errorf("--url: %+v, %v", spec, err)
	}
	spec, err = AdhocServer("http://127.0.0.1:3001/mcp", "")
	if err != nil || spec.Name != "server" {
		t.Errorf("--url on an address: %+v, %v", spec, err)
	}
	spec, err = AdhocServer("", "npx -y @modelcontextprotocol/server-everything")
	if err != nil || spec.Name != "server-everything" || spec.Command != "npx" || strings.Join(spec.Args, " ") != "-y @modelcontextprotocol/server-everything" {
		t.Errorf("--stdio: %+v, %v", spec, err)
	}
	if spec, err := AdhocServer("", ""); spec != nil || err != nil {
		t.Errorf("neither: %+v, %v", spec, err)
	}
	for _, bad := range [][2]string{{"ftp://x", ""}, {"http://x", "cmd"}, {"", "  "}, {"", "a 'b"}} {
		if _, err := AdhocServer(bad[0], bad[1]); err == nil {
			t.Errorf("AdhocServer(%q, %q): no error", bad[0], bad[1])
		}
	}
}
