package cli

// MCP without a model: "mcphost servers" checks that every configured
// server starts and what its tools cost; "mcphost tools list" shows the
// tools; "mcphost tools call" calls one. They run on the config's servers
// or on one given with --url or --stdio.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os/signal"
	"reflect"
	"strings"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/configload"
	"github.com/mcphost/mcphost/internal/guard/secret"
	"github.com/mcphost/mcphost/internal/servers"
	"github.com/mcphost/mcphost/internal/ui"
	"github.com/mcphost/mcphost/tool"
)

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

// parseServers reads "servers".
func parseServers(args []string) (action, error) {
	if len(args) > 0 {
		return nil, misuse(fmt.Errorf("unexpected argument %q after servers", args[0]))
	}
	return inspectAction(inspectCommand{verb: "servers"}), nil
}

// parseTools reads "tools list [SERVER]" and "tools call TOOL [JSON-ARGS | -]".
func parseTools(args []string) (action, error) {
	switch {
	case len(args) == 0:
		return nil, misuse(errors.New("tools needs list or call"))
	case args[0] == "list" && len(args) <= 2:
		c := inspectCommand{verb: "list"}
		if len(args) == 2 {
			c.server = args[1]
		}
		return inspectAction(c), nil
	case args[0] == "call" && len(args) == 1:
		return nil, misuse(errors.New("tools call needs the name of a tool (see mcphost tools list)"))
	case args[0] == "call" && len(args) <= 3:
		c := inspectCommand{verb: "call", tool: args[1]}
		if len(args) == 3 {
			c.args = args[2]
		}
		return inspectAction(c), nil
	case args[0] == "list" || args[0] == "call":
		return nil, misuse(fmt.Errorf("unexpected argument %q after tools %s", args[len(args)-1], args[0]))
	}
	return nil, misuse(fmt.Errorf("unknown command tools %q: use tools list or tools call", args[0]))
}

// inspectAction runs cmd once the config is loaded. A config that cannot
// be loaded is a failure like any other: with --output json on the command
// line, stdout gets its JSON document (see runInspect).
func inspectAction(cmd inspectCommand) action {
	return func(inv *invocation) int {
		return inv.withSettingsReport(func(settings *config.Settings, logger *slog.Logger) int {
			return runInspect(inv.con, cmd, settings, logger)
		})
	}
}

// runInspect runs "mcphost servers" and "mcphost tools ..." on the
// configured servers, or the one of --url or --stdio, and returns the
// exit code. With --output json, stdout holds exactly one JSON document
// whatever happens: the report, or, when the command failed before
// writing one, {"error": …, "exit_code": …}.
func runInspect(con *console, cmd inspectCommand, settings *config.Settings, logger *slog.Logger) int {
	ctx, stop := signal.NotifyContext(con.ctx, stopSignals()...)
	defer stop()
	stdin, stderr := con.in, con.err
	stdout := &docWriter{w: con.out}
	tty := ui.IsTerminal(con.out.f)
	jsonOut := settings.Output == config.OutputJSON
	mask := func(s string) string { return s }
	fail := func(code int, err error) int {
		code = con.fail(ctx, code, err, mask)
		if jsonOut && !stdout.wrote && code != exitReaderGone {
			// A program reading the JSON gets one document whatever
			// happened, and none more after the report.
			msg := mask(errorText(err))
			if code == exitInterrupted {
				msg = "interrupted"
			}
			_ = ui.WriteJSON(stdout, map[string]any{"error": msg, "exit_code": code})
		}
		return code
	}
	opts, args, err := inspectOptions(cmd, settings, logger, stdin, stderr)
	if err != nil {
		return fail(exitUsage, err)
	}
	h, err := host.New(ctx, opts)
	if err != nil {
		return fail(exitCode(ctx, err), err)
	}
	defer h.Close()
	mask = h.Mask
	var code int
	switch cmd.verb {
	case "servers":
		code, err = listServers(h, stdout, jsonOut)
	case "list":
		code, err = written(ui.ToolsReport(stdout, h.Tools(), jsonOut))
	case "call":
		code, err = callTool(ctx, h, cmd.tool, args, stdout, tty, jsonOut)
	default:
		code, err = runMCPInspect(ctx, h, cmd, stdout, tty, jsonOut)
	}
	if err != nil {
		return fail(code, err)
	}
	return code
}

// docWriter is the command's stdout, noting whether anything was written
// to it: a JSON document that was, is not followed by another.
type docWriter struct {
	w     io.Writer
	wrote bool
}

func (d *docWriter) Write(p []byte) (int, error) {
	d.wrote = d.wrote || len(p) > 0
	return d.w.Write(p)
}

