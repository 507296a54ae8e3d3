package host_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/ollamatest"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/provider/ollama"
)

// timedProvider measures the time spent waiting on the model, so that what
// is left of a turn is the library's own time.
type timedProvider struct {
	provider.Provider
	spent atomic.Int64
}

func (p *timedProvider) Chat(ctx context.Context, req provider.Request, onDelta func(provider.Delta)) (provider.Response, error) {
	start := time.Now()
	defer func() { p.spent.Add(int64(time.Since(start))) }()
	return p.Provider.Chat(ctx, req, onDelta)
}

// BenchmarkPrompt is one turn of Host.Prompt with no servers against the
// scripted model: host-ms/turn is the library's own time (conversation,
// events, runner), the turn less the model round trip.
func BenchmarkPrompt(b *testing.B) {
	model := ollamatest.NewServer(ollamatest.Model{Name: "tiny"})
	defer model.Close()
	backend, err := ollama.New(model.URL, nil)
	if err != nil {
		b.Fatal(err)
	}
	timed := &timedProvider{Provider: backend}
	ctx := context.Background()
	h, err := host.New(ctx, host.Options{Config: noFiles("tiny", ""), Provider: timed})
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	var events int
	b.ResetTimer()
	for b.Loop() {
		// A fresh conversation per turn, so the history does not grow.
		if _, err := h.NewConversation().PromptFunc(ctx, "hi", func(host.Event) { events++ }); err != nil {
			b.Fatal(err)
		}
	}
	total := b.Elapsed()
	b.ReportMetric(float64(total-time.Duration(timed.spent.Load()))/float64(time.Millisecond)/float64(b.N), "host-ms/turn")
	b.ReportMetric(float64(timed.spent.Load())/float64(time.Millisecond)/float64(b.N), "model-ms/turn")
}

// BenchmarkNew is host.New with N server-everything instances over stdio:
// start-up, which the servers dominate (they start in parallel), and Close.
func BenchmarkNew(b *testing.B) {
	for _, n := range []int{0, 5} {
		b.Run(fmt.Sprintf("servers=%d", n), func(b *testing.B) {
			var specs []config.ServerSpec
			for i := range n {
				specs = append(specs, mcptest.EverythingSpec(b, fmt.Sprintf("s%d", i)))
			}
			var started time.Duration
			for b.Loop() {
				begin := time.Now()
				h, err := host.New(context.Background(), host.Options{Config: noFiles("", "", specs...)})
				if err != nil {
					b.Fatal(err)
				}
				started += time.Since(begin)
				h.Close()
			}
			b.ReportMetric(float64(started.Milliseconds())/float64(b.N), "start-ms")
		})
	}
}
