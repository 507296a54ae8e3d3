package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/ollamatest"
)

// TestOneShotAttachesFiles checks with the scripted Ollama server that
// "@path" in -p sends the file's text (under a header naming it) and an
// image to a vision model, and that a missing file stops the run before
// anything is sent.
func TestOneShotAttachesFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeConfig(t, dir, "notes/todo.md", "- buy milk\n- call Ada\n")
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00"
	writeConfig(t, dir, "photo.png", png)
	writeConfig(t, dir, ".mcp.json", `{"mcpServers": {}}`)

	ollama := ollamatest.NewServer(ollamatest.Model{Name: "llava", Capabilities: []string{"completion", "tools", "vision"}})
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "Two items."})
	out := runBinary(t, invocation{args: []string{"-m", "ollama:llava", "-p", "What is in @notes/todo.md and @./photo.png? Mail a@b.com."}, dir: dir, host: ollama.URL})
	if out.code != 0 || out.stdout != "Two items.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	reqs := ollama.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model requests, want 1", len(reqs))
	}
	msg := lastMessage(reqs[0])
	if !strings.Contains(msg.Content, "File: notes/todo.md\n```md\n- buy milk\n- call Ada\n```") {
		t.Errorf("the model got %q, want the file under its header", msg.Content)
	}
	if len(msg.Images) != 1 || string(msg.Images[0]) != png {
		t.Errorf("the model got %d images, want photo.png", len(msg.Images))
	}

	// Piped input is data: its "@path" attaches nothing.
	ollama.Enqueue(ollamatest.Reply{Content: "A log."})
	out = runBinary(t, invocation{args: []string{"-m", "ollama:llava", "-p", "Summarise"}, stdin: "log line: see @notes/todo.md\n", dir: dir, host: ollama.URL})
	if got := lastMessage(ollama.Requests()[1]).Content; out.code != 0 || strings.Contains(got, "File: notes/todo.md") || !strings.Contains(got, "see @notes/todo.md") {
		t.Errorf("piped input attached a file: exit %d, the model got %q", out.code, got)
	}

	out = runBinary(t, invocation{args: []string{"-m", "ollama:llava", "-p", "Summarise @notes/nope.md"}, dir: dir, host: ollama.URL})
	if out.code != 2 || !strings.Contains(out.stderr, "@notes/nope.md: no such file") {
		t.Errorf("missing file: exit %d, stderr %q, want exit 2 naming the path", out.code, out.stderr)
	}
	if n := len(ollama.Requests()); n != 2 {
		t.Errorf("the prompt with a missing file was sent (%d requests)", n)
	}
}
