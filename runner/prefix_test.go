package runner_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/ollamatest"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/provider/ollama"
	"github.com/mcphost/mcphost/runner"
)

// A history trimmed to fit the window stays trimmed for the rest of the
// turn, even when the engine's counts then show that more would fit: a
// message put back changes the start of the prompt, and the engine, whose
// prompt cache holds only an unchanged start, reads it all again.
func TestATrimmedHistoryIsNotPutBackWithinATurn(t *testing.T) {
	ctx := context.Background()
	model := ollamatest.NewServer(ollamatest.Model{Name: "tiny"})
	defer model.Close()
	backend, err := ollama.New(model.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	echo := provider.Tool{Name: "echo", Description: "Echo a message.", Parameters: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}}}`)}
	r := runner.New(backend, instantTools{tools: []provider.Tool{echo}}, runner.Options{Model: toolModel(), NumCtx: 2048, SystemPrompt: "Be brief."})
	// Four old turns of about 400 tokens each: with the new one they do
	// not fit a 2,048-token window.
	old := []provider.Message{{Role: provider.RoleSystem, Content: "Be brief."}}
	for i := range 4 {
		old = append(old,
			provider.Message{Role: provider.RoleUser, Content: strings.Repeat("Old question, at length. ", 96) + string(rune('A'+i))},
			provider.Message{Role: provider.RoleAssistant, Content: "Old answer."})
	}
	r.SetHistory(old)
	// The engine counts the first request at half the estimate: the
	// corrected estimate of the next would let more of the history in.
	model.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("echo", map[string]any{"message": "hi"})}, PromptEvalCount: 700},
		ollamatest.Reply{Content: "Done."},
	)
	var trims []runner.HistoryTrimmed
	if _, err := r.Run(ctx, "Now echo hi", func(ev runner.Event) {
		if ev, ok := ev.(runner.HistoryTrimmed); ok {
			trims = append(trims, ev)
		}
	}); err != nil {
		t.Fatal(err)
	}
	reqs := model.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	first, second := reqs[0].Messages, reqs[1].Messages
	if len(first) >= len(old)+1 {
		t.Fatalf("the first request sent all %d messages: the test needs a history that does not fit", len(first))
	}
	if len(second) < len(first) {
		t.Fatalf("the second request has %d messages, fewer than the first's %d", len(second), len(first))
	}
	for i := range first {
		a, _ := json.Marshal(first[i])
		b, _ := json.Marshal(second[i])
		if string(a) != string(b) {
			t.Fatalf("the second request does not start with the first's messages: message %d was %.60s…, is %.60s…", i+1, first[i].Content, second[i].Content)
		}
	}
	if len(trims) != 1 || trims[0].Step != 1 {
		t.Errorf("HistoryTrimmed events %+v, want one, at step 1", trims)
	}
}
