// Package servers owns the connections to MCP servers: it starts them in
// parallel (stdio child processes, Streamable HTTP, legacy SSE, built-in
// servers in memory) on the official go-sdk, keeps each server's state and
// log, exposes their tools to the model under namespaced names
// ("server__tool", mapped back through a table, never by splitting the
// string), routes tool calls with a timeout each, restarts servers that
// exit, and shuts everything down so that no child process outlives
// mcphost.
//
// A server's tools being known and the server being ready are separate: a
// server that exited keeps its tools listed while it restarts, and a call
// made meanwhile waits a little for it (see Call).
package servers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/elicit"
	"github.com/mcphost/mcphost/internal/sampling"
	"github.com/mcphost/mcphost/internal/servers/oauth"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/tool"
)

// protocolVersion is the MCP version offered in initialize. It is pinned to
// a released version so that servers which do not know newer drafts still
// connect.
const protocolVersion = "2025-11-25"

// defaultStderrLines is how many log lines are kept per server.
const defaultStderrLines = 200

// Restart pacing: the first restart comes defaultRestartDelay after an
// exit, each further one within the same minute twice as late, at most
// maxRestartDelay.
const (
	defaultRestartDelay = 500 * time.Millisecond
	maxRestartDelay     = 30 * time.Second
	restartWindow       = time.Minute
)

// defaultReadyWait is how long a call to a server that is (re)starting
// waits for it before failing.
const defaultReadyWait = 10 * time.Second

// Options configures a Manager.
type Options struct {
	// ClientName and ClientVersion are sent to servers as clientInfo;
	// empty means "mcphost" and "dev".
	ClientName, ClientVersion string
	// Logger receives debug logs, including every stderr line of every
	// stdio server, exits and restarts; nil discards them.
	Logger *slog.Logger
	// StderrLines is how many log lines are kept per server; 0 or less
	// means 200.
	StderrLines int
	// Builtin creates the in-process server of a spec whose transport is
	// config.TransportBuiltin; the manager connects to it over the SDK's
	// in-memory transport. Nil means builtin specs fail to start. It is
	// called again for every restart.
	Builtin func(ctx context.Context, spec config.ServerSpec) (*mcp.Server, error)
	// RestartDelay is the wait before the first automatic restart; it
	// doubles for each further restart within a minute. 0 means 500ms.
	RestartDelay time.Duration
	// ReadyWait bounds how long a call to a server that is starting or
	// restarting waits for it. 0 means 10s.
	ReadyWait time.Duration
	// MaxMessageBytes bounds one message from a server, whatever its
	// transport: a line from a stdio server, a JSON answer or one event of
	// an HTTP server's stream; a response over it fails its call (an event
	// over it ends the HTTP session). 0 means 16 MiB, the SDK's own bound.
	MaxMessageBytes int
	// CacheDir, when not empty, keeps each server's tool list between runs
	// (see Start).
	CacheDir string
	// Lazy leaves servers whose tool list is cached unstarted until one of
	// their tools is called; Background starts every server without
	// waiting (Start returns at once). Without either, Start waits for
	// every server, as on a first run.
	Lazy, Background bool
	// StartWait, with Lazy, bounds how long Start waits for the servers
	// it starts: those still starting after it go on starting in the
	// background, their start bounded by its own timeout, and WaitTools
	// waits for them no longer. A negative value waits not at all; 0 waits
	// for every one, as without Lazy.
	StartWait time.Duration
	// Elicitation answers a server's elicitation/create request (a form
	// or URL it wants the user to fill in); nil means the client does not
	// offer elicitation, and servers are told so in initialize.
	Elicitation elicit.Func
	// Sampling answers a server's sampling/createMessage request (a
	// completion by the model); nil means the client does not offer
	// sampling.
	Sampling sampling.Func
	// LogLevel is the least severe of the log messages servers are asked
	// to send (logging/setLevel): one of MCP's levels, "debug" to
	// "emergency"; empty means "warning".
	LogLevel string
	// Warn receives what the user should see at once: servers' log
	// messages at error level and above, structured results that do not
	// match their tool's output schema. Nil logs them at warning level.
	Warn func(string)
	// OnChange is told of every change a server announced to its tools,
	// prompts or resources, once they are listed again; it runs on its
	// own goroutine, one change at a time per server.
	OnChange func(Change)
	// SignIns keeps the OAuth sign-ins of http and sse servers (see
	// package oauth); nil turns OAuth off: a server that asks for a
	// sign-in fails as for any refused credentials. A server with a
	// configured Authorization header never signs in: the header is its
	// credential.
	SignIns *oauth.Store
	// SignIn shows the user the URL of a sign-in that a server asks for
	// while it starts or during a call (no token stored, or one that can
	// no longer be refreshed, or a step-up to more scopes); nil fails such
	// a server, saying to sign in with "mcphost auth login NAME". Login
	// signs in on request whatever SignIn is.
	SignIn oauth.SignInFunc
	// OnSecret receives the secrets that sign-ins bring (tokens, a
	// registered client's secret), for masking.
	OnSecret func(...string)
	// OnStart hears how Start goes, for a display of it: first the names
	// of the servers it starts, then each one's outcome as it comes, from
	// the starting goroutines (possibly at once). Nil hears nothing.
	OnStart func(StartNews)
}

