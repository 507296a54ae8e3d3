package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/ollamatest"
)

// TestReadmeGoExampleRuns builds the first Go block of README.md as a
// program of its own and runs it against the scripted model, in a folder
// with one file: what the README promises a Go programmer.
func TestReadmeGoExampleRuns(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "\n```go\n")
	if !ok {
		t.Fatal("README.md has no Go block")
	}
	code, _, ok := strings.Cut(rest, "\n```\n")
	if !ok {
		t.Fatal("README.md's Go block is not closed")
	}
	// Inside the module, so that it builds against this tree; a dot
	// directory is left out of ./... .
	dir, err := os.MkdirTemp(".", ".readme-example-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(code+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "example")
	if out, err := exec.Command("go", "build", "-o", bin, "./"+dir).CombinedOutput(); err != nil {
		t.Fatalf("the README's Go example does not build: %v\n%s", err, out)
	}

	model := ollamatest.NewServer(ollamatest.Model{Name: "qwen3:8b"})
	defer model.Close()
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	model.Enqueue(
		ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{ollamatest.Call("fs__list_directory", map[string]any{"path": work})}},
		ollamatest.Reply{Content: "One file: notes.txt."},
	)
	cmd := exec.Command(bin)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "OLLAMA_HOST="+model.URL)
	out, err := cmd.CombinedOutput()
	if err != nil || string(out) != "One file: notes.txt.\n" {
		t.Fatalf("the README's Go example: %v\n%s", err, out)
	}
	// It used the default built-in fs server on its folder.
	reqs := model.Requests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].Messages[len(reqs[1].Messages)-1].Content, "notes.txt") {
		t.Errorf("the model did not get the folder's listing: %+v", reqs)
	}
}
