//go:build linux

package e2e

// MCP beyond tools in the chat, as a user sees it in a real terminal:
// prompts with Tab completion through the server, @ attachments, the
// sampling question, URL elicitation and its completion, list changes and
// progress.

import (
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/ollamatest"
)

func TestChatPromptsAndAttachmentsWithCompletion(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "Alice is promoted."}, ollamatest.Reply{Content: "A summary."})
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	term := startTerminal(t, dir, chatEnv(t, ollama.URL), "-m", "tiny")
	term.waitFor("servers ready")

	term.typeLine("/prompts")
	term.waitFor("everything__completable-prompt department=… name=…")

	// Tab completes the prompt's name, its arguments, and their values as
	// the server proposes them.
	term.tmux("send-keys", "-l", "/prompt everything__compl")
	term.keys("Tab")
	term.waitFor("> /prompt everything__completable-prompt")
	term.tmux("send-keys", "-l", " dep")
	term.keys("Tab")
	term.waitFor("completable-prompt department=")
	term.tmux("send-keys", "-l", "E")
	term.keys("Tab")
	term.waitFor("department=Engineering")
	term.tmux("send-keys", "-l", " name=")
	term.keys("Tab")
	term.waitFor("name=Alice  name=Bob  name=Charlie")
	term.tmux("send-keys", "-l", "A")
	term.keys("Tab")
	term.waitFor("department=Engineering name=Alice")
	term.keys("Enter")
	term.waitFor("Alice is promoted.")
	if got := lastMessage(ollama.Requests()[0]).Content; got != "Please promote Alice to the head of the Engineering team." {
		t.Errorf("the model got %q", got)
	}

	term.waitFor("> Ask anything")
	// ("up" would be typed as the Up key.)
	term.tmux("send-keys", "-l", "Summarize @every")
	term.keys("Tab")
	term.waitFor("> Summarize @everything:")
	term.tmux("send-keys", "-l", "demo://resource/static/document/feat")
	term.keys("Tab")
	term.waitFor("> Summarize @everything:demo://resource/static/document/features.md")
	term.keys("Enter")
	s := term.waitFor("A summary.")
	if !strings.Contains(s, "attached everything:demo://resource/static/document/features.md (text,") {
		t.Errorf("the attachment is not shown:\n%s", s)
	}
	if got := lastMessage(ollama.Requests()[1]).Content; !strings.Contains(got, "# Everything Server - Features") {
		t.Errorf("the model did not get the resource: %q", got)
	}
	term.keys("C-d")
	term.waitExit()
}

func TestChatAsksAboutSampling(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	sample := ollamatest.Call("everything__trigger-sampling-request", map[string]any{"prompt": "Name a colour.", "maxTokens": 20})
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{sample}}, ollamatest.Reply{Content: "teal"}, ollamatest.Reply{Content: "It said teal."},
		ollamatest.Reply{ToolCalls: []api.ToolCall{sample}}, ollamatest.Reply{Content: "It was refused."},
	)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	term := startTerminal(t, dir, chatEnv(t, ollama.URL), "-m", "tiny", "--allow-tool", "everything__*")
	term.waitFor("servers ready")

	term.typeLine("sample once")
	s := term.waitFor("[y] let the model answer  [n/Esc] refuse")
	if !strings.Contains(s, "? server everything (during everything › trigger-sampling-request) asks the model for a completion, at most 20 tokens:") ||
		!strings.Contains(s, "system: You are a helpful test server.") || !strings.Contains(s, "Name a colour.") {
		t.Errorf("the question does not say who asks what:\n%s", s)
	}
	term.keys("y")
	term.waitFor("It said teal.")
	if got := strings.Join(toolMessages(ollama.Requests()[2]), ""); !strings.Contains(got, `"text": "teal"`) {
		t.Errorf("the server did not get the model's answer: %q", got)
	}

	term.typeLine("sample again")
	term.waitForCount("[y] let the model answer  [n/Esc] refuse", 2)
	term.keys("n")
	term.waitFor("It was refused.")
	if n := ollama.RequestCount(); n != 5 {
		t.Errorf("the model got %d requests, want 5: the refused request reached it", n)
	}
	term.keys("C-d")
	term.waitExit()
}

func TestChatURLElicitationListChangeAndProgress(t *testing.T) {
	// Not parallel: a progress step is on screen for 100ms, which a
	// loaded machine's terminal polling can miss.
	env := newFaultEnv(t)
	env.config(env.server("fault", ""))
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fault__open_url", nil)}},
		ollamatest.Reply{Content: "Logged in."},
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fault__grow", map[string]any{"name": "sprout"})}},
		ollamatest.Reply{Content: "Grown."},
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fault__progress", map[string]any{"steps": 40, "ms": 100})}},
		ollamatest.Reply{Content: "Progressed."},
	)
	term := startTerminal(t, env.dir, chatEnv(t, ollama.URL), "-m", "tiny", "--allow-tool", "*")
	term.waitFor("servers ready")

	term.typeLine("log me in")
	s := term.waitFor("[y] I will open it  [n] decline")
	if !strings.Contains(s, "? server fault (during fault › open_url) asks: Log in, please.") || !strings.Contains(s, "open https://example.com/fault-login") {
		t.Errorf("the URL request:\n%s", s)
	}
	term.keys("y")
	term.waitFor("waiting for server fault to say it is done")
	term.waitFor("Logged in.")
	term.waitFor("· server fault says the flow at https://example.com/fault-login is done")

	term.typeLine("grow a tool")
	term.waitFor("· server fault changed its tools: new tools: sprout")
	term.waitFor("Grown.")

	term.typeLine("take your time")
	term.waitFor("running fault › progress… ")
	term.waitFor("(30%) step 12")
	term.waitFor("Progressed.")
	term.keys("C-d")
	term.waitExit()
}