// inspectOptions are the host options of cmd, with the arguments of a
// tools call: no model is needed, and only the servers cmd names start.
func inspectOptions(cmd inspectCommand, settings *config.Settings, logger *slog.Logger, stdin io.Reader, stderr *pipeGuard) (host.Options, map[string]any, error) {
	opts := options(settings, logger, warner(stderr))
	specs := settings.Servers
	opts.Asker = runAsker(stderr.f, warner(stderr))
	var args map[string]any
	var err error
	switch cmd.verb {
	case "servers":
		// A check of the config: every server starts, live, even if
		// some fail, and its table rather than warnings shows why.
		opts.AllowFailedStart, opts.Warn, opts.Start = true, func(string) {}, host.StartAll
		// Checking the config is what this command is for, so what the
		// config itself got wrong (unknown keys) is said, on stderr.
		for _, msg := range settings.Warnings {
			ui.Warn(stderr, msg)
		}
		// Warn is silenced above, and a project file left out is what a
		// check of the config most needs to say: as tools list and -p do.
		if len(settings.Untrusted) > 0 {
			ui.Warn(stderr, configload.UntrustedWarning(settings.Untrusted))
		}
	case "list":
		if cmd.server != "" {
			specs, err = configload.OnlyServer(specs, cmd.server)
		}
	case verbPromptsList, verbPromptsGet, verbResourcesList, verbResourcesRead:
		specs, err = mcpInspectServers(cmd, specs)
	case "call":
		args, err = tool.ReadArgs(cmd.args, stdin)
		specs = servers.ForCall(specs, cmd.tool)
	}
	return withServers(opts, specs), args, err
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

// callTool calls one tool and prints its result. A result that reports an
// error (isError) is printed as any other, and the call fails (exit 6).
func callTool(ctx context.Context, h *host.Host, name string, args map[string]any, stdout io.Writer, tty, jsonOut bool) (int, error) {
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
	// A server may echo back a secret it was given (a header, an env
	// value, a token): the result is masked as every other output is.
	if jsonOut {
		err = ui.WriteJSON(stdout, maskRawResult(res.Raw, h.Mask))
	} else {
		var b strings.Builder
		if err = ui.ToolResult(&b, res, tty); err == nil {
			_, err = io.WriteString(stdout, h.Mask(b.String()))
		}
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

// maskRawResult masks the secrets in a tool's result as the server sent
// it (see maskJSON). A result with nothing to mask is returned as sent.
func maskRawResult(raw json.RawMessage, mask func(string) string) any {
	res, masked, ok := maskedJSON(raw, mask)
	if !ok || reflect.DeepEqual(masked, res) {
		return raw
	}
	return masked
}

// maskJSON masks the secrets in JSON a server sent (a content block, a
// resource's contents), as every other output is masked: its text, values
// under secret-looking keys. Binary content ("data" of an image or audio,
// a resource's "blob") is kept as it is: masking base64 would spoil it,
// and the text output does not show it either. JSON that does not decode
// is returned as it is, and so is JSON with nothing to mask.
func maskJSON(raw json.RawMessage, mask func(string) string) json.RawMessage {
	sent, masked, ok := maskedJSON(raw, mask)
	if !ok || reflect.DeepEqual(masked, sent) {
		// As sent, in the server's order.
		return raw
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(masked); err != nil {
		return raw
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// maskedJSON decodes raw and masks it; ok is false when it does not
// decode.
func maskedJSON(raw json.RawMessage, mask func(string) string) (sent, masked any, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&sent); err != nil || sent == nil {
		return nil, nil, false
	}
	masked = secret.ValueWith(sent, mask)
	keepBinary(sent, masked)
	return sent, masked, true
}

// keepBinary puts back, in masked, the binary data of sent, however deep:
// the "data" of image and audio content, the "blob" of a resource's
// contents (which have a "uri").
func keepBinary(sent, masked any) {
	switch s := sent.(type) {
	case map[string]any:
		m, ok := masked.(map[string]any)
		if !ok {
			return
		}
		_, isResource := s["uri"].(string)
		isMedia := s["type"] == "image" || s["type"] == "audio"
		for k, v := range s {
			if str, isStr := v.(string); isStr && ((k == "data" && isMedia) || (k == "blob" && isResource)) {
				m[k] = str
				continue
			}
			keepBinary(v, m[k])
		}
	case []any:
		m, ok := masked.([]any)
		if !ok || len(m) != len(s) {
			return
		}
		for i := range s {
			keepBinary(s[i], m[i])
		}
	}
}