// StartNews is news of Start for Options.OnStart: either Starting, the
// servers being started (sent once, first), or the outcome of one of them,
// Server, ready when Err is nil.
type StartNews struct {
	Starting []string
	Server   string
	Err      error
}

// State is where a server is in its life.
type State string

// The states of a server.
const (
	StateIdle       State = "idle"       // not started; its tools are known from the cache
	StateStarting   State = "starting"   // starting, or restarting on request
	StateReady      State = "ready"      // connected, tools listed, callable
	StateRestarting State = "restarting" // exited; will be started again
	StateFailed     State = "failed"     // did not start, or exited for good
	StateDisabled   State = "disabled"   // disabled in the config or by Disable
	StateClosed     State = "closed"     // shut down by Close
)

// ServerStatus is a snapshot of one server, for status displays.
type ServerStatus struct {
	Name  string
	State State
	// Err is why the server failed, or why it is restarting; nil otherwise.
	Err       error
	Transport config.Transport
	ToolCount int       // tools exposed to the model, after filtering
	PID       int       // the stdio process, 0 otherwise
	StartedAt time.Time // when the last start began; zero if none did
	Ready     time.Duration
	// Restarts counts the automatic restarts so far.
	Restarts int
	// NextRestart is when a restarting server will be started again.
	NextRestart time.Time
	// Cached is true while the tools are the cached list, not yet
	// confirmed by the server itself.
	Cached bool
}

