package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcphost/mcphost/approval"
	"github.com/mcphost/mcphost/audit"
	"github.com/mcphost/mcphost/builtin"
	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/elicit"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/provider/ollama"
	"github.com/mcphost/mcphost/runner"
	"github.com/mcphost/mcphost/secret"
	"github.com/mcphost/mcphost/servers"
)

// app is everything a run needs once started: the model backend, the MCP
// servers, the tools the model sees and the runner. The one-shot run and
// the chat are built on the same app.
type app struct {
	settings *config.Settings
	logger   *slog.Logger
	backend  *ollama.Provider
	manager  *servers.Manager
	// tools is what the runner calls: the manager, possibly wrapped by
	// steps such as approval.
	tools  runner.Toolbox
	model  provider.ModelInfo
	runner *runner.Runner
	// approval decides which tool calls run; a chat sets its Asker.
	approval *approval.Toolbox
	// audit is the --audit log, nil without one.
	audit *audit.Log
	// mask hides the config's secrets in everything printed.
	mask *secret.Masker
	// elicitor answers servers' requests for input: by --elicitation
	// until a chat, which can ask the user, takes over.
	elicitor atomic.Pointer[elicitFunc]
}

// elicitFunc answers one MCP elicitation request.
type elicitFunc = elicit.Func

// elicit is the manager's elicitation handler: whoever answers now.
func (a *app) elicit(ctx context.Context, req elicit.Request) (elicit.Result, error) {
	return (*a.elicitor.Load())(ctx, req)
}

// setElicitor makes f answer the servers' requests for input from now on.
func (a *app) setElicitor(f elicitFunc) { a.elicitor.Store(&f) }

// startApp connects to Ollama and starts the MCP servers. warn receives
// problems that do not stop the run. The returned app, even with an error,
// must be closed.
func startApp(ctx context.Context, settings *config.Settings, logger *slog.Logger, warn func(string)) (*app, error) {
	providerName, modelName, err := provider.ParseModel(settings.Model)
	if err != nil {
		return nil, &codedError{exitUsage, err}
	}
	if providerName != "ollama" {
		return nil, &codedError{exitUsage, fmt.Errorf("unknown provider %q in model %q: use ollama:MODEL", providerName, settings.Model)}
	}
	host := settings.OllamaHost
	if host == "" {
		host = os.Getenv("OLLAMA_HOST")
	}
	backend, err := ollama.New(host, nil)
	if err != nil {
		return nil, &codedError{exitUsage, err}
	}
	backend.SetRetry(ollama.LoggedRetry(logger))
	a := &app{settings: settings, logger: logger, backend: backend, mask: secret.FromServers(settings.Servers)}
	warn = a.maskWarn(warn)
	if err := a.startSafety(warn); err != nil {
		return a, err
	}
	a.setElicitor(elicit.Handler(settings.Elicitation, warn))
	a.manager = newManager(settings.Servers, logger, a.elicit)
	a.tools = a.withApproval(warn)

	// The servers start while Ollama describes the model: start-up costs
	// the slower of the two, not their sum.
	var (
		info    provider.ModelInfo
		showErr error
		wg      sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		info, showErr = backend.Show(ctx, modelName)
	}()
	startErrs := a.manager.Start(ctx)
	wg.Wait()

	if err := ctx.Err(); err != nil {
		return a, err
	}
	if showErr != nil {
		return a, showErr
	}
	for _, e := range startErrs {
		warn(e.Error())
	}
	if enabled := countEnabled(settings.Servers); enabled > 0 && len(startErrs) == enabled {
		return a, &codedError{exitNoServers, fmt.Errorf("no MCP server could start (%d configured): fix the errors above or run without them", enabled)}
	}
	info.Name = modelName
	if !info.Has(provider.CapabilityTools) {
		warn(fmt.Sprintf("model %q does not support tools (capabilities: %s): it answers without them; pick a tool-capable model such as qwen3 or llama3.1 to use MCP servers",
			modelName, strings.Join(info.Capabilities, ", ")))
	}
	a.model = info
	a.runner = runner.New(backend, a.tools, runner.Options{
		Model:        info,
		SystemPrompt: settings.SystemPrompt,
		MaxSteps:     settings.MaxSteps,
		NumCtx:       settings.NumCtx,
		ResultBudget: settings.MaxResultBytes,
	})
	return a, nil
}

// newManager returns the manager of specs for every command: mcphost's
// client identity, its built-in servers, and elicit answering the
// servers' requests for input.
func newManager(specs []config.ServerSpec, logger *slog.Logger, answer elicitFunc) *servers.Manager {
	return servers.NewManager(specs, servers.Options{
		ClientName: "mcphost", ClientVersion: version, Logger: logger,
		Builtin:     builtin.New,
		Elicitation: answer,
	})
}

// Close shuts down every MCP server, then closes the audit log.
func (a *app) Close() {
	if a.manager != nil {
		a.manager.Close()
	}
	if a.audit != nil {
		a.audit.Close()
	}
}

func countEnabled(specs []config.ServerSpec) int {
	n := 0
	for _, s := range specs {
		if !s.Disabled {
			n++
		}
	}
	return n
}
