package host_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/ollamatest"
	"github.com/mcphost/mcphost/provider"
)

// contents lists the roles and texts of msgs, "role:text" each.
func contents(msgs []provider.Message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = string(m.Role) + ":" + m.Content
	}
	return out
}

func TestUndoDropsTheLastTurnWithItsToolCalls(t *testing.T) {
	h, model, _ := newHost(t, host.Options{}, noServers, func(c *config.Settings) { c.SystemPrompt = "be brief" })
	conv := h.NewConversation()
	if dropped := conv.Undo(); dropped != nil {
		t.Errorf("undo of an empty conversation dropped %v", contents(dropped))
	}
	model.Enqueue(ollamatest.Reply{Content: "one"}, ollamatest.Reply{Content: "two"}, ollamatest.Reply{Content: "three"})
	for _, p := range []string{"first", "second"} {
		if _, err := conv.Prompt(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	dropped := conv.Undo()
	if got := strings.Join(contents(dropped), "|"); got != "user:second|assistant:two" {
		t.Errorf("dropped %q", got)
	}
	if got := strings.Join(contents(conv.History()), "|"); got != "system:be brief|user:first|assistant:one" {
		t.Errorf("history after undo %q", got)
	}
	// The model is sent the history without the dropped turn.
	if _, err := conv.Prompt(context.Background(), "third"); err != nil {
		t.Fatal(err)
	}
	reqs := model.Requests()
	var sent []string
	for _, m := range reqs[len(reqs)-1].Messages {
		sent = append(sent, m.Content)
	}
	if got := strings.Join(sent, "|"); got != "be brief|first|one|third" {
		t.Errorf("sent %q after undo", got)
	}
	// Undo stops at the system prompt.
	conv.Undo()
	conv.Undo()
	if dropped := conv.Undo(); dropped != nil {
		t.Errorf("undo dropped %v from a conversation with no turns", contents(dropped))
	}
	if got := strings.Join(contents(conv.History()), "|"); got != "system:be brief" {
		t.Errorf("history %q", got)
	}
}

func TestRetryRunsTheLastPromptAgainWithoutItsAnswer(t *testing.T) {
	h, model, dir := newHost(t, host.Options{})
	conv := h.NewConversation()
	if _, err := conv.Retry(context.Background(), nil); !errors.Is(err, host.ErrNothingToRetry) {
		t.Errorf("retry of an empty conversation: %v", err)
	}
	model.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fs__read_file", map[string]any{"path": dir + "/notes.txt"})}},
		ollamatest.Reply{Content: "bad answer"},
		ollamatest.Reply{Content: "good answer"},
	)
	if _, err := conv.Prompt(context.Background(), "what is in notes.txt?"); err != nil {
		t.Fatal(err)
	}
	res, err := conv.Retry(context.Background(), nil)
	if err != nil || res.Answer != "good answer" {
		t.Fatalf("retry: %q, %v", res.Answer, err)
	}
	reqs := model.Requests()
	last := reqs[len(reqs)-1].Messages
	if len(last) != 1 || last[0].Content != "what is in notes.txt?" {
		t.Errorf("the retried request holds %v, want only the prompt again", last)
	}
	if got := strings.Join(contents(conv.History()), "|"); got != "user:what is in notes.txt?|assistant:good answer" {
		t.Errorf("history after retry %q", got)
	}
}

func TestCompactReplacesOlderTurnsWithTheModelsSummary(t *testing.T) {
	h, model, _ := newHost(t, host.Options{}, noServers, func(c *config.Settings) { c.SystemPrompt = "be brief" })
	conv := h.NewConversation()
	if _, err := conv.Compact(context.Background(), 1); !errors.Is(err, host.ErrNothingToCompact) {
		t.Errorf("compact of an empty conversation: %v", err)
	}
	long := strings.Repeat("a long answer about milk. ", 200)
	model.Enqueue(ollamatest.Reply{Content: long}, ollamatest.Reply{Content: long}, ollamatest.Reply{Content: "last answer"},
		ollamatest.Reply{Content: "The user buys milk."})
	for _, p := range []string{"one", "two", "three"} {
		if _, err := conv.Prompt(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	out, err := conv.Compact(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if out.Summary != "The user buys milk." || out.Replaced != 4 || out.After >= out.Before {
		t.Errorf("compacted %+v", out)
	}
	// The summary request held the older turns and the request to
	// summarise, and no tools.
	reqs := model.Requests()
	sum := reqs[len(reqs)-1]
	if n := len(sum.Messages); n != 6 || !strings.Contains(sum.Messages[n-1].Content, "Summarise our conversation") || len(sum.Tools) != 0 {
		t.Errorf("summary request: %d messages, last %q, %d tools", n, sum.Messages[n-1].Content, len(sum.Tools))
	}
	h2 := contents(conv.History())
	want := []string{"system:be brief", "user:Summary of the conversation so far:\n\nThe user buys milk.",
		"assistant:Understood: I will go on from this summary.", "user:three", "assistant:last answer"}
	if strings.Join(h2, "|") != strings.Join(want, "|") {
		t.Errorf("history after compact\n%q\nwant\n%q", h2, want)
	}
}

func TestCompactFailingLeavesTheHistory(t *testing.T) {
	h, model, _ := newHost(t, host.Options{}, noServers)
	conv := h.NewConversation()
	model.Enqueue(ollamatest.Reply{Content: "a"}, ollamatest.Reply{Content: "b"})
	conv.Prompt(context.Background(), "one")
	conv.Prompt(context.Background(), "two")
	// Every try fails (the client retries some errors).
	model.Handle(func(api.ChatRequest) ollamatest.Reply { return ollamatest.Reply{Status: 500, Error: "out of memory"} })
	before := contents(conv.History())
	if _, err := conv.Compact(context.Background(), 1); err == nil || !strings.Contains(err.Error(), "out of memory") {
		t.Errorf("compact error %v", err)
	}
	if got := contents(conv.History()); strings.Join(got, "|") != strings.Join(before, "|") {
		t.Errorf("history changed by a failed compact: %q", got)
	}
}

func TestCancelledAnswerStaysMarkedInterrupted(t *testing.T) {
	h, model, _ := newHost(t, host.Options{}, noServers)
	conv := h.NewConversation()
	// The first pieces stream; the rest waits until the turn is cancelled.
	model.Enqueue(ollamatest.Reply{Chunks: []string{"The answer ", "is long"}, Stall: true}, ollamatest.Reply{Content: "again"})
	ctx, cancel := context.WithCancel(context.Background())
	var text strings.Builder
	_, err := conv.PromptFunc(ctx, "tell me", func(ev host.Event) {
		if d, ok := ev.(host.TextDelta); ok {
			if text.WriteString(d.Text); text.String() == "The answer is long" {
				cancel()
			}
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want cancelled", err)
	}
	hist := conv.History()
	last := hist[len(hist)-1]
	if last.Role != provider.RoleAssistant || last.Content != "The answer is long\n\n[interrupted]" {
		t.Errorf("the interrupted answer is not in the history: %q", contents(hist))
	}
	// The model is told, in the next turn, that its answer was cut short.
	if _, err := conv.Prompt(context.Background(), "go on"); err != nil {
		t.Fatal(err)
	}
	reqs := model.Requests()
	sent := reqs[len(reqs)-1].Messages
	if got := sent[len(sent)-2].Content; got != "The answer is long\n\n[interrupted]" {
		t.Errorf("the next request holds %q before the prompt", got)
	}
}

// TestUndoAndRetryTakeAWholePrompt: a turn begun with several messages
// (an MCP prompt's) is undone and retried whole.
func TestUndoAndRetryTakeAWholePrompt(t *testing.T) {
	h, model, _ := newHost(t, host.Options{}, noServers)
	conv := h.NewConversation()
	model.Enqueue(ollamatest.Reply{Content: "first"}, ollamatest.Reply{Content: "again"}, ollamatest.Reply{Content: "x"})
	prompt := []provider.Message{{Role: provider.RoleUser, Content: "review this"}, {Role: provider.RoleAssistant, Content: "Sure, send it."}, {Role: provider.RoleUser, Content: "the code"}}
	if _, err := conv.PromptMessages(context.Background(), prompt, nil); err != nil {
		t.Fatal(err)
	}
	if res, err := conv.Retry(context.Background(), nil); err != nil || res.Answer != "again" {
		t.Fatalf("retry: %q, %v", res.Answer, err)
	}
	reqs := model.Requests()
	var sent []string
	for _, m := range reqs[len(reqs)-1].Messages {
		sent = append(sent, m.Content)
	}
	if got := strings.Join(sent, "|"); got != "review this|Sure, send it.|the code" {
		t.Errorf("the retry sent %q, want the whole prompt once", got)
	}
	if dropped := conv.Undo(); len(dropped) != 4 {
		t.Errorf("undo dropped %q, want the prompt's 3 messages and the answer", contents(dropped))
	}
	if hist := conv.History(); len(hist) != 0 {
		t.Errorf("history after undo %q", contents(hist))
	}
}
