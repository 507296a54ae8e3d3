//go:build linux

package e2e

// --think and /think, thinking collapsed once the answer comes, and
// /model's listing, completion and suggestions: the real binary against
// the scripted Ollama server, the chat in tmux.

import (
	"strings"
	"testing"

	"github.com/mcphost/mcphost/ollamatest"
)

// thinker is a reasoning model of the scripted server.
func thinker() ollamatest.Model {
	return ollamatest.Model{Name: "qwen3", Capabilities: []string{"completion", "tools", "thinking"}}
}

// thinkSent says what a request asked of thinking: "unset", "true" or
// "false".
func thinkSent(t *testing.T, ollama *ollamatest.Server, i int) string {
	t.Helper()
	reqs := ollama.Requests()
	if len(reqs) <= i {
		t.Fatalf("%d requests, want at least %d", len(reqs), i+1)
	}
	if reqs[i].Think == nil {
		return "unset"
	}
	if reqs[i].Think.Bool() {
		return "true"
	}
	return "false"
}

func TestThinkFalseAsksOllamaNotToThink(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer(thinker())
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "42"}, ollamatest.Reply{Content: "42"}, ollamatest.Reply{Content: "42"})
	runs := []invocation{
		{args: []string{"-m", "qwen3", "--think=false", "-p", "answer?"}},
		{args: []string{"-m", "qwen3", "-p", "answer?"}, env: []string{"MCPHOST_THINK=false"}},
		{args: []string{"-m", "qwen3", "-p", "answer?"}},
	}
	for _, inv := range runs {
		inv.host = ollama.URL
		if out := runBinary(t, inv); out.code != 0 || out.stdout != "42\n" {
			t.Fatalf("%v: exit %d, stdout %q, stderr %q", inv.args, out.code, out.stdout, out.stderr)
		}
	}
	for i, want := range []string{"false", "false", "true"} {
		if got := thinkSent(t, ollama, i); got != want {
			t.Errorf("run %d (%v %v) sent think %s, want %s", i+1, runs[i].args, runs[i].env, got, want)
		}
	}
}

func TestChatThinkOffAndOn(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer(thinker())
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "First."}, ollamatest.Reply{Content: "Second."}, ollamatest.Reply{Content: "Third."})
	term := startTerminal(t, t.TempDir(), chatEnv(t, ollama.URL), "-m", "qwen3")
	term.waitFor("/help for commands")
	term.typeLine("one")
	term.waitFor("First.")
	term.typeLine("/think off")
	term.waitFor("thinking: off")
	term.typeLine("two")
	term.waitFor("Second.")
	term.typeLine("/think on")
	term.waitFor("thinking: on")
	term.typeLine("three")
	term.waitFor("Third.")
	for i, want := range []string{"true", "false", "true"} {
		if got := thinkSent(t, ollama, i); got != want {
			t.Errorf("turn %d sent think %s, want %s", i+1, got, want)
		}
	}
}

func TestChatThinkingCollapsesOnceTheAnswerComes(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer(thinker())
	defer ollama.Close()
	// Longer than the 40-row window: none of it may stay in the scrollback.
	thought := strings.Repeat("The user asks for the answer to everything, so I recall the famous number from the novel and "+
		"check that nothing in the question asks for anything else before I reply with it in one short sentence.\n", 30)
	ollama.Enqueue(ollamatest.Reply{Thinking: thought, Content: "The answer is 42."})
	term := startTerminal(t, t.TempDir(), chatEnv(t, ollama.URL), "-m", "qwen3")
	term.waitFor("/help for commands")
	term.typeLine("what is the answer?")
	screen := term.waitFor("The answer is 42.")
	if !strings.Contains(screen, "thought for ") {
		t.Errorf("no \"thought for\" line once the answer came:\n%s", screen)
	}
	if strings.Contains(screen, "famous number") || strings.Contains(screen, "thinking:") {
		t.Errorf("the thinking stayed on screen after the answer:\n%s", screen)
	}
}

func TestChatModelListsCompletesAndSuggests(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer(thinker(), ollamatest.Model{Name: "llama3.2", ContextLength: 131072},
		ollamatest.Model{Name: "gemma2:2b", Capabilities: []string{"completion"}, ContextLength: 8192})
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "Hello from llama."})
	term := startTerminal(t, t.TempDir(), chatEnv(t, ollama.URL), "-m", "qwen3")
	term.waitFor("/help for commands")

	term.typeLine("/model")
	screen := term.waitFor("/model NAME switches")
	for _, row := range []string{
		"  gemma2:2b       1.0 MB  no     8192",
		"  llama3.2:latest  1.0 MB  yes    131072",
		"* qwen3:latest    1.0 MB  yes    32768",
	} {
		if !strings.Contains(strings.Join(strings.Fields(screen), " "), strings.Join(strings.Fields(row), " ")) {
			t.Errorf("/model does not list %q:\n%s", row, screen)
		}
	}

	// Tab completes the names of the models.
	term.tmux("send-keys", "-l", "/model lla")
	term.keys("Tab")
	term.waitFor("> /model llama3.2:latest")
	term.keys("Enter")
	term.waitFor("model: llama3.2:latest (the conversation goes on)")

	// A misspelt name gets the nearest ones, and the model stays.
	term.typeLine("/model gemma2:3b")
	term.waitFor("did you mean gemma2:2b?")
	term.waitFor("[y/N]")
	term.keys("n")
	term.waitFor("still using llama3.2:latest")
	term.typeLine("hi")
	term.waitFor("Hello from llama.")
	if got := ollama.Requests()[0].Model; got != "llama3.2:latest" {
		t.Errorf("the turn went to %q, want llama3.2:latest", got)
	}
}

// The real Ollama takes think:false, even for a model that cannot think,
// so --think=false is safe with any of its models.
func TestRealOllamaTakesThinkFalse(t *testing.T) {
	t.Parallel()
	o := startRealOllama(t, "tiny")
	o.createPlainModel("plain", "Plain answer.")
	out := runBinary(t, invocation{args: []string{"-m", "plain", "--think=false", "-p", "hi"}, dir: t.TempDir(), host: o.URL})
	if out.code != 0 || out.stdout != "Plain answer.\n" || strings.Contains(out.stderr, "thinking") {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	chats := o.chats()
	if len(chats) != 1 || chats[0].Think == nil || chats[0].Think.Bool() {
		t.Errorf("think sent = %+v, want false", chats)
	}
}
