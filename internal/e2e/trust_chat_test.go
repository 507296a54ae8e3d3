//go:build linux

package e2e

// The chat's question about an untrusted project file, in a real terminal
// (tmux, as chat_test.go).

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcphost/mcphost/ollamatest"
)

// TestChatAsksToTrustAProjectFile: the chat shows what the project file
// would start and asks before anything starts; yes records the trust and
// uses the file, no leaves it out.
func TestChatAsksToTrustAProjectFile(t *testing.T) {
	t.Parallel()
	for _, yes := range []bool{true, false} {
		t.Run(fmt.Sprintf("yes=%v", yes), func(t *testing.T) {
			ollama := ollamatest.NewServer()
			defer ollama.Close()
			dir, home := t.TempDir(), t.TempDir()
			marker := filepath.Join(t.TempDir(), "started")
			writeConfig(t, dir, ".mcp.json", markedServerJSON(t, marker))
			env := append(chatEnvHome(ollama.URL, home), "MCPHOST_TRUST_PROJECT=")
			term := startTerminal(t, dir, env, "-m", "tiny")
			s := term.waitFor("Trust .mcp.json and use it? [y/N]")
			if !strings.Contains(s, ".mcp.json is not trusted yet") || !strings.Contains(s, `start server everything: sh -c "touch `) {
				t.Errorf("the question does not show what the file starts:\n%s", s)
			}
			if exists(marker) {
				t.Fatal("the server started before the user answered")
			}
			answer, want := "n", "Not trusted"
			if yes {
				answer, want = "y", "Trusted .mcp.json."
			}
			term.typeLine(answer)
			term.waitFor(want)
			s = term.waitFor("servers ready")
			if yes {
				// The server starts in the background once trusted.
				poll(20*time.Millisecond, func() bool { return exists(marker) })
			}
			if exists(marker) != yes {
				t.Errorf("answered %s: server started = %v", answer, exists(marker))
			}
			if strings.Contains(s, "ignoring the project config") {
				t.Errorf("the chat warned after the user answered:\n%s", s)
			}
			// "servers ready" is in the header from the start: Ctrl-D
			// waits for the prompt, as a key typed before it is lost.
			term.waitFor("> Ask anything, or /help")
			term.keys("C-d")
			if code := term.waitExit(); code != 0 {
				t.Errorf("exit %d", code)
			}
			// The answer is remembered only when it was yes.
			os.Remove(marker)
			ollama.Enqueue(ollamatest.Reply{Content: "ok"})
			out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "hi"}, dir: dir, home: home, host: ollama.URL, untrusted: true})
			if exists(marker) != yes || strings.Contains(out.stderr, "not trusted") == yes {
				t.Errorf("next one-shot run: server started %v, stderr %q", exists(marker), out.stderr)
			}
		})
	}
}
