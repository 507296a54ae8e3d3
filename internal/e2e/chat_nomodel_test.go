//go:build linux

package e2e

// A chat opened without a model: what a newcomer gets from a bare
// "mcphost" in a terminal.

import (
	"strings"
	"testing"

	"github.com/mcphost/mcphost/ollamatest"
)

// The chat offers the engines' models, says so when a prompt comes before
// one is chosen (sending nothing), takes /model NAME (Tab completes it)
// and goes on with it; no command crashes it.
func TestChatWithoutAModelOffersTheModels(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer(ollamatest.Model{Name: "lister"}, ollamatest.Model{Name: "qwen3:8b", ContextLength: 8192})
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "Hello from lister."})
	term := startTerminal(t, t.TempDir(), chatEnv(t, ollama.URL))
	screen := term.waitFor("/model NAME chooses one")
	flat := strings.Join(strings.Fields(screen), " ")
	for _, want := range []string{"mcphost chat with no model yet", "No model is chosen yet: choose one of these with /model NAME",
		"lister:latest 1.0 MB yes 32768", "qwen3:8b 1.0 MB yes 8192"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the chat's start does not show %q:\n%s", want, screen)
		}
	}

	// A prompt before a model: said, nothing sent, the chat goes on.
	term.typeLine("hello")
	term.waitFor("No model is chosen yet, so nothing was sent: choose one with /model NAME")
	// /model and its failures answer in sentences, and do not crash.
	term.typeLine("/model")
	term.waitFor("No model is chosen yet.\n")
	term.typeLine("/model nosuch")
	term.waitFor("[y/N]")
	term.keys("n")
	term.waitFor("The chat still has no model (/model lists the models).")
	term.typeLine("/retry")
	term.waitFor("There is no prompt to retry yet.")
	term.typeLine("/compact")
	term.waitFor("so there is no one to summarise the conversation")
	if n := ollama.RequestCount(); n != 0 {
		t.Fatalf("%d chat requests before a model was chosen", n)
	}

	// Tab completes the names; the choice takes, and the chat goes on.
	term.tmux("send-keys", "-l", "/model lis")
	term.keys("Tab")
	term.waitFor("> /model lister:latest")
	term.keys("Enter")
	term.waitFor("model: lister:latest (the chat goes on with it)")
	term.typeLine("hello")
	term.waitFor("Hello from lister.")
	if reqs := ollama.Requests(); len(reqs) != 1 || reqs[0].Model != "lister:latest" {
		t.Errorf("requests after the choice: %d, want 1 to lister:latest", len(reqs))
	}
	term.keys("C-d")
	if code := term.waitExit(); code != 0 {
		t.Errorf("exit %d, want 0; the terminal shows:\n%s", code, term.screen())
	}
}

// A --session file's model is offered to a chat opened without one.
func TestChatWithoutAModelOffersTheSessionsModel(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer(ollamatest.Model{Name: "lister"})
	defer ollama.Close()
	dir := t.TempDir()
	writeConfig(t, dir, "s.json", `{"version": 1, "model": "lister", "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}`)
	term := startTerminal(t, dir, chatEnv(t, ollama.URL), "--session", "s.json")
	term.waitFor("s.json was saved with lister: /model lister goes on with it.")
	term.typeLine("/model lister")
	term.waitFor("model: lister (the chat goes on with it)")
}
