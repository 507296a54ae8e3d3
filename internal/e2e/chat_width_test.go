//go:build linux

package e2e

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/ollamatest"
)

// startTerminalWidth is startTerminal in a window cols columns wide.
func startTerminalWidth(t *testing.T, cols int, dir string, env []string, args ...string) *terminal {
	return startTerminalShell(t, cols, "", dir, env, args...)
}

// startTerminalHeld is startTerminal for a one-shot run: the window stays
// after mcphost exits, so that what it left on screen can be read.
func startTerminalHeld(t *testing.T, dir string, env []string, args ...string) *terminal {
	return startTerminalShell(t, 120, "; sleep 600", dir, env, args...)
}

// startTerminalShell runs mcphost with args in a tmux window cols wide,
// then the shell's after (after its exit status is written).
func startTerminalShell(t *testing.T, cols int, after, dir string, env []string, args ...string) *terminal {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is not installed: the chat tests need it (scripts/test.sh installs it)")
	}
	tmp := t.TempDir()
	term := &terminal{t: t, socket: filepath.Join(tmp, "tmux.sock"), exitFile: filepath.Join(tmp, "exit")}
	cmdline := append(append(append([]string{"env"}, env...), binary), args...)
	shell := strings.Join(quoteAll(cmdline), " ") + "; echo $? > " + quoteAll([]string{term.exitFile})[0] + after
	term.tmux("new-session", "-d", "-x", fmt.Sprint(cols), "-y", "40", "-c", dir, "--", shell)
	t.Cleanup(func() { exec.Command("tmux", "-S", term.socket, "kill-server").Run() })
	return term
}

// TestChatLinesFitANarrowTerminal: at 70 columns the rows of /tools and
// /servers and a tool call's line are cut with … rather than wrapped into
// fragments.
func TestChatLinesFitANarrowTerminal(t *testing.T) {
	t.Parallel()
	const cols = 70
	long := strings.Repeat("a long message that goes on ", 6)
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("a-server-with-a-rather-long-name__echo", map[string]any{"message": long})}},
		ollamatest.Reply{Content: "Echoed."},
	)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", fmt.Sprintf(`{"mcpServers": {"a-server-with-a-rather-long-name": {"command": %q}}}`, mcptest.NPMBin(t, "mcp-server-everything")))
	term := startTerminalWidth(t, cols, dir, chatEnv(t, ollama.URL), "-m", "tiny", "--allow-tool", "*")
	term.waitFor("/help")

	// A turn waits for the server to start; then it lists its tools.
	term.typeLine("echo it")
	term.waitFor("Echoed.")
	term.typeLine("/tools")
	term.waitFor("trigger-long-running-operation")
	term.typeLine("/servers")
	// The header comes first; the row below it is what is checked.
	s := term.waitFor("\na-server-with-a-rather-long-name  ")

	cut := map[string]bool{}
	for _, line := range strings.Split(s, "\n") {
		if w := ansi.StringWidth(line); w > cols {
			t.Errorf("a line of %d columns wrapped at %d: %q", w, cols, line)
		}
		switch {
		case strings.HasPrefix(line, "✓ a-server-with-a-rather-long-name › echo"):
			cut["tool line"] = strings.HasSuffix(line, "…")
		case strings.HasPrefix(line, "a-server-with-a-rather-long-name  "):
			cut["/servers row"] = strings.HasSuffix(line, "…")
		case strings.HasPrefix(line, "    trigger-long-running-operation"), strings.HasPrefix(line, "  ✓ trigger-long-running-operation"):
			// ✓: offered in the last turn, when tool selection offered
			// only some.
			cut["/tools row"] = strings.HasSuffix(line, "…")
		}
	}
	for _, what := range []string{"tool line", "/servers row", "/tools row"} {
		if !cut[what] {
			t.Errorf("the %s is not cut with …:\n%s", what, s)
		}
	}
	term.keys("C-d")
	term.waitExit()
}
