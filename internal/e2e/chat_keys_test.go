//go:build linux

package e2e

// The chat's prompt and keys as a user meets them in a real terminal:
// long prompts, long pastes, typing during an answer, Esc, Ctrl-Z.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/ollamatest"
)

// lastUser is the last user message of the last request the model got.
func lastUser(t *testing.T, ollama *ollamatest.Server) string {
	t.Helper()
	reqs := ollama.Requests()
	if len(reqs) == 0 {
		t.Fatal("the model got no request")
	}
	msgs := reqs[len(reqs)-1].Messages
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			return msgs[i].Content
		}
	}
	t.Fatal("the last request has no user message")
	return ""
}

func TestChatLongPromptWrapsAndStaysWhole(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "Got it."})
	term := startTerminal(t, t.TempDir(), chatEnv(t, ollama.URL), "-m", "tiny")
	term.tmux("resize-window", "-x", "70", "-y", "40")
	term.waitFor("/help for commands")

	var words []string
	for i := range 28 {
		words = append(words, fmt.Sprintf("w%03d", i)) // 28 × 5 = 140 characters
	}
	prompt := strings.Join(words, " ") + "."
	term.tmux("send-keys", "-l", prompt)
	// While typing, every row of the box is on screen.
	term.waitFor("w027.")
	s := term.screen()
	for _, w := range words {
		if !strings.Contains(s, w) {
			t.Fatalf("while typing, %s is not on screen:\n%s", w, s)
		}
	}
	term.keys("Enter")
	s = term.waitFor("Got it.")
	if !strings.Contains(s, "> "+prompt) {
		t.Errorf("the scrollback does not hold the whole prompt:\n%s", s)
	}
	if got := lastUser(t, ollama); got != prompt {
		t.Errorf("the model got %q", got)
	}
}

func TestChatLongPasteIsFoldedAndSentWhole(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "Read them all."})
	term := startTerminal(t, t.TempDir(), chatEnv(t, ollama.URL), "-m", "tiny")
	// The prompt is up, so the terminal knows it takes bracketed pastes:
	// tmux marks a paste only for a program that asked.
	term.waitFor("Ask anything")

	var lines []string
	for i := range 300 {
		lines = append(lines, fmt.Sprintf("pasted line %d", i+1))
	}
	file := filepath.Join(t.TempDir(), "paste")
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	term.tmux("load-buffer", file)
	term.tmux("paste-buffer", "-p") // bracketed, as a terminal pastes
	s := term.waitFor("[pasted 300 lines]")
	if strings.Contains(s, "pasted line 300") {
		t.Errorf("the paste is shown, not folded:\n%s", s)
	}
	term.keys("Enter")
	term.waitFor("Read them all.")
	if got := lastUser(t, ollama); got != strings.Join(lines, "\n") {
		t.Errorf("the model got %d lines of the paste, want all 300", strings.Count(got, "\n")+1)
	}
}

// TestChatKeepsTextTypedDuringAnAnswer types while the model is still
// thinking: the text must not answer the approval question that comes
// next (its "y" would approve the call), must not show over the answer,
// and must be in the next prompt, ready to send.
func TestChatKeepsTextTypedDuringAnAnswer(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	hold := make(chan struct{})
	echo := ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__echo", map[string]any{"message": "hi"})}, Hold: hold}
	ollama.Enqueue(echo, ollamatest.Reply{Content: "First answer."}, ollamatest.Reply{Content: "Second answer."})
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	writeConfig(t, dir, ".mcphost.yml", "approval:\n  ask: [\"everything__echo\"]\n")
	term := startTerminal(t, dir, chatEnv(t, ollama.URL), "-m", "tiny")
	term.waitFor("servers ready")

	term.typeLine("first question")
	waitFor(t, func() bool { return ollama.RequestCount() == 1 })
	term.tmux("send-keys", "-l", "yes, and morx")
	term.keys("BSpace", "e")
	// Read, and shown beside the spinner, before the question comes:
	// keys typed before a question is drawn are dropped.
	term.waitFor("next: yes, and more")
	close(hold)
	term.waitFor("[r] no, and say why")
	term.keys("n")
	s := term.waitFor("First answer.")
	// The next prompt, below the answer, may already hold the text.
	if strings.Contains(s[:strings.Index(s, "First answer.")], "yes, and more") {
		t.Errorf("the typed text leaked onto the screen during the answer:\n%s", s)
	}
	reqs := ollama.Requests()
	if msgs := reqs[len(reqs)-1].Messages; strings.Contains(msgs[len(msgs)-1].Content, "Echo: hi") {
		t.Fatal("the text typed ahead answered the approval question: the call ran")
	}
	term.waitFor("> yes, and more")
	term.keys("Enter")
	term.waitFor("Second answer.")
	if got := lastUser(t, ollama); got != "yes, and more" {
		t.Errorf("the model got %q, want the text typed during the answer", got)
	}
}

