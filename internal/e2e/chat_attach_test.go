//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/ollamatest"
)

// TestChatAttachesAFileCompletedWithTab types "@no", completes the
// directory and then the file with Tab, and checks that the file reached
// the model; a missing file is an error and nothing is sent.
func TestChatAttachesAFileCompletedWithTab(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "Milk it is."})
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeConfig(t, dir, "notes/todo.md", "- buy milk\n")
	writeConfig(t, dir, ".mcp.json", `{"mcpServers": {}}`)
	term := startTerminal(t, dir, chatEnv(t, ollama.URL), "-m", "tiny")
	term.waitFor("> Ask anything")

	term.tmux("send-keys", "-l", "Missing @notes/nope.md")
	term.keys("Enter")
	term.waitFor("@notes/nope.md: no such file")
	term.waitFor("> Ask anything") // the prompt is back: Tab completes there

	term.tmux("send-keys", "-l", "What is in @no")
	term.keys("Tab")
	term.waitFor("> What is in @notes/")
	term.tmux("send-keys", "-l", "to")
	term.keys("Tab")
	term.waitFor("> What is in @notes/todo.md")
	term.tmux("send-keys", "-l", "?")
	term.keys("Enter")
	s := term.waitFor("Milk it is.")
	if !strings.Contains(s, "attached notes/todo.md (text, ") {
		t.Errorf("the attachment is not shown:\n%s", s)
	}
	reqs := ollama.Requests()
	if len(reqs) != 1 || !strings.Contains(lastMessage(reqs[0]).Content, "File: notes/todo.md\n```md\n- buy milk\n```") {
		t.Errorf("the model got %+v, want one request with the file", reqs)
	}
	term.keys("C-d")
	term.waitExit()
}
