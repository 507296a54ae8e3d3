package host_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/ollamatest"
)

// Telling errors apart: every error a program may act on matches one of
// the package's Err variables with errors.Is, and a server that could not
// start is a *host.ServerError that names it. Messages are sentences for a
// person, naming what is at fault and what to do.
func Example_errors() {
	model := ollamatest.NewServer(ollamatest.Model{Name: "qwen3:8b"})
	defer model.Close()
	ctx := context.Background()
	// start starts a Host on the scripted model, with one change to its
	// configuration, and returns New's error.
	start := func(change func(cfg *config.Settings)) error {
		cfg := host.DefaultConfig()
		cfg.Model, cfg.OllamaHost = "ollama:qwen3:8b", model.URL
		change(cfg)
		h, err := host.New(ctx, host.Options{Config: cfg})
		if err == nil {
			h.Close()
		}
		return err
	}

	// A setting that cannot work: here a misspelt engine.
	err := start(func(cfg *config.Settings) { cfg.Model = "olama:qwen3:8b" })
	fmt.Println("ErrConfig:", errors.Is(err, host.ErrConfig))
	fmt.Println(err)

	// A model the engine does not have.
	err = start(func(cfg *config.Settings) { cfg.Model = "ollama:qwen9:1t" })
	fmt.Println("ErrModelNotFound:", errors.Is(err, host.ErrModelNotFound))
	fmt.Println(err)

	// Servers of which none could start.
	err = start(func(cfg *config.Settings) {
		cfg.Servers = []config.ServerSpec{{Name: "notes", Transport: config.TransportStdio, Command: "no-such-mcp-server"}}
	})
	fmt.Println("ErrNoServers:", errors.Is(err, host.ErrNoServers))
	fmt.Println(err)
	var serverErr *host.ServerError
	if errors.As(err, &serverErr) {
		fmt.Println("the server that failed:", serverErr.Server)
	}

	// Any method of a closed Host.
	h, err := host.New(ctx, host.Options{Config: host.DefaultConfig()})
	if err != nil {
		fmt.Println(err)
		return
	}
	h.Close()
	_, err = h.CallTool(ctx, "fs__read_file", nil)
	fmt.Println("ErrClosed:", errors.Is(err, host.ErrClosed))
	// Output:
	// ErrConfig: true
	// unknown engine "olama" in model "olama:qwen3:8b": did you mean ollama:qwen3:8b?
	// ErrModelNotFound: true
	// model "qwen9:1t" not found: run "ollama pull qwen9:1t"
	// ErrNoServers: true
	// no MCP server could start (1 configured): server "notes" failed to start: command "no-such-mcp-server" not found
	// the server that failed: notes
	// ErrClosed: true
}
