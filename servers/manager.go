// Package servers owns the connections to MCP servers: it starts them in
// parallel (stdio child processes, Streamable HTTP, legacy SSE) on the
// official go-sdk, keeps each server's state and stderr, exposes their
// tools to the model under namespaced names ("server__tool", mapped back
// through a table, never by splitting the string), routes tool calls, and
// shuts everything down so that no child process outlives mcphost.
package servers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/provider"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// protocolVersion is the MCP version offered in initialize. It is pinned to
// a released version so that servers which do not know newer drafts still
// connect.
const protocolVersion = "2025-11-25"

// defaultStderrLines is how many stderr lines are kept per server.
const defaultStderrLines = 200

// Options configures a Manager.
type Options struct {
	// ClientName and ClientVersion are sent to servers as clientInfo;
	// empty means "mcphost" and "dev".
	ClientName, ClientVersion string
	// Logger receives debug logs, including every stderr line of every
	// stdio server; nil discards them.
	Logger *slog.Logger
	// StderrLines is how many stderr lines are kept per server; 0 or less
	// means 200.
	StderrLines int
	// Builtin creates the in-process server of a spec whose transport is
	// config.TransportBuiltin; the manager connects to it over the SDK's
	// in-memory transport. Nil means builtin specs fail to start.
	Builtin func(ctx context.Context, spec config.ServerSpec) (*mcp.Server, error)
}

// State is where a server is in its life.
type State string

// The states of a server.
const (
	StateStarting State = "starting" // configured and enabled, not ready yet
	StateReady    State = "ready"    // connected, tools listed, callable
	StateFailed   State = "failed"   // did not start, or exited later
	StateDisabled State = "disabled" // disabled in the config, never started
	StateClosed   State = "closed"   // shut down by Close
)

// ServerStatus is a snapshot of one server, for status displays.
type ServerStatus struct {
	Name      string
	State     State
	Err       error // why it failed; nil unless State is failed
	Transport config.Transport
	ToolCount int       // tools exposed to the model, after filtering
	PID       int       // the stdio process, 0 otherwise
	StartedAt time.Time // when starting began; zero if it never did
	Ready     time.Duration
}

// Manager owns a fixed set of MCP servers. All its methods are safe for
// concurrent use.
type Manager struct {
	log     *slog.Logger
	client  *mcp.Client
	builtin func(context.Context, config.ServerSpec) (*mcp.Server, error)
	// life ends when the manager is closed; starts in flight are cancelled
	// through it and HTTP connections live under it.
	life       context.Context
	cancelLife context.CancelFunc
	starts     sync.WaitGroup

	mu      sync.RWMutex
	servers []*server // in config order
	byName  map[string]*server
	table   map[string]toolRef // exposed name → server and original tool
	started bool
	closed  bool
}

// NewManager returns a manager for specs; nothing starts until Start.
func NewManager(specs []config.ServerSpec, opts Options) *Manager {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	name, version := opts.ClientName, opts.ClientVersion
	if name == "" {
		name = "mcphost"
	}
	if version == "" {
		version = "dev"
	}
	lines := opts.StderrLines
	if lines <= 0 {
		lines = defaultStderrLines
	}
	life, cancel := context.WithCancel(context.Background())
	m := &Manager{
		log: logger,
		client: mcp.NewClient(&mcp.Implementation{Name: name, Version: version}, &mcp.ClientOptions{
			Logger: logger,
			// Non-nil and empty: no roots capability, or server-filesystem
			// would replace the directories it was given with our roots.
			Capabilities: &mcp.ClientCapabilities{},
		}),
		builtin:    opts.Builtin,
		life:       life,
		cancelLife: cancel,
		byName:     make(map[string]*server, len(specs)),
		table:      map[string]toolRef{},
	}
	for _, spec := range specs {
		s := &server{spec: spec, logs: newLineRing(lines), state: StateStarting}
		switch {
		case spec.Disabled:
			s.state = StateDisabled
		case strings.Contains(spec.Name, separator):
			s.fail(&StartError{Server: spec.Name, Message: fmt.Sprintf("server %q: a server name must not contain %q", spec.Name, separator)})
		case m.byName[spec.Name] != nil:
			s.fail(&StartError{Server: spec.Name, Message: fmt.Sprintf("server %q is configured twice", spec.Name)})
		}
		m.servers = append(m.servers, s)
		if m.byName[spec.Name] == nil {
			m.byName[spec.Name] = s
		}
	}
	return m
}

// Start connects to every enabled server concurrently, each bounded by its
// StartTimeout (config.DefaultStartTimeout when zero), and returns when all
// have finished or given up. It returns one *StartError per server that
// failed; the others are ready. Start may be called once.
func (m *Manager) Start(ctx context.Context) []error {
	m.mu.Lock()
	if m.started || m.closed {
		m.mu.Unlock()
		return []error{errors.New("servers: Start called twice or after Close")}
	}
	m.started = true
	results := make([]*StartError, len(m.servers))
	for i, s := range m.servers {
		switch {
		case s.startErr != nil:
			results[i] = s.startErr
		case s.state == StateStarting:
			m.starts.Go(func() { results[i] = m.start(ctx, s) })
		}
	}
	m.mu.Unlock()
	m.starts.Wait()

	var errs []error
	for _, r := range results {
		if r != nil {
			errs = append(errs, r)
		}
	}
	return errs
}

