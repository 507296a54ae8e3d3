//go:build linux

package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/ollamatest"
)

// twoServers writes an ordinary two-server config (server-everything and
// the filesystem server) into a fresh directory and returns it.
func twoServers(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", fmt.Sprintf(`{"mcpServers":{"everything":{"command":%q},"filesystem":{"command":%q,"args":[%q]}}}`,
		mcptest.NPMBin(t, "mcp-server-everything"), mcptest.NPMBin(t, "mcp-server-filesystem"), dir))
	return dir
}

// The tools' share of a small window is warned about in one line whose
// numbers are those /tools shows.
func TestContextWarningIsOneLineMatchingTools(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "Hello back."})
	dir := twoServers(t)
	// A first run fills the cache of the servers' tool lists, so that the
	// chat's /tools shows their costs before any server has started.
	home := t.TempDir()
	if out := runBinary(t, invocation{args: []string{"servers"}, dir: dir, home: home, host: ollama.URL}); out.code != 0 {
		t.Fatalf("mcphost servers: exit %d, stderr %q", out.code, out.stderr)
	}
	// Every tool offered, in a window of 6144 tokens: the two servers'
	// tools take more than half of it, and leave room for the prompt and
	// the answer.
	term := startTerminal(t, dir, chatEnvHome(ollama.URL, home), "-m", "qwen3", "--tool-share", "0", "--num-ctx", "6144")
	term.waitFor("/help for commands")
	term.typeLine("/tools")
	screen := term.waitFor("filesystem (")
	listed := map[string]string{}
	for _, m := range regexp.MustCompile(`● (\w+) \(\d+ tools, ~(\d+) tokens of context\)`).FindAllStringSubmatch(screen, -1) {
		listed[m[1]] = m[2]
	}
	if len(listed) != 2 {
		t.Fatalf("/tools did not list both servers' costs:\n%s", screen)
	}
	term.typeLine("hello")
	screen = term.waitFor("Hello back.")
	var warnings []string
	for _, line := range strings.Split(screen, "\n") {
		if strings.HasPrefix(line, "warning: ") {
			warnings = append(warnings, line)
		}
	}
	if len(warnings) != 1 {
		t.Fatalf("want one warning line, got %q:\n%s", warnings, screen)
	}
	w := warnings[0]
	if len(w) > 120 {
		t.Errorf("the warning is wider than the 120-column terminal (%d): %q", len(w), w)
	}
	if !strings.Contains(w, "of 6144 context tokens") {
		t.Errorf("the warning does not name the window: %q", w)
	}
	for server, tokens := range listed {
		if !strings.Contains(w, server+" ~"+tokens) {
			t.Errorf("the warning says something else than /tools' %s ~%s: %q", server, tokens, w)
		}
	}
	// The chat's own lines do not repeat it on the next turn.
	if strings.Count(screen, "context tokens") != 1 {
		t.Errorf("the context is warned about more than once:\n%s", screen)
	}
}

// An ordinary two-server setup with the default settings is not warned
// about: tool selection keeps the tools to their share.
func TestNoContextWarningForTwoServersByDefault(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "ok"})
	out := runBinary(t, invocation{args: []string{"-m", "qwen3", "-p", "hello"}, dir: twoServers(t), host: ollama.URL})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	if strings.Contains(out.stderr, "warning") {
		t.Errorf("an ordinary setup was warned about: %s", out.stderr)
	}
}
