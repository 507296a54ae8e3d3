package host_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/ollamatest"
)

// readOnly is an ask.Asker that decides itself which tool calls run: it
// allows none of those that need approval and tells the model why.
// Embedding ask.Nobody leaves the other questions (forms, sampling,
// sign-ins) to the configured answers.
type readOnly struct{ ask.Nobody }

func (readOnly) ApproveCall(_ context.Context, req ask.CallRequest) (ask.Approval, error) {
	fmt.Println("asked about", req.Name)
	return ask.Approval{Choice: ask.No, Reason: "this program only reads"}, nil
}

// A program that answers the questions put to a person itself, here
// whether a tool call may run: the fs server's reads need no approval,
// its writes do, and this Asker refuses them.
func Example_asker() {
	dir, _ := os.MkdirTemp("", "mcphost-example-")
	defer os.RemoveAll(dir)
	model := ollamatest.NewServer(ollamatest.Model{Name: "qwen3:8b"})
	defer model.Close()
	model.Enqueue(
		ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{ollamatest.Call("fs__write_file", map[string]any{"path": filepath.Join(dir, "x.txt"), "content": "x"})}},
		ollamatest.Reply{Content: "I was not allowed to write the file."},
	)

	ctx := context.Background()
	cfg := host.DefaultConfig()
	cfg.Model, cfg.OllamaHost = "ollama:qwen3:8b", model.URL
	cfg.Servers = []config.ServerSpec{{Name: "fs", Transport: config.TransportBuiltin, Builtin: "fs",
		Options: map[string]any{"allowed_directories": []any{dir}}}}
	h, err := host.New(ctx, host.Options{Config: cfg, Asker: readOnly{}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	res, err := h.Prompt(ctx, "Write x.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.ToolCalls[0].Output)
	fmt.Println(res.Answer)
	// Output:
	// asked about fs__write_file
	// Not run: the user refused this call to fs__write_file and said: this program only reads
	// I was not allowed to write the file.
}
