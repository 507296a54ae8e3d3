//go:build linux

package e2e

// The approval question as a person judges it, against the reference
// filesystem server: an edit is shown as a diff, a long write by its size
// and its first and last lines.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/ollamatest"
)

// filesystemChat starts a chat with the reference filesystem server on
// data, the model answering with replies.
func filesystemChat(t *testing.T, data string, replies ...ollamatest.Reply) (*terminal, *ollamatest.Server) {
	ollama := ollamatest.NewServer()
	t.Cleanup(ollama.Close)
	ollama.Enqueue(replies...)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", fmt.Sprintf(`{"mcpServers":{"files":{"command":%q,"args":[%q]}}}`, mcptest.NPMBin(t, "mcp-server-filesystem"), data))
	writeConfig(t, dir, ".mcphost.yml", "approval:\n  ask: [\"files__edit_file\", \"files__write_file\"]\n")
	term := startTerminal(t, dir, chatEnv(t, ollama.URL), "-m", "tiny")
	term.waitFor("servers ready")
	return term, ollama
}

func TestChatShowsAnEditAsADiffAndAppliesIt(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	file := filepath.Join(data, "main.go")
	if err := os.WriteFile(file, []byte("package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	term, _ := filesystemChat(t, data,
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("files__edit_file", map[string]any{
			"path":  file,
			"edits": []any{map[string]any{"oldText": "\tprintln(\"hi\")", "newText": "\tprintln(\"hello\")\n\tprintln(\"world\")"}},
		})}},
		ollamatest.Reply{Content: "Edited."},
	)
	term.typeLine("say hello world")
	s := term.waitFor("[r] no, and say why")
	for _, want := range []string{
		"▸ edit, as a diff",
		`┆ -⇥println("hi")`,
		`┆ +⇥println("hello")`,
		`┆ +⇥println("world")`,
		"  files › edit_file: [y] yes once",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the question lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "oldText") {
		t.Errorf("the question shows the raw arguments, not a diff:\n%s", s)
	}
	term.keys("y")
	term.waitFor("Edited.")
	got, _ := os.ReadFile(file)
	if want := "package main\n\nfunc main() {\n\tprintln(\"hello\")\n\tprintln(\"world\")\n}\n"; string(got) != want {
		t.Errorf("the file holds\n%s\nwant\n%s", got, want)
	}
	// Ctrl-D waits for the prompt: a key typed while the answer is
	// drawn is lost.
	term.waitFor("> Ask anything, or /help")
	term.keys("C-d")
	term.waitExit()
}

func TestChatFoldsALongWriteAndShowsItAllOnV(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	var lines []string
	for i := range 300 {
		lines = append(lines, fmt.Sprintf("row %03d", i))
	}
	term, _ := filesystemChat(t, data,
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("files__write_file", map[string]any{
			"path": filepath.Join(data, "big.txt"), "content": strings.Join(lines, "\n"),
		})}},
		ollamatest.Reply{Content: "Not written."},
	)
	term.typeLine("write a big file")
	s := term.waitFor("[v] view JSON")
	for _, want := range []string{"content (300 lines, 2.3 KB): row 000", "row 009", "… 285 more rows", "row 295", "row 299"} {
		if !strings.Contains(s, want) {
			t.Errorf("the folded question lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "row 150") {
		t.Errorf("the middle of the content is shown before v:\n%s", s)
	}
	term.keys("v")
	// v shows the exact JSON, its long line going on over marked rows.
	s = term.waitForCount("[v] view JSON", 2)
	if joined := strings.ReplaceAll(s, "\n    ┆ ", ""); !strings.Contains(joined, `"content": "row 000\nrow 001\n`) || !strings.Contains(joined, `row 149\nrow 150\nrow 151`) {
		t.Errorf("v does not show the content's exact JSON:\n%s", s)
	}
	term.keys("n")
	term.waitFor("Not written.")
	if _, err := os.Stat(filepath.Join(data, "big.txt")); err == nil {
		t.Error("the refused write happened")
	}
	term.keys("C-d")
	term.waitExit()
}
