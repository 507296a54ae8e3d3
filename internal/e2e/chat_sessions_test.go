//go:build linux

package e2e

// What the chat's commands do with a --session file: no command loses a
// conversation written to a file.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcphost/mcphost/ollamatest"
	"github.com/mcphost/mcphost/provider"
)

// readSession returns the user prompts saved in a session file.
func readSession(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Messages []provider.Message }
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	var prompts []string
	for _, m := range f.Messages {
		if m.Role == provider.RoleUser {
			prompts = append(prompts, m.Content)
		}
	}
	return prompts
}

// waitSaved waits until the session file at path holds the user prompts
// want, joined by "|".
func waitSaved(t *testing.T, path, want string) {
	t.Helper()
	var got []string
	if !poll(20*time.Millisecond, func() bool {
		if _, err := os.Stat(path); err != nil {
			return false
		}
		got = readSession(t, path)
		return strings.Join(got, "|") == want
	}) {
		t.Fatalf("%s holds the prompts %q, want %q", filepath.Base(path), got, want)
	}
}

func TestChatClearAndLoadKeepEverySessionFile(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	for range 4 {
		ollama.Enqueue(ollamatest.Reply{Content: "Noted."})
	}
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", `{"mcpServers": {}}`)
	other := filepath.Join(dir, "other.json")
	if err := os.WriteFile(other, []byte(`{"version": 1, "model": "tiny", "messages": [{"role": "user", "content": "other question"}, {"role": "assistant", "content": "other answer"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	term := startTerminal(t, dir, chatEnv(t, ollama.URL), "-m", "tiny", "--session", "chat.json")
	term.waitFor("/help for commands")
	term.typeLine("first question")
	term.waitForCount("Noted.", 1)
	term.typeLine("second question")
	term.waitForCount("Noted.", 2)

	// /clear goes on in a new file, saying which; the old one stays.
	term.typeLine("/clear")
	term.waitFor("New conversation, saved to chat-2.json; the last one (4 messages) stays in chat.json")
	term.typeLine("third question")
	term.waitForCount("Noted.", 3)
	// The file is saved once the answer is on screen: waited for.
	waitSaved(t, filepath.Join(dir, "chat-2.json"), "third question")
	if got := readSession(t, filepath.Join(dir, "chat.json")); strings.Join(got, "|") != "first question|second question" {
		t.Errorf("chat.json after /clear holds %q, want the first two prompts", got)
	}

	// /load goes on in the file it loaded, saying so; the session file
	// keeps its own conversation.
	term.typeLine("/load other.json")
	term.waitFor("Later turns are saved to other.json; chat-2.json keeps its own conversation")
	term.typeLine("fourth question")
	term.waitForCount("Noted.", 4)
	waitSaved(t, other, "other question|fourth question")
	if got := readSession(t, filepath.Join(dir, "chat-2.json")); strings.Join(got, "|") != "third question" {
		t.Errorf("chat-2.json after /load holds %q, want the third prompt only", got)
	}

	// /sessions lists what can be resumed, with each first prompt.
	term.typeLine("/sessions")
	screen := term.waitFor("mcphost --session FILE resumes one later")
	for _, want := range []string{"* other.json", "4 messages  tiny  other question", "chat-2.json", "2 messages  tiny  third question", "chat.json", "4 messages  tiny  first question"} {
		if !strings.Contains(screen, want) {
			t.Errorf("/sessions does not show %q:\n%s", want, screen)
		}
	}
	// Tab completes /load with the saved conversations' names.
	term.tmux("send-keys", "-l", "/load chat-")
	term.keys("Tab")
	term.waitFor("> /load chat-2.json")
	term.keys("C-u", "C-d")
	if code := term.waitExit(); code != 0 {
		t.Errorf("exit %d, want 0", code)
	}
}
