package host_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/ollamatest"
	"github.com/mcphost/mcphost/provider/ollama"
)

// BenchmarkToolTurn is one turn in which the model calls one tool, a Go
// tool or the built-in fs server's read_file, then answers: host-ms/turn
// is the library's own time, the model round trips left out.
func BenchmarkToolTurn(b *testing.B) {
	dir := b.TempDir()
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("buy milk"), 0o644); err != nil {
		b.Fatal(err)
	}
	read := host.NewTool("read_notes", "Read the notes.", func(context.Context, struct{}) (string, error) {
		return "buy milk", nil
	}, host.ReadOnly())
	for _, c := range []struct {
		name string
		call api.ToolCall
		opts host.Options
	}{
		{"go", ollamatest.Call("read_notes", nil), host.Options{Config: noFiles("tiny", ""), Tools: []host.Tool{read}}},
		{"builtin", ollamatest.Call("fs__read_file", map[string]any{"path": notes}), host.Options{Config: noFiles("tiny", "", fsSpec(dir))}},
	} {
		b.Run(c.name, func(b *testing.B) {
			model := ollamatest.NewServer(ollamatest.Model{Name: "tiny"})
			defer model.Close()
			model.Handle(func(req api.ChatRequest) ollamatest.Reply {
				if req.Messages[len(req.Messages)-1].Role == "tool" {
					return ollamatest.Reply{Content: "done"}
				}
				return ollamatest.Reply{ToolCalls: []api.ToolCall{c.call}}
			})
			backend, err := ollama.New(model.URL, nil)
			if err != nil {
				b.Fatal(err)
			}
			timed := &timedProvider{Provider: backend}
			opts := c.opts
			opts.Provider = timed
			ctx := context.Background()
			h, err := host.New(ctx, opts)
			if err != nil {
				b.Fatal(err)
			}
			defer h.Close()
			for b.Loop() {
				res, err := h.NewConversation().Prompt(ctx, "notes?")
				if err != nil || len(res.ToolCalls) != 1 || res.ToolCalls[0].IsError {
					b.Fatalf("%+v, %v", res, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed()-time.Duration(timed.spent.Load()))/float64(time.Millisecond)/float64(b.N), "host-ms/turn")
		})
	}
}