// Tools returns the tools of all ready servers as the model sees them, in
// config order and then each server's own order. The Parameters bytes are
// shared between calls: callers must not modify them.
func (m *Manager) Tools() []provider.Tool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var tools []provider.Tool
	for _, s := range m.servers {
		if s.state == StateReady {
			tools = append(tools, s.exposed...)
		}
	}
	return tools
}

// Lookup returns the server and original tool name behind an exposed name.
func (m *Manager) Lookup(name string) (server, tool string, ok bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	ref, ok := m.table[name]
	return ref.Server, ref.Tool, ok
}

// Call calls the tool exposed as name. Cancelling ctx abandons the call and
// tells the server so. A tool that reports failure is not an error here: it
// is a result with IsError set.
func (m *Manager) Call(ctx context.Context, name string, args map[string]any) (*mcp.CallToolResult, error) {
	m.mu.RLock()
	ref, ok := m.table[name]
	var (
		s     *server
		sess  *mcp.ClientSession
		state State
		serr  error
	)
	if ok {
		s = m.byName[ref.Server]
		sess, state, serr = s.session, s.state, s.err
	}
	m.mu.RUnlock()

	switch {
	case !ok:
		return nil, &kindError{kind: ErrUnknownTool, msg: fmt.Sprintf("unknown tool %q", name)}
	case state != StateReady && serr != nil:
		return nil, &kindError{kind: ErrServerUnavailable, msg: serr.Error(), err: serr}
	case state != StateReady:
		return nil, &kindError{kind: ErrServerUnavailable, msg: fmt.Sprintf("server %q is %s", ref.Server, state)}
	}

	res, err := sess.CallTool(ctx, &mcp.CallToolParams{Name: ref.Tool, Arguments: args})
	if err == nil {
		return res, nil
	}
	if ctx.Err() == nil && connLost(err) {
		// The watcher notices the exit a moment after the call does; give
		// it that moment so the error can quote the server's last words.
		if exitErr := s.awaitExit(exitNoticeDelay); exitErr != nil {
			return nil, &kindError{kind: ErrServerUnavailable, msg: exitErr.Error(), err: err}
		}
	}
	return nil, fmt.Errorf("server %q: calling tool %q: %w", ref.Server, ref.Tool, err)
}

// Status returns a snapshot of every configured server, in config order.
func (m *Manager) Status() []ServerStatus {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make([]ServerStatus, 0, len(m.servers))
	for _, s := range m.servers {
		out = append(out, ServerStatus{
			Name:      s.spec.Name,
			State:     s.state,
			Err:       s.err,
			Transport: s.transport(),
			ToolCount: len(s.exposed),
			PID:       s.pid,
			StartedAt: s.startedAt,
			Ready:     s.ready,
		})
	}
	return out
}

// Logs returns the last stderr lines of a stdio server, oldest first; nil
// for an unknown server.
func (m *Manager) Logs(server string) []string {
	m.mu.RLock()
	s := m.byName[server]
	m.mu.RUnlock()
	if s == nil {
		return nil
	}
	return s.logs.snapshot()
}

// Close shuts all servers down in parallel and waits, a few seconds at
// most, until their processes (and the processes those started) are gone.
// It cancels starts still in flight. Close is idempotent.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	m.mu.Unlock()

	m.cancelLife()
	m.starts.Wait() // a cancelled start cleans up after itself

	m.mu.Lock()
	sessions := make([]*mcp.ClientSession, len(m.servers))
	for i, s := range m.servers {
		sessions[i] = s.session
		s.closing = true
		if s.state == StateReady || s.state == StateStarting {
			s.state = StateClosed
		}
	}
	m.mu.Unlock()

	var wg sync.WaitGroup
	for i, s := range m.servers {
		wg.Go(func() { s.shutdown(sessions[i], true) })
	}
	wg.Wait()
	return nil
}

// rebuildLocked recomputes the exposed names of every server whose tools
// are known. Names depend only on the configured order and the tool lists,
// never on which server answered first. The caller holds m.mu.
func (m *Manager) rebuildLocked() {
	var refs []toolRef
	var owners []*server
	var defs []*mcp.Tool
	for _, s := range m.servers {
		for _, t := range s.tools {
			refs = append(refs, toolRef{Server: s.spec.Name, Tool: t.Name})
			owners = append(owners, s)
			defs = append(defs, t)
		}
		s.exposed = nil
	}
	names := exposedNames(refs)
	m.table = make(map[string]toolRef, len(names))
	for i, name := range names {
		m.table[name] = refs[i]
		owners[i].exposed = append(owners[i].exposed, providerTool(name, defs[i], m.log))
	}
}
