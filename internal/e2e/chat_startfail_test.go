//go:build linux

package e2e

// Servers that fail to start, as the chat tells of them.

import (
	"strings"
	"testing"

	"github.com/mcphost/mcphost/ollamatest"
)

// Each server that failed to start is named, with the first line of its
// reason and where to read more, whether it failed before the header
// (a command not found fails at once) or after it.
func TestChatNamesTheServersThatFailedToStart(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", `{"mcpServers": {
		"missing": {"command": "/nonexistent/mcp-server"},
		"broken": {"command": "sh", "args": ["-c", "printf 'cannot open the database\\nsecond line of the trace\\n' >&2; exit 3"]}
	}}`)
	term := startTerminal(t, dir, chatEnv(t, ollama.URL), "-m", "tiny")
	term.waitFor(`✗ server "broken" exited during start (exit status 3); it wrote: cannot open the database · /servers shows more`)
	screen := term.waitFor(`✗ server "missing" failed to start: command "/nonexistent/mcp-server" not found · /servers shows more`)
	if strings.Contains(screen, "second line of the trace") {
		t.Errorf("more than the reason's first line is shown:\n%s", screen)
	}
	term.typeLine("/servers")
	term.waitFor("second line of the trace")
}
