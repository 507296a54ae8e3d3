package host_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/ollamatest"
)

// The examples run against ollamatest, a scripted Ollama server that
// answers as a real model would; with a real Ollama, leave OllamaHost out.
// They start from DefaultConfig, which keeps them from reading the config
// files and variables of the machine they run on.

// A prompt answered by the model, with the built-in fs server's tools on a
// folder.
func Example() {
	dir := exampleDir() // a folder that holds notes.txt
	defer os.RemoveAll(dir)
	model := ollamatest.NewServer(ollamatest.Model{Name: "qwen3:8b"})
	defer model.Close()
	model.Enqueue(
		ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{ollamatest.Call("fs__list_directory", map[string]any{"path": dir})}},
		ollamatest.Reply{Content: "The folder holds notes.txt."},
	)

	ctx := context.Background()
	cfg := host.DefaultConfig()
	cfg.Model, cfg.OllamaHost = "ollama:qwen3:8b", model.URL
	cfg.Servers = []config.ServerSpec{{Name: "fs", Transport: config.TransportBuiltin, Builtin: "fs",
		Options: map[string]any{"allowed_directories": []any{dir}}}}
	h, err := host.New(ctx, host.Options{Config: cfg})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	res, err := h.Prompt(ctx, "What files are in this folder?")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Answer)
	fmt.Println(len(res.ToolCalls), "tool call:", res.ToolCalls[0].Call.Name)
	// Output:
	// The folder holds notes.txt.
	// 1 tool call: fs__list_directory
}

// Streaming: the events of a turn as they happen, here as a Go iterator.
// PromptFunc gives them to a callback instead.
func Example_stream() {
	model := ollamatest.NewServer(ollamatest.Model{Name: "qwen3:8b"})
	defer model.Close()
	model.Enqueue(ollamatest.Reply{Chunks: []string{"Hel", "lo ", "there"}})

	ctx := context.Background()
	cfg := host.DefaultConfig()
	cfg.Model, cfg.OllamaHost = "ollama:qwen3:8b", model.URL
	h, err := host.New(ctx, host.Options{Config: cfg})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	for ev := range h.Stream(ctx, "Greet me") {
		switch ev := ev.(type) {
		case host.TextDelta:
			fmt.Printf("[%s]", ev.Text)
		case host.Finished:
			fmt.Println()
			fmt.Println("answer:", ev.Result.Answer, "error:", ev.Err)
		}
	}
	// Output:
	// [Hel][lo ][there]
	// answer: Hello there error: <nil>
}

// A conversation of several turns, saved to a file and continued later,
// by this program or by "mcphost --session FILE".
func Example_conversation() {
	dir := exampleDir()
	defer os.RemoveAll(dir)
	model := ollamatest.NewServer(ollamatest.Model{Name: "qwen3:8b"})
	defer model.Close()
	model.Enqueue(ollamatest.Reply{Content: "Nice to meet you, Ann."}, ollamatest.Reply{Content: "Your name is Ann."})

	ctx := context.Background()
	cfg := host.DefaultConfig()
	cfg.Model, cfg.OllamaHost = "ollama:qwen3:8b", model.URL
	h, err := host.New(ctx, host.Options{Config: cfg})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	conv := h.NewConversation()
	if _, err := conv.Prompt(ctx, "My name is Ann."); err != nil {
		fmt.Println(err)
		return
	}
	path := filepath.Join(dir, "session.json")
	if err := conv.Save(path); err != nil {
		fmt.Println(err)
		return
	}

	later := h.NewConversation()
	saved, err := later.Load(path) // errors.Is(err, fs.ErrNotExist) when there is none
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("loaded", len(saved.Messages), "messages, saved with", saved.Model)
	res, err := later.Prompt(ctx, "What is my name?")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Answer)
	// Output:
	// loaded 2 messages, saved with qwen3:8b
	// Your name is Ann.
}

// The MCP servers without a model: their state, their tools, one call.
func Example_toolsWithoutModel() {
	dir := exampleDir() // a folder that holds notes.txt
	defer os.RemoveAll(dir)
	ctx := context.Background()
	cfg := host.DefaultConfig() // no model
	cfg.Servers = []config.ServerSpec{{Name: "fs", Transport: config.TransportBuiltin, Builtin: "fs",
		Options: map[string]any{"allowed_directories": []any{dir}}}}
	h, err := host.New(ctx, host.Options{Config: cfg})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	for _, s := range h.Servers() {
		fmt.Println(s.Name, s.State)
	}
	for _, t := range h.Tools() {
		if strings.HasPrefix(t.Def.Name, "read_") {
			fmt.Println(t.Name)
		}
	}
	// A tool's own name is enough when one server alone has it.
	res, err := h.CallTool(ctx, "read_file", map[string]any{"path": filepath.Join(dir, "notes.txt")})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(res.Text())
	// Output:
	// fs ready
	// fs__read_file
	// buy milk
}

// The user's configuration, as the mcphost command reads it, changed
// before the Host starts: another model, tools that always need approval,
// and a tighter bound on the steps of a turn.
func ExampleLoadConfig() {
	cfg, err := host.LoadConfig(host.LoadOptions{})
	if err != nil {
		fmt.Println(err) // matches host.ErrConfig, naming the file and setting
		return
	}
	cfg.Model = "ollama:qwen3:8b"
	cfg.Approval.Ask = append(cfg.Approval.Ask, "*__write_*")
	cfg.MaxSteps = 5
	ctx := context.Background()
	h, err := host.New(ctx, host.Options{Config: cfg})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	res, err := h.Prompt(ctx, "What files are in this folder?")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Answer)
}

// exampleDir is a new folder holding notes.txt, which the example removes.
func exampleDir() string {
	dir, err := os.MkdirTemp("", "mcphost-example-")
	if err != nil {
		panic(err) // no temporary folder: no example can run
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("buy milk\n"), 0o644); err != nil {
		panic(err)
	}
	return dir
}
