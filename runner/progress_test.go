package runner_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/runner"
	"github.com/mcphost/mcphost/tool"
)

// progressBox has one tool that reports progress twice before it answers.
type progressBox struct{}

func (progressBox) Tools() []provider.Tool {
	return []provider.Tool{{Name: "s__slow", Parameters: json.RawMessage(`{"type":"object"}`)}}
}

func (progressBox) Call(ctx context.Context, _ string, _ map[string]any) (*tool.Result, error) {
	report := tool.ProgressOf(ctx)
	report(tool.Progress{Progress: 1, Total: 2, Message: "\x1b[31mhalf\x1b[0m way"})
	report(tool.Progress{Status: "working", Message: "almost"})
	return &tool.Result{Content: []tool.Content{{Kind: tool.Text, Text: "done"}}}, nil
}

func (progressBox) Lookup(name string) (string, string, bool) { return "s", "slow", name == "s__slow" }

func TestToolProgressComesBetweenStartAndFinish(t *testing.T) {
	model := &scriptedModel{replies: []provider.Message{
		{ToolCalls: []provider.ToolCall{call("c1", "s__slow", nil)}},
		{Content: "ok"},
	}}
	r := runner.New(model, progressBox{}, runner.Options{Model: toolModel()})
	var got []string
	_, err := r.Run(context.Background(), "go", func(ev runner.Event) {
		switch ev := ev.(type) {
		case runner.ToolCallStarted:
			got = append(got, "start")
		case runner.ToolProgress:
			if ev.Call.ID != "c1" || ev.Server != "s" || ev.Tool != "slow" {
				t.Errorf("progress of %+v", ev)
			}
			got = append(got, ev.Status+"|"+ev.Message)
		case runner.ToolCallFinished:
			got = append(got, "finish")
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"start", "|half way", "working|almost", "finish"}
	if len(got) != len(want) {
		t.Fatalf("events %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("event %d = %q, want %q", i, got[i], want[i])
		}
	}
}

func TestRunMessagesKeepsRolesAndImages(t *testing.T) {
	model := &scriptedModel{replies: []provider.Message{{Content: "Paris."}}}
	r := runner.New(model, nil, runner.Options{Model: toolModel()})
	in := []provider.Message{
		{Role: provider.RoleUser, Content: "What is the capital of France?"},
		{Role: provider.RoleAssistant, Content: "Let me think."},
		{Role: provider.RoleUser, Content: "look", Images: [][]byte{[]byte("PNG")}},
	}
	res, err := r.RunMessages(context.Background(), in, nil)
	if err != nil || res.Answer != "Paris." {
		t.Fatalf("answer %q, %v", res.Answer, err)
	}
	sent := model.requests[0].Messages
	if len(sent) != 3 || sent[1].Role != provider.RoleAssistant || len(sent[2].Images) != 1 {
		t.Errorf("sent %+v", sent)
	}
}