// Manager owns a fixed set of MCP servers. All its methods are safe for
// concurrent use.
type Manager struct {
	log          *slog.Logger
	warn         func(string)
	impl         *mcp.Implementation
	client       *mcp.Client // for servers without roots
	elicit       elicit.Func
	sample       sampling.Func
	logLevel     string
	onChange     func(Change)
	onStart      func(StartNews)
	progress     progressTable
	schemas      schemaCache
	builtin      func(context.Context, config.ServerSpec) (*mcp.Server, error)
	restartDelay time.Duration
	readyWait    time.Duration
	maxMessage   int
	cache        *toolCache
	background   bool
	startWait    time.Duration
	// life ends when the manager is closed: starts in flight and pending
	// restarts are cancelled through it.
	life       context.Context
	cancelLife context.CancelFunc
	// work counts the goroutines that may start or stop a server; Close
	// waits for them. Add is only called under mu while !closed.
	work sync.WaitGroup

	mu          sync.RWMutex
	servers     []*server // in config order
	byName      map[string]*server
	table       map[string]toolRef // exposed name → server and original tool
	promptTable map[string]toolRef // exposed prompt name → server and prompt
	// sessions finds the server behind a session, for the requests and
	// notifications servers send; a session is in it from its initialize
	// until its connection is released.
	sessions map[*mcp.ClientSession]*server
	// urlWaits are the URL elicitations waiting for their server to say
	// they completed.
	urlWaits map[urlWait]chan struct{}
	started  bool
	closed   bool
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
		log:          logger,
		warn:         opts.Warn,
		impl:         &mcp.Implementation{Name: name, Version: version},
		elicit:       opts.Elicitation,
		sample:       opts.Sampling,
		logLevel:     opts.LogLevel,
		onChange:     opts.OnChange,
		onStart:      opts.OnStart,
		builtin:      opts.Builtin,
		restartDelay: positive(opts.RestartDelay, defaultRestartDelay),
		readyWait:    positive(opts.ReadyWait, defaultReadyWait),
		maxMessage:   positive(opts.MaxMessageBytes, defaultMaxMessage),
		life:         life,
		cancelLife:   cancel,
		byName:       make(map[string]*server, len(specs)),
		table:        map[string]toolRef{},
		promptTable:  map[string]toolRef{},
		sessions:     map[*mcp.ClientSession]*server{},
		urlWaits:     map[urlWait]chan struct{}{},
	}
	if m.warn == nil {
		m.warn = func(msg string) { logger.Warn(msg) }
	}
	if m.logLevel == "" {
		m.logLevel = "warning"
	}
	m.client = m.newClient(nil)
	if opts.CacheDir != "" {
		m.cache = &toolCache{dir: opts.CacheDir}
	}
	m.background = opts.Background
	if opts.Lazy {
		m.startWait = opts.StartWait
	}
	for _, spec := range specs {
		s := &server{spec: spec, logs: newLineRing(lines), state: StateStarting, changed: make(chan struct{}), client: m.client}
		s.auth = newSignIn(spec, opts, name, logger)
		if len(spec.Roots) > 0 {
			// Only a server given roots is told the client has any:
			// server-filesystem replaces its directories with them.
			s.roots = spec.Roots
			s.client = m.newClient(spec.Roots)
		}
		if cat, ok := m.cache.load(spec); ok && (opts.Lazy || opts.Background) {
			// The catalogue is known before the server runs.
			s.cat, s.cached, s.cacheFP = cat, cat.raw, cat.fingerprint()
			s.setTools(cat.tools, cat.raw)
			s.setLists(cat)
			if opts.Lazy {
				s.state = StateIdle
			}
		}
		switch {
		case spec.Disabled:
			s.state = StateDisabled
		case spec.Err != nil:
			s.fail(&StartError{Server: spec.Name, Message: spec.Err.Error(), Err: spec.Err})
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
	if m.cache != nil {
		m.rebuildLocked()
	}
	return m
}

func positive[T int | time.Duration](v, def T) T {
	if v > 0 {
		return v
	}
	return def
}

// Start connects to every enabled server concurrently, each bounded by its
// StartTimeout (config.DefaultStartTimeout when zero), and returns when all
// have finished or given up. It returns one *StartError per server that
// failed; the others are ready. A server that exited during its start is
// started again after a moment, and Start waits for that second start: a
// server that fails the same way twice is not retried further, and its
// error says so; one that fails otherwise is restarted in the background,
// as after any exit. Start may be called once.
//
// With Options.Lazy, a server whose tool list is cached is not started:
// it is idle, its tools are offered from the cache, and it starts when one
// of them is first called; and Start waits for the others no longer than
// Options.StartWait: the servers still starting then go on in the
// background, and are not among the errors. With Options.Background,
// Start starts every server and returns at once; calls wait for their
// server, and WaitTools waits for the servers whose tools are not known
// yet.
func (m *Manager) Start(ctx context.Context) []error {
	caller := ctx
	if m.background || m.startWait != 0 {
		// The starts may outlive the caller's context; Close ends them.
		ctx = context.WithoutCancel(ctx)
	}
	m.mu.Lock()
	if m.started || m.closed {
		m.mu.Unlock()
		return []error{errors.New("servers: Start called twice or after Close")}
	}
	m.started = true
	results := make([]*StartError, len(m.servers))
	// finished receives the index of each start as it ends, its result
	// written.
	finished := make(chan int, len(m.servers))
	onStart := m.onStart
	if onStart == nil {
		onStart = func(StartNews) {}
	}
	var starting []string
	for _, s := range m.servers {
		if s.startErr == nil && s.state == StateStarting {
			starting = append(starting, s.spec.Name)
		}
	}
	if len(starting) > 0 {
		onStart(StartNews{Starting: starting})
	}
	launched := 0
	now := time.Now()
	// done marks the results that may be read: those written here, and
	// those of the starts that finished within the wait.
	done := make([]bool, len(m.servers))
	for i, s := range m.servers {
		switch {
		case s.startErr != nil:
			results[i], done[i] = s.startErr, true
		case s.state == StateStarting:
			epoch := s.epoch
			s.waitFrom = now
			m.work.Add(1)
			launched++
			go func() {
				defer m.work.Done()
				r := m.bringUp(ctx, s, epoch, true)
				if r != nil {
					r = m.secondStart(s, r)
				}
				news := StartNews{Server: s.spec.Name}
				if r != nil {
					news.Err = r
				}
				onStart(news)
				results[i] = r
				finished <- i
			}()
		}
	}
	m.mu.Unlock()
	if m.background || m.startWait < 0 {
		return nil
	}
	var (
		timeout   <-chan time.Time
		cancelled <-chan struct{}
	)
	if m.startWait != 0 {
		// Detached above: the caller's end no longer ends the starts.
		cancelled = caller.Done()
	}
	if m.startWait > 0 {
		t := time.NewTimer(m.startWait)
		defer t.Stop()
		timeout = t.C
	}
wait:
	for range launched {
		select {
		case i := <-finished:
			done[i] = true
		case <-timeout:
			break wait
		case <-cancelled:
			break wait
		}
	}

	var errs []error
	for i, r := range results {
		if done[i] && r != nil {
			errs = append(errs, r)
		}
	}
	return errs
}

// secondStart follows a first start that failed with first: when the
// server is to be started again, it waits for that second start and
// returns its outcome (nil when the server is ready; the error of a server
// that failed the same way twice says it is not retried). Otherwise, or
// when the manager closes, it returns first.
func (m *Manager) secondStart(s *server, first *StartError) *StartError {
	for {
		m.mu.RLock()
		state, changed, last, worked := s.state, s.changed, s.lastErr, s.everReady
		m.mu.RUnlock()
		switch {
		case worked:
			return nil
		case last != nil && last != first:
			return last
		case state != StateRestarting:
			return first
		}
		select {
		case <-changed:
		case <-m.life.Done():
			return first
		}
	}
}

// Tools returns the tools the model may call, as it sees them, in config
// order and then each server's own order: those of ready servers and of
// servers that are restarting (a call waits for them). The Parameters
// bytes are shared between calls: callers must not modify them.
func (m *Manager) Tools() []provider.Tool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var tools []provider.Tool
	for _, s := range m.servers {
		if s.offered() {
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

// Status returns a snapshot of every configured server, in config order.
func (m *Manager) Status() []ServerStatus {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make([]ServerStatus, 0, len(m.servers))
	for _, s := range m.servers {
		st := ServerStatus{
			Name:      s.spec.Name,
			State:     s.state,
			Err:       s.err,
			Transport: s.transport(),
			ToolCount: s.offeredCount(),
			Cached:    s.cached != nil,
			PID:       s.pid,
			StartedAt: s.startedAt,
			Ready:     s.ready,
			Restarts:  s.restartCount,
		}
		if s.state == StateRestarting {
			st.NextRestart = s.nextRestart
		}
		out = append(out, st)
	}
	return out
}

// Logs returns the last lines of a server's log, oldest first: what a
// stdio server wrote to stderr, and the lines of its stdout that were not
// JSON-RPC (prefixed "stdout: "). Nil for an unknown server.
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
// most, until their processes (and the processes those started) are gone:
// each stdio server gets its stdin closed, then SIGTERM after a second,
// then SIGKILL two seconds later, as a process group; an HTTP session is
// ended with DELETE. Starts in flight and pending restarts are cancelled.
// Close is idempotent.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	var conns []*conn
	for _, s := range m.servers {
		s.epoch++
		if s.cur != nil {
			conns = append(conns, s.cur)
			s.cur = nil
		}
		if s.state != StateFailed && s.state != StateDisabled {
			s.state, s.err = StateClosed, nil
		}
		s.notifyLocked()
	}
	m.mu.Unlock()

	m.cancelLife()
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Go(func() { c.stop(errClosed) })
	}
	wg.Wait()
	m.work.Wait() // starts in flight clean up after themselves
	return nil
}

// rebuildLocked recomputes the exposed names of every server whose tools
// are known. Names depend only on the configured order and the tool lists,
// never on which server answered first. The caller holds m.mu.
func (m *Manager) rebuildLocked() {
	var refs []toolRef
	var owners []*server
	var defs []tool.Def
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
		owners[i].exposed = append(owners[i].exposed, providerTool(name, defs[i]))
	}

	// Prompts are named as tools are, in a table of their own.
	refs, owners = refs[:0], owners[:0]
	for _, s := range m.servers {
		for _, p := range s.prompts {
			refs = append(refs, toolRef{Server: s.spec.Name, Tool: p.Name})
			owners = append(owners, s)
		}
		s.promptNames = nil
	}
	names = exposedNames(refs)
	m.promptTable = make(map[string]toolRef, len(names))
	for i, name := range names {
		m.promptTable[name] = refs[i]
		owners[i].promptNames = append(owners[i].promptNames, name)
	}
}

