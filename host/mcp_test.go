package host_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/ollamatest"
)

// The library reaches every part of MCP the command does: prompts,
// resources, progress events, and sampling decided by the program.
func TestLibraryPromptsResourcesProgressAndSampling(t *testing.T) {
	var (
		mu    sync.Mutex
		asked []ask.SamplingRequest
	)
	h, model, _ := newHost(t, host.Options{
		Asker: samplingAsker{seen: func(req ask.SamplingRequest) {
			mu.Lock()
			defer mu.Unlock()
			asked = append(asked, req)
		}},
	}, withServers(mcptest.EverythingSpec(t, "everything")), allowing("everything__*"))
	ctx := context.Background()

	res, err := h.GetPrompt(ctx, "args-prompt", map[string]string{"city": "Oslo"})
	if err != nil || len(res.Messages) != 1 || res.Messages[0].Content.Text != "What's weather in Oslo?" {
		t.Fatalf("GetPrompt: %+v, %v", res, err)
	}
	server, contents, err := h.ReadResource(ctx, "demo://resource/dynamic/text/2")
	if err != nil || server != "everything" || !strings.HasPrefix(contents[0].Text, "Resource 2:") {
		t.Fatalf("ReadResource: %q %+v %v", server, contents, err)
	}

	model.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__trigger-long-running-operation", map[string]any{"duration": 0.3, "steps": 3})}},
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__trigger-sampling-request", map[string]any{"prompt": "Say hi."})}},
		ollamatest.Reply{Content: "hi"},
		ollamatest.Reply{Content: "Done."},
	)
	var progress []host.ToolProgress
	conv := h.NewConversation()
	answer, err := conv.RunPrompt(ctx, "everything__simple-prompt", nil, "", func(ev host.Event) {
		if p, ok := ev.(host.ToolProgress); ok {
			progress = append(progress, p)
		}
	})
	if err != nil || answer.Answer != "Done." {
		t.Fatalf("RunPrompt: %+v, %v", answer, err)
	}
	if first := conv.History()[0]; first.Content != "This is a simple prompt without arguments." {
		t.Errorf("the conversation starts with %+v", first)
	}
	if len(progress) < 2 || progress[0].Tool != "trigger-long-running-operation" || progress[0].Total != 3 {
		t.Errorf("progress events: %+v", progress)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 1 || asked[0].Server != "everything" {
		t.Errorf("the program was asked about %+v", asked)
	}
	if got := answer.ToolCalls[1].Output; !strings.Contains(got, `"text": "hi"`) {
		t.Errorf("the sampling tool returned %q", got)
	}
}

// samplingAsker approves every sampling request, telling seen of it, and
// asks nothing else: the rest is Nobody's.
type samplingAsker struct {
	ask.Nobody
	seen func(ask.SamplingRequest)
}

func (a samplingAsker) ApproveSampling(_ context.Context, req ask.SamplingRequest) (bool, error) {
	a.seen(req)
	return true, nil
}
