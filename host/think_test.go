package host_test

import (
	"context"
	"testing"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/ollamatest"
)

// Options.Think and Conversation.SetThink say what the requests ask of
// thinking: false asks the model not to think, nil leaves it to the model.
func TestThinkOptionAndSetThink(t *testing.T) {
	off := false
	h, model, _ := newHost(t, host.Options{}, noServers, func(c *config.Settings) { c.Think = &off })
	model.Enqueue(ollamatest.Reply{Content: "one"}, ollamatest.Reply{Content: "two"})
	conv := h.NewConversation()
	ctx := context.Background()
	if _, err := conv.Prompt(ctx, "first"); err != nil {
		t.Fatal(err)
	}
	if think := conv.Think(); think == nil || *think {
		t.Errorf("Think() = %v, want false", think)
	}
	conv.SetThink(nil)
	if _, err := conv.Prompt(ctx, "second"); err != nil {
		t.Fatal(err)
	}
	reqs := model.Requests()
	if reqs[0].Think == nil || reqs[0].Think.Bool() {
		t.Errorf("with Think false the request sent think %v, want false", reqs[0].Think)
	}
	// "tiny" cannot think: left to the model, nothing is sent.
	if reqs[1].Think != nil {
		t.Errorf("after SetThink(nil) the request sent think %v, want none", reqs[1].Think)
	}
}