// WaitStarting waits until no server is starting without its tools known
// (a server started in the background whose list was not cached), so that
// a model call offers every tool; servers whose tools are known are not
// waited for. It returns early when ctx ends.
func (m *Manager) WaitStarting(ctx context.Context) {
	for {
		m.mu.RLock()
		var wait chan struct{}
		for _, s := range m.servers {
			if s.state == StateStarting && len(s.tools) == 0 && s.cached == nil {
				wait = s.changed
				break
			}
		}
		m.mu.RUnlock()
		if wait == nil {
			return
		}
		select {
		case <-wait:
		case <-ctx.Done():
			return
		}
	}
}

// pendingTools reports whether s is on its way with its tools not known
// yet: starting with no cached list, or started again after a first start
// that failed. The caller holds m.mu.
func (s *server) pendingTools() bool {
	if len(s.tools) > 0 || s.cached != nil {
		return false
	}
	return s.state == StateStarting || s.state == StateRestarting && !s.everReady
}

// WaitTools waits for the servers whose tools are not known yet and that
// are on their way (starting, or started again after a first start that
// failed), each for at most wait from when its start began: it returns
// once none is left that it may still wait for, or when ctx ends, and
// names the servers it goes without (still on their way), in config
// order. A negative wait waits not at all. news, when not nil, hears of
// the wait as Start's OnStart does: first the servers waited for
// (Starting), then each one's outcome as it comes; it hears nothing when
// there is nothing to wait for.
func (m *Manager) WaitTools(ctx context.Context, wait time.Duration, news func(StartNews)) []string {
	if news == nil {
		news = func(StartNews) {}
	}
	var waited []*server
	told := map[*server]bool{}
	for {
		now := time.Now()
		var (
			// cases are what ends this round of the wait: a change of
			// any server waited for, the earliest end of a wait, ctx.
			cases    []reflect.SelectCase
			earliest time.Time
			left     []string
			starting []string
			outcomes []StartNews
		)
		m.mu.RLock()
		for _, s := range waited {
			if told[s] || s.pendingTools() {
				continue
			}
			told[s] = true
			n := StartNews{Server: s.spec.Name}
			if !s.everReady && s.lastErr != nil {
				n.Err = s.lastErr
			}
			outcomes = append(outcomes, n)
		}
		for _, s := range m.servers {
			if !s.pendingTools() {
				continue
			}
			from := s.waitFrom
			if from.IsZero() {
				from = now
			}
			until := from.Add(wait)
			if wait < 0 || !until.After(now) || ctx.Err() != nil {
				left = append(left, s.spec.Name)
				continue
			}
			cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(s.changed)})
			if earliest.IsZero() || until.Before(earliest) {
				earliest = until
			}
			if !slices.Contains(waited, s) {
				waited = append(waited, s)
				starting = append(starting, s.spec.Name)
			}
		}
		m.mu.RUnlock()
		for _, n := range outcomes {
			news(n)
		}
		if len(starting) > 0 {
			news(StartNews{Starting: starting})
		}
		if len(cases) == 0 {
			return left
		}
		t := time.NewTimer(earliest.Sub(now))
		cases = append(cases,
			reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(t.C)},
			reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ctx.Done())})
		reflect.Select(cases)
		t.Stop()
	}
}
