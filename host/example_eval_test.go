package host_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/ollamatest"
)

// An evaluation: which of two models lists a folder with the fs server's
// tool, as "mcphost eval" runs a task file. One model calls the tool, the
// other answers without it.
func ExampleHost_Eval() {
	dir := exampleDir() // a folder that holds notes.txt
	defer os.RemoveAll(dir)
	model := ollamatest.NewServer(ollamatest.Model{Name: "caller"}, ollamatest.Model{Name: "guesser"})
	defer model.Close()
	model.Handle(func(req api.ChatRequest) ollamatest.Reply {
		last := req.Messages[len(req.Messages)-1]
		switch {
		case last.Role == "tool":
			return ollamatest.Reply{Content: "The folder holds notes.txt."}
		case req.Model == "caller":
			return ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{ollamatest.Call("fs__list_directory", map[string]any{"path": dir})}}
		}
		return ollamatest.Reply{Content: "It is probably empty."}
	})

	ctx := context.Background()
	cfg := host.DefaultConfig()
	cfg.OllamaHost = model.URL
	cfg.Servers = []config.ServerSpec{{Name: "fs", Transport: config.TransportBuiltin, Builtin: "fs",
		Options: map[string]any{"allowed_directories": []any{dir}}}}
	h, err := host.New(ctx, host.Options{Config: cfg})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	report, err := h.Eval(ctx, []host.EvalTask{{
		Name:   "list",
		Prompt: "What files are in " + dir + "?",
		Tools:  []string{"fs__list_directory"},
		Answer: `notes\.txt`,
		Repeat: 2,
	}}, host.EvalOptions{Models: []string{"ollama:caller", "ollama:guesser"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range report.Models {
		fmt.Printf("%s: %d/%d, %d calls; %s\n", m.Model, m.Passed, m.Runs, m.Native+m.Recovered, m.Verdict)
	}
	fmt.Println("every model passed:", report.Passed(1))
	// Output:
	// ollama:caller: 2/2, 2 calls; passes every task, calling tools natively
	// ollama:guesser: 0/2, 0 calls; fails every task; never called a tool: use another model, or check that its template supports tools (mcphost models)
	// every model passed: false
}

// Tasks and models are checked before anything runs.
func ExampleHost_Eval_checked() {
	model := ollamatest.NewServer(ollamatest.Model{Name: "qwen3:8b"})
	defer model.Close()
	ctx := context.Background()
	cfg := host.DefaultConfig()
	cfg.OllamaHost = model.URL
	h, err := host.New(ctx, host.Options{Config: cfg})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	_, err = h.Eval(ctx, []host.EvalTask{{Name: "t", Prompt: "hi", Tools: []string{"fs__read_file"}}},
		host.EvalOptions{Models: []string{"ollama:qwen3:8b"}})
	fmt.Println(errors.Is(err, host.ErrConfig), err)
	_, err = h.Eval(ctx, []host.EvalTask{{Name: "t", Prompt: "hi"}}, host.EvalOptions{Models: []string{"ollama:llama9"}})
	fmt.Println(errors.Is(err, host.ErrModelNotFound))
	fmt.Println(model.RequestCount(), "model calls")
	// Output:
	// true the task "t" expects the tool fs__read_file, which no server has: no server offers any tool
	// true
	// 0 model calls
}
