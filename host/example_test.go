package host_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcphost/mcphost/ask"
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
	model := ollamatest.NewServer(ollamatest.Model{Name: "qwen3:8b"})
	defer model.Close()
	model.Enqueue(
		ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{ollamatest.Call("fs__list_directory", map[string]any{"path": exampleDir()})}},
		ollamatest.Reply{Content: "The folder holds notes.txt."},
	)

	ctx := context.Background()
	cfg := host.DefaultConfig()
	cfg.Model, cfg.OllamaHost = "ollama:qwen3:8b", model.URL
	cfg.Servers = []config.ServerSpec{fsServer(exampleDir())}
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

// A conversation of several turns, saved to a file and continued later.
func Example_conversation() {
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
	path := filepath.Join(exampleDir(), "session.json")
	if err := conv.Save(path); err != nil {
		fmt.Println(err)
		return
	}

	later := h.NewConversation()
	if _, err := later.Load(path); err != nil {
		fmt.Println(err)
		return
	}
	res, err := later.Prompt(ctx, "What is my name?")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Answer)
	fmt.Println("messages the model was sent:", len(model.Requests()[1].Messages))
	// Output:
	// Your name is Ann.
	// messages the model was sent: 3
}

// The MCP servers without a model: their state, their tools, one call.
func Example_toolsWithoutModel() {
	ctx := context.Background()
	cfg := host.DefaultConfig() // no model
	cfg.Servers = []config.ServerSpec{fsServer(exampleDir())}
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
	res, err := h.CallTool(ctx, "read_file", map[string]any{"path": filepath.Join(exampleDir(), "notes.txt")})
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

// readOnly is an ask.Asker that decides itself which tool calls run: it
// allows nothing and tells the model why. Embedding ask.Nobody leaves the
// other questions (forms, sampling, sign-ins) to the configured answers.
type readOnly struct{ ask.Nobody }

func (readOnly) ApproveCall(_ context.Context, req ask.CallRequest) (ask.Approval, error) {
	fmt.Println("asked about", req.Name)
	return ask.Approval{Choice: ask.No, Reason: "this program only reads"}, nil
}

// A program that decides itself which tool calls run: here it refuses
// the calls that need approval (the fs server's reads do not), telling
// the model why.
func Example_approval() {
	model := ollamatest.NewServer(ollamatest.Model{Name: "qwen3:8b"})
	defer model.Close()
	model.Enqueue(
		ollamatest.Reply{ToolCalls: []ollamatest.ToolCall{ollamatest.Call("fs__write_file", map[string]any{"path": filepath.Join(exampleDir(), "x.txt"), "content": "x"})}},
		ollamatest.Reply{Content: "I was not allowed to write the file."},
	)

	ctx := context.Background()
	cfg := host.DefaultConfig()
	cfg.Model, cfg.OllamaHost = "ollama:qwen3:8b", model.URL
	cfg.Servers = []config.ServerSpec{fsServer(exampleDir())}
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

// fsServer is the built-in fs server, confined to dir.
func fsServer(dir string) config.ServerSpec {
	return config.ServerSpec{Name: "fs", Transport: config.TransportBuiltin, Builtin: "fs",
		Options: map[string]any{"allowed_directories": []any{dir}}}
}

// exampleDir is a folder with one file, made once for all examples.
func exampleDir() string {
	dir := filepath.Join(os.TempDir(), "mcphost-host-example")
	_ = os.MkdirAll(dir, 0o755)
	_ = os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("buy milk\n"), 0o644)
	return dir
}