// TestChatCtrlDTypedDuringATurnQuits: Ctrl-D typed as an answer ends
// leaves the chat once the turn is over, as a shell leaves on a Ctrl-D
// typed ahead; the answer is not cut short.
func TestChatCtrlDTypedDuringATurnQuits(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	hold := make(chan struct{})
	ollama.Enqueue(ollamatest.Reply{Content: "Whole answer.", Hold: hold})
	// The window stays after mcphost exits, so that the answer it wrote
	// on the way out can still be read.
	term := startTerminalHeld(t, t.TempDir(), chatEnv(t, ollama.URL), "-m", "tiny")
	term.waitFor("/help for commands")

	term.typeLine("a question")
	waitFor(t, func() bool { return ollama.RequestCount() == 1 })
	term.keys("C-d")
	close(hold)
	term.waitFor("Whole answer.")
	if code := term.waitExit(); code != 0 {
		t.Errorf("exit %d", code)
	}
}

func TestChatEscCancelsATurn(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	hold := make(chan struct{})
	defer close(hold)
	ollama.Enqueue(ollamatest.Reply{Content: "never", Hold: hold}, ollamatest.Reply{Content: "Still here."})
	term := startTerminal(t, t.TempDir(), chatEnv(t, ollama.URL), "-m", "tiny")
	term.waitFor("/help for commands")

	term.typeLine("a slow question")
	waitFor(t, func() bool { return ollama.RequestCount() == 1 })
	term.keys("Escape")
	term.waitFor("(cancelled: the conversation goes on)")
	term.typeLine("are you there?")
	term.waitFor("Still here.")
	term.typeLine("/quit")
	if code := term.waitExit(); code != 0 {
		t.Errorf("exit %d", code)
	}
}

func TestChatCtrlZSuspendsAndFgResumes(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "Back again."})
	dir := t.TempDir()
	// An interactive shell, with job control, runs the chat.
	term := &terminal{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock")}
	term.tmux("new-session", "-d", "-x", "120", "-y", "40", "-c", dir, "--", "bash", "--norc", "--noprofile", "-i")
	t.Cleanup(func() { _ = term.tmux("kill-server") })
	cmdline := append([]string{"env"}, chatEnv(t, ollama.URL)...)
	cmdline = append(cmdline, binary, "-m", "tiny")
	term.typeLine(strings.Join(quoteAll(cmdline), " "))
	term.waitFor("/help for commands")

	term.tmux("send-keys", "-l", "kept while away")
	term.waitFor("> kept while away")
	term.keys("C-z")
	term.waitFor("Stopped")
	term.typeLine("fg")
	// The prompt comes back below the shell's lines, with its text.
	if !poll(50*time.Millisecond, func() bool {
		_, after, _ := strings.Cut(term.screen(), "# fg")
		return strings.Contains(after, "> kept while away")
	}) {
		t.Fatalf("fg did not bring the prompt back:\n%s", term.screen())
	}
	term.keys("Enter")
	term.waitFor("Back again.")
	if got := lastUser(t, ollama); got != "kept while away" {
		t.Errorf("the model got %q", got)
	}
}

// TestChatCtrlLAndTheEditor: Ctrl-L clears the screen and keeps the
// input; Ctrl-X Ctrl-E opens it in $EDITOR, on the terminal, and the
// edited text is what is sent.
func TestChatCtrlLAndTheEditor(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "Edited, then."})
	dir := t.TempDir()
	editor := filepath.Join(dir, "ed.sh")
	writeConfig(t, dir, "ed.sh", "#!/bin/sh\nprintf '%s\\n' \"$(cat \"$1\") and more\" > \"$1\"\n")
	if err := os.Chmod(editor, 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(chatEnv(t, ollama.URL), "EDITOR="+editor, "VISUAL=")
	term := startTerminal(t, dir, env, "-m", "tiny")
	term.waitFor("/help for commands")
	term.typeLine("/help")
	term.waitFor("Ctrl-D on an empty line")

	term.tmux("send-keys", "-l", "keep me")
	term.keys("C-l")
	if !poll(50*time.Millisecond, func() bool {
		visible := strings.TrimSpace(term.tmux("capture-pane", "-p"))
		// The built-in fs server starts in the background: on a busy
		// machine its "· ✓ server fs is ready" notice comes after the
		// clear, above the prompt, as news does.
		for strings.HasPrefix(visible, "· ") {
			_, visible, _ = strings.Cut(visible, "\n")
		}
		return strings.HasPrefix(visible, "> keep me") && !strings.Contains(visible, "Ctrl-D")
	}) {
		t.Fatalf("Ctrl-L did not clear the screen down to the prompt:\n%s", term.tmux("capture-pane", "-p"))
	}

	term.keys("C-x", "C-e")
	term.waitFor("> keep me and more")
	term.keys("Enter")
	term.waitFor("Edited, then.")
	if got := lastUser(t, ollama); got != "keep me and more" {
		t.Errorf("the model got %q", got)
	}
}
