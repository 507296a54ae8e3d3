package host

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/budget"
	"github.com/mcphost/mcphost/internal/servers"
	"github.com/mcphost/mcphost/internal/toolcall"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/runner"
	"github.com/mcphost/mcphost/tool"
)

// ServerInfo is the state of one configured MCP server.
type ServerInfo struct {
	Name  string
	State ServerState
	// Err is why the server failed, or why it is restarting; nil
	// otherwise.
	Err       error
	Transport config.Transport
	// ToolCount is how many tools the model is offered, after filtering.
	ToolCount int
	// PID is the stdio server's process; 0 otherwise.
	PID int
	// StartedAt is when the last start began, zero if none did; Ready
	// how long that start took.
	StartedAt time.Time
	Ready     time.Duration
	// Restarts counts the automatic restarts so far; NextRestart is when
	// a restarting server will be started again.
	Restarts    int
	NextRestart time.Time
	// Cached is true while the tools are the cached list of an earlier
	// run, not yet confirmed by the server itself.
	Cached bool
	// Tokens estimates what the server's tools cost in every model
	// request (their declarations as the model is sent them).
	Tokens int
	// StartErr is why the server's first start failed (in [New], or at
	// its first call when it started lazily), a *[ServerError]; nil when it
	// started (it may be restarting since).
	StartErr error
}

// Servers reports on every configured server, in config order.
func (h *Host) Servers() []ServerInfo {
	tokens := map[string]int{}
	for _, t := range h.manager.Tools() {
		if server, _, ok := h.manager.Lookup(t.Name); ok {
			tokens[server] += offeredTokens(t)
		}
	}
	statuses := h.manager.Status()
	out := make([]ServerInfo, len(statuses))
	for i, st := range statuses {
		out[i] = ServerInfo{
			Name: st.Name, State: ServerState(st.State), Err: hostError(st.Err), Transport: st.Transport,
			ToolCount: st.ToolCount, PID: st.PID, StartedAt: st.StartedAt, Ready: st.Ready,
			Restarts: st.Restarts, NextRestart: st.NextRestart, Cached: st.Cached,
			StartErr: hostError(h.startErrs[st.Name]),
		}
		if err := serverError(st.Err); out[i].StartErr == nil && errors.Is(err, ErrServerStart) {
			// A server started lazily, at its first call.
			out[i].StartErr = hostError(err)
		}
		if st.State == servers.StateReady || st.State == servers.StateIdle {
			out[i].Tokens = tokens[st.Name]
		}
	}
	return out
}

// ToolInfo is one tool as the model sees it and as its server defined it.
type ToolInfo struct {
	// Name is what the model calls it: "server__tool", or a Go tool's
	// own name ([Options.Tools]).
	Name string
	// Server is the server's name, [HostServer] for the Go tools and the
	// resource tools; Def the tool as the server listed it (as [NewTool]
	// made it, for a Go tool).
	Server string
	Def    tool.Def
	// Offered is the declaration the model is sent: schema normalised,
	// description trimmed.
	Offered provider.Tool
	// Tokens estimates what Offered costs in every request.
	Tokens int
	// Cached is true while the definition comes from the cache of an
	// earlier run, its server not started yet.
	Cached bool
}

// Tools lists the tools the model may call, in config order and then each
// server's own order, then the Go tools of [Options.Tools]. Tools that the
// approval policy denies are left out, as they are for the model.
func (h *Host) Tools() []ToolInfo {
	cached := map[string]bool{}
	for _, st := range h.manager.Status() {
		cached[st.Name] = st.Cached
	}
	var out []ToolInfo
	for _, t := range h.approval.Tools() {
		server, _, _ := h.toolbox.Lookup(t.Name)
		def, _ := h.toolbox.ToolInfo(t.Name)
		offered, _ := runner.Offer(t)
		out = append(out, ToolInfo{Name: t.Name, Server: server, Def: def, Offered: offered, Tokens: budget.Tool(offered), Cached: cached[server]})
	}
	return out
}

