//go:build linux

package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/ollamatest"
)

// colorScreen is the screen with its colours, as SGR sequences.
func (term *terminal) colorScreen() string {
	return term.tmux("capture-pane", "-p", "-e", "-J", "-S", "-2000")
}

// colorChat runs two turns, a call that works and one that fails, in a
// chat, NO_COLOR set to noColor, and returns the screen with its colours.
func colorChat(t *testing.T, noColor string) string {
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	env := slices.DeleteFunc(chatEnv(t, ollama.URL), func(e string) bool { return strings.HasPrefix(e, "NO_COLOR=") })
	if noColor != "" {
		env = append(env, "NO_COLOR="+noColor)
	}
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__echo", map[string]any{"message": "hi"})}},
		ollamatest.Reply{Content: "First."},
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__no_such_tool", nil)}},
		ollamatest.Reply{Content: "Second."},
	)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	term := startTerminal(t, dir, env, "-m", "tiny", "--allow-tool", "*")
	term.waitFor("servers ready")
	term.typeLine("one")
	term.waitFor("First.")
	term.typeLine("two")
	term.waitFor("Second.")
	s := term.colorScreen()
	term.keys("C-d")
	term.waitExit()
	return s
}

// TestChatColoursFollowConventions: a green ✓, a red ✗ and dim metadata
// on a terminal, a blank line between turns; NO_COLOR=1 has no colour at
// all on those lines.
func TestChatColoursFollowConventions(t *testing.T) {
	t.Parallel()
	s := colorChat(t, "")
	lines := strings.Split(s, "\n")
	line := func(prefix string) string {
		for _, l := range lines {
			if strings.Contains(l, prefix) {
				return l
			}
		}
		t.Fatalf("no line with %q:\n%s", prefix, s)
		return ""
	}
	if ok := line("✓\x1b[39m everything › echo"); !strings.Contains(ok, "\x1b[32m✓") {
		t.Errorf("the ✓ is not green: %q", ok)
	}
	if fail := line("everything__no_such_tool"); !strings.Contains(fail, "\x1b[31m✗") {
		t.Errorf("the ✗ is not red: %q", fail)
	}
	if ok := line("everything › echo"); !strings.Contains(ok, "\x1b[2m· ") {
		t.Errorf("the duration and preview are not dim: %q", ok)
	}
	// The second prompt follows a blank line.
	second := slices.IndexFunc(lines, func(l string) bool { return strings.TrimSpace(stripSGR(l)) == "> two" })
	if second < 1 || strings.TrimSpace(stripSGR(lines[second-1])) != "" {
		t.Errorf("no blank line before the second turn:\n%s", stripSGR(s))
	}

	plain := colorChat(t, "1")
	for _, l := range strings.Split(plain, "\n") {
		if (strings.Contains(l, "✓") || strings.Contains(l, "✗")) && strings.Contains(l, "\x1b[") {
			t.Errorf("NO_COLOR=1, yet a coloured line: %q", l)
		}
	}
}

// stripSGR drops the colour sequences tmux writes with capture-pane -e.
func stripSGR(s string) string {
	for {
		i := strings.Index(s, "\x1b[")
		if i < 0 {
			return s
		}
		j := strings.IndexByte(s[i:], 'm')
		if j < 0 {
			return s
		}
		s = s[:i] + s[i+j+1:]
	}
}
