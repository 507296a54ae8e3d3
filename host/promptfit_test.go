package host_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/ollamatest"
	"github.com/mcphost/mcphost/runner"
)

// A prompt that cannot fit the window is not sent and not kept: the
// conversation, /undo and /retry are as before it.
func TestAPromptTooLargeLeavesTheConversation(t *testing.T) {
	h, model, _ := newHost(t, host.Options{}, noServers, func(c *config.Settings) { c.NumCtx = 2048 })
	conv := h.NewConversation()
	model.Enqueue(ollamatest.Reply{Content: "one"}, ollamatest.Reply{Content: "one again"})
	if _, err := conv.Prompt(context.Background(), "first"); err != nil {
		t.Fatal(err)
	}
	_, err := conv.Prompt(context.Background(), strings.Repeat("too long ", 2000))
	var tl *runner.PromptTooLargeError
	if !errors.Is(err, host.ErrPromptTooLarge) || !errors.As(err, &tl) || tl.Part != "your message" {
		t.Fatalf("err = %v", err)
	}
	if got := strings.Join(contents(conv.History()), "|"); got != "user:first|assistant:one" {
		t.Errorf("history %q", got)
	}
	if n := len(model.Requests()); n != 1 {
		t.Errorf("%d requests", n)
	}
	res, err := conv.Retry(context.Background(), nil)
	if err != nil || res.Answer != "one again" || model.Requests()[1].Messages[0].Content != "first" {
		t.Errorf("retry after the refused prompt: %q, %v", res.Answer, err)
	}
}

// /compact summarises what fits the window with its request: the oldest
// turns, which no request could hold any more, are left out and said so.
func TestCompactLeavesOutWhatDoesNotFit(t *testing.T) {
	h, model, _ := newHost(t, host.Options{}, noServers, func(c *config.Settings) { c.NumCtx = 2048 })
	conv := h.NewConversation()
	long := strings.Repeat("a long answer about milk. ", 100) // about 650 tokens
	for range 5 {
		model.Enqueue(ollamatest.Reply{Content: long})
	}
	model.Enqueue(ollamatest.Reply{Content: "The user buys milk."})
	for _, p := range []string{"one", "two", "three", "four", "five"} {
		if _, err := conv.Prompt(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	out, err := conv.Compact(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	reqs := model.Requests()
	size := 0
	for _, m := range reqs[len(reqs)-1].Messages {
		size += len(m.Content)
	}
	if size > 2048*4 || out.LeftOut == 0 || out.Replaced != 8 {
		t.Errorf("the summary request held %d bytes; compacted %+v", size, out)
	}
}