// ResolveTool returns the name the model sees ("server__tool", or a Go
// tool's name) of the tool name means, resolved as the model's calls are: the full name, the
// tool's own name when one server alone has it, "server.tool" and other
// spellings. An unknown or ambiguous name is an error matching
// [ErrUnknownTool] that lists the closest or the matching names.
func (h *Host) ResolveTool(name string) (string, error) {
	var tools []toolcall.Tool
	for _, t := range h.toolbox.Tools() {
		server, own, _ := h.toolbox.Lookup(t.Name)
		tools = append(tools, toolcall.Tool{Exposed: t.Name, Server: server, Name: own})
	}
	exposed, err := toolcall.NewCatalog(tools).Resolve(name)
	if err != nil {
		var ne *toolcall.NameError
		if errors.As(err, &ne) && len(ne.Matches) == 0 && len(ne.Closest) == 0 {
			return "", fmt.Errorf("%w %q: the servers have no tools", ErrUnknownTool, name)
		}
		return "", &unknownToolError{err}
	}
	return exposed, nil
}

// unknownToolError is the resolver's own wording of an unknown or
// ambiguous name, matching ErrUnknownTool.
type unknownToolError struct{ err error }

func (e *unknownToolError) Error() string        { return e.err.Error() }
func (e *unknownToolError) Unwrap() error        { return e.err }
func (e *unknownToolError) Is(target error) bool { return target == ErrUnknownTool }

// CallTool calls one tool without a model, by any name [Host.ResolveTool]
// accepts, and returns its result whole (not cut for a model's window
// unless the server's spec says so). The approval policy does not apply:
// the program named the tool itself. A tool that reports a failure is not
// an error: the result has IsError set. A Go tool ([Options.Tools]) is
// called in this goroutine, its arguments checked against its schema. A
// name that matches no tool first starts the servers whose tools are known
// only from the cache, which may have the tool now (see [StartLazy]).
func (h *Host) CallTool(ctx context.Context, name string, args map[string]any) (*tool.Result, error) {
	return guard(h, ctx, func(ctx context.Context) (*tool.Result, error) {
		exposed, err := h.ResolveTool(name)
		if errors.Is(err, ErrUnknownTool) {
			// A server known only from the cache may have the tool now
			// (it was upgraded): it is asked before the name is unknown.
			if woke, werr := h.manager.ConfirmCached(ctx, name); werr != nil {
				return nil, serverError(werr)
			} else if woke {
				exposed, err = h.ResolveTool(name)
			}
		}
		if err != nil {
			return nil, err
		}
		if args == nil {
			args = map[string]any{}
		}
		res, err := h.toolbox.Call(ctx, exposed, args)
		return res, serverError(err)
	})
}

// ServerState is the state of a server.
type ServerState string

// The states of a server.
const (
	// StateIdle: not started; its tools are known from the cache.
	StateIdle ServerState = "idle"
	// StateStarting: starting, or restarting on request.
	StateStarting ServerState = "starting"
	// StateReady: connected, tools listed, callable.
	StateReady ServerState = "ready"
	// StateRestarting: exited; it will be started again.
	StateRestarting ServerState = "restarting"
	// StateFailed: did not start, or exited for good.
	StateFailed ServerState = "failed"
	// StateDisabled: disabled in the config or by [Host.DisableServer].
	StateDisabled ServerState = "disabled"
	// StateClosed: shut down by [Host.Close].
	StateClosed ServerState = "closed"
)

// ServerLogs returns the last lines a server wrote to stderr (and the
// lines of its stdout that were not MCP), oldest first.
func (h *Host) ServerLogs(name string) []string { return h.manager.Logs(name) }

// RestartServer stops a server and starts it again.
func (h *Host) RestartServer(ctx context.Context, name string) error {
	return h.serverWork(ctx, func(ctx context.Context) error { return h.manager.Restart(ctx, name) })
}

// DisableServer stops a server and hides its tools from the model.
func (h *Host) DisableServer(name string) error {
	return h.serverWork(context.Background(), func(context.Context) error { return h.manager.Disable(name) })
}

// EnableServer starts a disabled server again and offers its tools.
func (h *Host) EnableServer(ctx context.Context, name string) error {
	return h.serverWork(ctx, func(ctx context.Context) error { return h.manager.Enable(ctx, name) })
}

// offeredTokens estimates what a tool costs in every request: its
// declaration as the runner sends it (normalised schema, trimmed
// description).
func offeredTokens(t provider.Tool) int {
	offered, _ := runner.Offer(t)
	return budget.Tool(offered)
}
