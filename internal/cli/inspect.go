package cli

// MCP without a model: "mcphost servers" checks that every configured
// server starts and what its tools cost; "mcphost tools list" shows the
// tools; "mcphost tools call" calls one. They run on the config's servers
// or on one given with --url or --stdio.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os/signal"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/configload"
	"github.com/mcphost/mcphost/internal/servers"
	"github.com/mcphost/mcphost/internal/ui"
	"github.com/mcphost/mcphost/tool"
)

// inspectUsage is printed with a usage error of "servers" or "tools".
const inspectUsage = `usage: mcphost servers | mcphost tools list [SERVER] | mcphost tools call TOOL [JSON-ARGS | -]
       mcphost prompts list [SERVER] | mcphost prompts get SERVER__PROMPT [NAME=VALUE ...]
       mcphost resources list [SERVER] | mcphost resources read [SERVER:]URI`

// inspectCommand is a parsed "servers" or "tools" command line.
type inspectCommand struct {
	verb   string // "servers", "list", "call", or one of the verbs of parseMCPInspect
	server string // list: only this server's tools
	tool   string // call: server__tool or a bare tool name
	args   string // call: JSON arguments, "-" for stdin, "" for none
	// name and values are the prompt or resource of the prompts and
	// resources commands, and a prompt's NAME=VALUE arguments.
	name   string
	values map[string]string
}

func parseInspect(args []string) (inspectCommand, error) {
	if args[0] == "prompts" || args[0] == "resources" {
		return parseMCPInspect(args)
	}
	switch {
	case args[0] == "servers" && len(args) == 1:
		return inspectCommand{verb: "servers"}, nil
	case args[0] == "servers":
		return inspectCommand{}, fmt.Errorf("unexpected argument %q after servers", args[1])
	case len(args) < 2:
		return inspectCommand{}, fmt.Errorf("tools needs list or call")
	case args[1] == "list" && len(args) <= 3:
		c := inspectCommand{verb: "list"}
		if len(args) == 3 {
			c.server = args[2]
		}
		return c, nil
	case args[1] == "call" && len(args) == 2:
		return inspectCommand{}, fmt.Errorf("tools call needs the name of a tool (see mcphost tools list)")
	case args[1] == "call" && len(args) <= 4:
		c := inspectCommand{verb: "call", tool: args[2]}
		if len(args) == 4 {
			c.args = args[3]
		}
		return c, nil
	case args[1] == "list" || args[1] == "call":
		return inspectCommand{}, fmt.Errorf("unexpected argument %q after tools %s", args[len(args)-1], args[1])
	}
	return inspectCommand{}, fmt.Errorf("unknown command tools %q: use tools list or tools call", args[1])
}

// runInspect runs "mcphost servers" and "mcphost tools ..." on the
// configured servers, or the one of --url or --stdio, and returns the
// exit code.
func runInspect(con *console, cmd inspectCommand, settings *config.Settings, logger *slog.Logger) int {
	ctx, stop := signal.NotifyContext(con.ctx, stopSignals()...)
	defer stop()
	stdin, stdout, stderr := con.in, con.out, con.err
	mask := func(s string) string { return s }
	fail := func(code int, err error) int { return con.fail(ctx, code, err, mask) }
	if settings.Output == config.OutputStreamJSON {
		return fail(exitUsage, errors.New("--output stream-json is for model runs; use --output json with servers and tools"))
	}
	// No model is needed; "servers" looks at every server even if some
	// fail, and shows why in its table rather than as warnings.
	opts := options(settings, logger, warner(stderr))
	opts.ToolsOnly, opts.Servers = true, settings.Servers
	opts.SignIn = runSignIn(stderr.f, warner(stderr))
	var args map[string]any
	var err error
	switch cmd.verb {
	case "servers":
		// A check of the config: every server starts, live.
		opts.AllowFailedStart, opts.Warn, opts.Start = true, func(string) {}, host.StartAll
		// Checking the config is what this command is for, so what the
		// config itself got wrong (unknown keys) is said, on stderr.
		for _, msg := range settings.Warnings {
			ui.Warn(stderr, msg)
		}
	case "list":
		if cmd.server != "" {
			if opts.Servers, err = configload.OnlyServer(opts.Servers, cmd.server); err != nil {
				return fail(exitUsage, err)
			}
		}
	case verbPromptsList, verbPromptsGet, verbResourcesList, verbResourcesRead:
		if opts.Servers, err = mcpInspectServers(cmd, opts.Servers); err != nil {
			return fail(exitUsage, err)
		}
	case "call":
		if args, err = tool.ReadArgs(cmd.args, stdin); err != nil {
			return fail(exitUsage, err)
		}
		opts.Servers = servers.ForCall(opts.Servers, cmd.tool)
	}
	opts.NoServers = len(opts.Servers) == 0
	h, err := host.New(ctx, opts)
	if err != nil {
		code := exitCode(ctx, err)
		if cmd.objectOnError() && settings.Output == config.OutputJSON {
			_ = ui.WriteJSON(stdout, map[string]any{"error": errorText(err), "exit_code": code})
		}
		return fail(code, err)
	}
	defer h.Close()
	mask = h.Mask
	jsonOut := settings.Output == config.OutputJSON
	var code int
	switch cmd.verb {
	case "servers":
		code, err = listServers(h, stdout, jsonOut)
	case "list":
		code, err = written(ui.ToolsReport(stdout, h.Tools(), jsonOut))
	case "call":
		code, err = callTool(ctx, h, cmd.tool, args, stdout, jsonOut)
	default:
		code, err = runMCPInspect(ctx, h, cmd, stdout, jsonOut)
	}
	if err != nil {
		if cmd.objectOnError() && jsonOut {
			// A program reading the JSON gets an object whatever happened.
			_ = ui.WriteJSON(stdout, map[string]any{"error": mask(errorText(err)), "exit_code": code})
		}
		return fail(code, err)
	}
	return code
}

// listServers reports on every server; it fails (exit 5) when any
// enabled server could not start.
func listServers(h *host.Host, stdout io.Writer, jsonOut bool) (int, error) {
	infos := h.Servers()
	failed, err := ui.ServersReport(stdout, infos, jsonOut, h.Mask)
	switch {
	case err != nil:
		return exitError, err
	case failed > 0:
		return exitNoServers, fmt.Errorf("%d of %d servers could not start", failed, len(infos))
	}
	return exitOK, nil
}

// callTool calls one tool and prints its result.
func callTool(ctx context.Context, h *host.Host, name string, args map[string]any, stdout *pipeGuard, jsonOut bool) (int, error) {
	res, err := h.CallTool(ctx, name, args)
	var startErr *servers.StartError
	switch {
	case errors.Is(err, host.ErrUnknownTool):
		return exitUsage, err
	case err != nil && ctx.Err() != nil:
		return exitInterrupted, ctx.Err()
	case errors.As(err, &startErr):
		// Its server, known from the cache, was started for the call and
		// could not start (it needs a sign-in, say): as when it is
		// started at once.
		return exitNoServers, err
	case err != nil:
		// The server started; whatever became of it during the call
		// (it crashed, timed out, refused), the call failed.
		return exitToolFailed, err
	}
	if jsonOut {
		err = ui.WriteJSON(stdout, res.Raw)
	} else {
		err = ui.ToolResult(stdout, res, ui.IsTerminal(stdout.f))
	}
	if err != nil {
		return exitError, err
	}
	if res.IsError {
		exposed, _ := h.ResolveTool(name)
		return exitToolFailed, fmt.Errorf("tool %s reported an error", exposed)
	}
	return exitOK, nil
}
