//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/internal/oauthserver"
	"github.com/mcphost/mcphost/ollamatest"
)

func TestChatMCPLoginSignsInAndTheServerIsUsed(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("remote__whoami", map[string]any{})}},
		ollamatest.Reply{Content: "You are signed in."},
	)
	s := newAuthSetup(t, oauthserver.Options{Scopes: []string{"mcp:read"}})
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The chat has $BROWSER, but opens nothing until /mcp login.
	env := append(chatEnv(t, ollama.URL), "BROWSER="+self, fakeBrowserEnv+"="+s.browserLog,
		"HOME="+s.home, "XDG_STATE_HOME="+filepath.Join(s.home, ".local", "state"))
	term := startTerminal(t, s.dir, env, "-m", "ollama:tiny")
	// The chat says so by itself, in its header or as the start fails.
	term.waitFor("remote needs a sign-in: /mcp login remote")
	term.typeLine("/servers")
	screen := term.waitFor("needs a sign-in: run mcphost auth login remote")
	if !strings.Contains(screen, "/mcp login remote") {
		t.Errorf("the chat does not say how to sign in:\n%s", screen)
	}
	s.noBrowserOpened(t, 0)

	term.typeLine("/mcp login remote")
	screen = term.waitFor("Signed in to remote")
	opened := s.opened()
	if len(opened) != 1 || !strings.Contains(strings.ReplaceAll(screen, "\n", ""), opened[0]) {
		t.Errorf("the URL opened (%q) is not shown:\n%s", opened, screen)
	}
	if !strings.Contains(screen, "1 tools") {
		t.Errorf("the server is not ready after the sign-in:\n%s", screen)
	}

	term.typeLine("who am I?")
	screen = term.waitFor("You are signed in.")
	if !strings.Contains(screen, "✓ remote › whoami") {
		t.Errorf("the tool call is not shown:\n%s", screen)
	}
	reqs := ollama.Requests()
	if res := lastMessage(reqs[len(reqs)-1]); res.Role != "tool" || !strings.Contains(res.Content, "alice") {
		t.Errorf("tool result sent to the model = %+v", res)
	}
	rec := s.stored(t)
	if rec == nil {
		t.Fatal("the sign-in was not kept")
	}
	if strings.Contains(term.screen(), rec.AccessToken) {
		t.Error("the chat shows the token")
	}
	term.keys("C-d")
	if code := term.waitExit(); code != 0 {
		t.Errorf("exit %d", code)
	}
}
