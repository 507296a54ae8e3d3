package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/servers"
	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/openaitest"
	"github.com/mcphost/mcphost/provider/openai"
	"github.com/mcphost/mcphost/runner"
)

// BenchmarkAgentStepOpenAI is BenchmarkAgentStep on the OpenAI-compatible
// path: the scripted server speaks as llama.cpp, each step's call arriving
// as a head and 3-byte argument fragments, and the time per step is split
// the same way (host, model round trip, MCP call).
func BenchmarkAgentStepOpenAI(b *testing.B) {
	const steps = 50
	ctx := context.Background()
	model := openaitest.NewServer(openaitest.Options{Flavor: openaitest.LlamaCpp, Models: []openaitest.Model{{ID: "tiny", ContextLength: 32768}}})
	defer model.Close()
	model.Handle(func(req openaitest.Request) openaitest.Reply {
		calls := 0
		for _, m := range req.Messages {
			if m.Role == "tool" {
				calls++
			}
		}
		if calls < steps-1 {
			return openaitest.Reply{ToolCalls: []openaitest.Call{{ID: fmt.Sprint("call_", calls), Name: "everything__echo", Arguments: fmt.Sprintf(`{"message":"step %d"}`, calls)}}}
		}
		return openaitest.Reply{Content: "done"}
	})
	backend, err := openai.New(openai.Options{URL: model.BaseURL, Kind: openai.KindLlamaCpp})
	if err != nil {
		b.Fatal(err)
	}
	manager := servers.NewManager([]config.ServerSpec{mcptest.EverythingSpec(b, "everything")}, servers.Options{ClientName: "bench"})
	defer manager.Close()
	if errs := manager.Start(ctx); len(errs) > 0 {
		b.Fatal(errs)
	}
	info, err := backend.Show(ctx, "tiny")
	if err != nil {
		b.Fatal(err)
	}
	var total, host, chat, tools time.Duration
	for b.Loop() {
		p := &timedProvider{Provider: backend}
		tb := &timedTools{Manager: manager}
		r := runner.New(p, tb, runner.Options{Model: info, MaxSteps: steps})
		start := time.Now()
		res, err := r.Run(ctx, "loop", func(runner.Event) {})
		elapsed := time.Since(start)
		if err != nil || res.Steps != steps {
			b.Fatalf("run: %v after %d steps", err, res.Steps)
		}
		model.Reset()
		total += elapsed
		chat += time.Duration(p.spent.Load())
		tools += time.Duration(tb.spent.Load())
		host += elapsed - time.Duration(p.spent.Load()) - time.Duration(tb.spent.Load())
	}
	per := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N*steps) }
	b.ReportMetric(per(total), "ms/step")
	b.ReportMetric(per(host), "host-ms/step")
	b.ReportMetric(per(chat), "model-roundtrip-ms/step")
	b.ReportMetric(per(tools), "mcp-call-ms/step")
}
