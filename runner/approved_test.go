package runner_test

import (
	"context"
	"testing"
	"time"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/internal/guard/approval"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/runner"
)

// TestDurationExcludesTheApprovalQuestion: the user takes a while to say
// yes; the tool line's duration is the tool's alone, the renderers hear
// that the call runs again, and its progress still reaches them.
func TestDurationExcludesTheApprovalQuestion(t *testing.T) {
	const thinking = time.Second
	model := &scriptedModel{replies: []provider.Message{
		{ToolCalls: []provider.ToolCall{call("c1", "s__slow", nil)}},
		{Content: "ok"},
	}}
	asked := make(chan struct{})
	box := approval.New(progressBox{}, approval.Options{
		Policy: approval.Policy{Ask: []string{"s__slow"}},
		Asker: approval.AskerFunc(func(ctx context.Context, _ ask.CallRequest) (ask.Approval, error) {
			close(asked)
			// The person reads the question and thinks it over.
			select {
			case <-time.After(thinking):
			case <-ctx.Done():
				return ask.Approval{}, ctx.Err()
			}
			return ask.Approval{Choice: ask.YesOnce}, nil
		}),
	})
	r := runner.New(model, box, runner.Options{Model: toolModel()})
	var got []string
	var took time.Duration
	_, err := r.Run(context.Background(), "go", func(ev runner.Event) {
		switch ev := ev.(type) {
		case runner.ToolCallStarted:
			got = append(got, "start")
		case runner.ToolCallApproved:
			if ev.Call.ID != "c1" || ev.Server != "s" || ev.Tool != "slow" {
				t.Errorf("approved %+v", ev)
			}
			got = append(got, "approved")
		case runner.ToolProgress:
			got = append(got, "progress")
		case runner.ToolCallFinished:
			got = append(got, "finish")
			took = ev.Duration
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	<-asked
	want := []string{"start", "approved", "progress", "progress", "finish"}
	if len(got) != len(want) {
		t.Fatalf("events %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("event %d = %q, want %q", i, got[i], want[i])
		}
	}
	if took >= thinking/2 {
		t.Errorf("the call took %v: the %v the user spent answering is counted", took, thinking)
	}
}
