package servers

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/servers/oauth"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/tool"
)

const (
	// stderrDrain bounds the wait for a dead server's last stderr lines.
	stderrDrain = 500 * time.Millisecond
	// exitNoticeDelay is how long a failed call waits for the exit watcher
	// to learn why the connection ended.
	exitNoticeDelay = 2 * time.Second
	// closeBound caps stopping one connection: the stdio shutdown sequence
	// plus a margin; an HTTP DELETE is bounded by the SDK.
	closeBound = stdinGrace + termGrace + killGrace + time.Second
)

// Why a connection was stopped on purpose; calls in flight on it fail with
// these (worded per server by stopReason).
var (
	errClosed    = errors.New("mcphost is shutting down")
	errDisabled  = errors.New("disabled")
	errRestarted = errors.New("restarted")
)

// server is one configured server. Fields below the line are guarded by
// the manager's mu.
type server struct {
	spec config.ServerSpec
	logs *lineRing
	// auth is the OAuth sign-in of an http or sse server, shared by its
	// connections; nil when the server cannot sign in.
	auth *oauth.Client

	// -----
	state    State
	err      error       // why the server failed or is restarting, worded for the user
	startErr *StartError // the failure of a start, when it was one
	tools    []tool.Def  // "tools known": the filtered tool list
	exposed  []provider.Tool
	// cat is everything the server lists, as last listed or cached; nil
	// until known. prompts, resources and templates are its lists in
	// neutral form, promptNames the prompts' exposed names.
	cat         *catalog
	prompts     []tool.Prompt
	promptNames []string
	resources   []tool.ResourceDef
	templates   []tool.ResourceTemplate
	// dirty are the lists the server said changed, not yet listed again;
	// refreshing is set while they are listed.
	dirty      listKind
	refreshing bool
	// news are the changes listed but not yet told to OnChange, merged
	// per list; telling is set while they are told (see tell).
	news    []Change
	telling bool
	// cacheFP is the fingerprint of what the cache holds for the server.
	cacheFP string
	// client is the go-sdk client the server connects with: the manager's
	// own, or one that offers this server its roots.
	client *mcp.Client
	roots  []string
	cur    *conn // "server ready": the live connection, nil otherwise
	// via is the transport the last connection used: an http spec with
	// FallbackSSE may have connected over SSE.
	via config.Transport
	// cached is the cached list the tools came from, while the server
	// has not confirmed it; nil once it has listed its tools itself.
	cached *rawTools
	// changed is closed (and replaced) at every change of state, for calls
	// waiting for the server to be ready.
	changed chan struct{}
	// epoch grows with every deliberate change (Disable, Enable, Restart,
	// Close); a start or restart begun under an older epoch is void.
	epoch        uint64
	restarts     []time.Time // automatic restarts within restartWindow
	restartCount int
	nextRestart  time.Time
	pid          int
	startedAt    time.Time
	ready        time.Duration
	// waitFrom is when the server's current start was decided: a model
	// call waits for a server whose tools are not known until waitFrom
	// plus the wait (see WaitTools).
	waitFrom time.Time
	// everReady is set once the server has been ready in this run: only
	// then does it get restarts with back-off after failed starts; before,
	// a start that fails as the one before it did is not retried.
	everReady bool
	// attempts counts the finished start attempts, and lastFail is how
	// the last one failed (its message with its numbers blanked, so a
	// pid or a time does not make two failures differ); nil, and empty,
	// after a success.
	attempts int
	lastErr  *StartError
	lastFail string
}

// transport is the transport of the last connection, or the configured
// one. The caller holds the manager's mu.
func (s *server) transport() config.Transport {
	if s.via != "" {
		return s.via
	}
	return s.configured()
}

// configured is the transport the spec asks for; s.spec never changes, so
// no lock is needed.
func (s *server) configured() config.Transport {
	if s.spec.Transport == "" {
		return config.TransportStdio
	}
	return s.spec.Transport
}

// offered reports whether the server's tools are offered to the model.
// The caller holds the manager's mu.
func (s *server) offered() bool {
	switch s.state {
	case StateReady, StateRestarting, StateStarting, StateIdle:
		return true
	}
	return false
}

// offeredCount is how many tools the server offers the model. The caller
// holds the manager's mu.
func (s *server) offeredCount() int {
	if !s.offered() {
		return 0
	}
	return len(s.exposed)
}

// setTools makes tools, as the server listed them (raw: as it sent them),
// the server's known tools, filtered by the spec. The caller holds the
// manager's mu or owns s.
func (s *server) setTools(tools []*mcp.Tool, raw *rawTools) {
	s.tools = toDefs(filterTools(tools, s.spec.AllowedTools, s.spec.ExcludedTools))
	for i := range s.tools {
		if r := raw.get(s.tools[i].Name); r != nil {
			s.tools[i].Raw = r
			s.tools[i].TaskSupport = taskSupport(r)
		}
	}
}

// fail records a start failure; the caller holds the manager's mu or owns s.
func (s *server) fail(e *StartError) {
	s.state, s.err, s.startErr = StateFailed, e, e
}

// notifyLocked wakes the calls waiting for a change of state.
func (s *server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// conn is one connection to a server: one process of a stdio server, one
// session of an HTTP server. A restart makes a new conn; one that ended is
// never reused.
type conn struct {
	server string
	sess   *mcp.ClientSession
	proc   *proc // stdio only
	httpTr *http.Transport
	hdr    *headerTransport
	auth   *oauth.Client // the server's sign-in, for an HTTP server that has one
	// transport is the one this connection uses.
	transport config.Transport
	// logMark is where the server's log stood when this connection
	// began: what it wrote before is another process's.
	logMark int
	// raw keeps the tool definitions as the server sent them.
	raw *rawTools
	// life is the lifetime of the transport (HTTP streams, a builtin
	// server); it ends once the session is closed.
	life       context.Context
	cancelLife context.CancelFunc
	// calls ends the calls in flight when the connection is stopped on
	// purpose, so that closing the session does not wait for them.
	calls       context.Context
	cancelCalls context.CancelCauseFunc

	endOnce sync.Once
	ended   chan struct{} // closed once endErr is set
	endErr  error
	stopped sync.Once
	// forget, when set, drops the session from the manager's table once
	// the connection is released. It must not be called with the
	// manager's mu held.
	forget func()
}

func newConn(server string) *conn {
	c := &conn{server: server, ended: make(chan struct{})}
	c.life, c.cancelLife = context.WithCancel(context.Background())
	c.calls, c.cancelCalls = context.WithCancelCause(context.Background())
	return c
}

// end records why the connection ended; the first reason wins.
func (c *conn) end(err error) {
	c.endOnce.Do(func() {
		c.endErr = err
		close(c.ended)
	})
}

// awaitEnd waits up to d for the reason the connection ended, or returns
// nil if it has not ended.
func (c *conn) awaitEnd(d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c.ended:
		return c.endErr
	case <-t.C:
		return nil
	}
}

// stop ends the connection on purpose: calls in flight are cancelled (the
// server is told), the session is closed (the stdio shutdown sequence, or
// an HTTP DELETE) and whatever is left of the process tree is killed.
// Only the first call does anything; it returns within closeBound or so.
func (c *conn) stop(why error) {
	c.stopped.Do(func() {
		c.end(&kindError{kind: ErrServerUnavailable, msg: stopReason(c.server, why), err: why})
		c.cancelCalls(why)
		if c.sess != nil {
			done := make(chan struct{})
			go func() {
				_ = c.sess.Close()
				close(done)
			}()
			t := time.NewTimer(closeBound)
			select {
			case <-done:
			case <-t.C:
			}
			t.Stop()
		}
		c.release()
	})
}

// kill ends a connection at once, for a start that failed.
func (c *conn) kill() {
	c.stopped.Do(func() {
		if c.proc != nil {
			c.proc.killTree()
			c.proc.waitExit(killGrace)
		}
		if c.sess != nil {
			_ = c.sess.Close() // quick: the process is dead, no call is in flight
		}
		c.release()
	})
}

// finish releases a connection that ended by itself. Its calls in flight
// have failed already; cancelling them now could turn an answer that
// arrived just before the end into a cancellation.
func (c *conn) finish() {
	c.stopped.Do(c.release)
}

// release frees what is left: the process tree, the stderr reader, the
// transport's lifetime and idle HTTP connections.
func (c *conn) release() {
	if c.forget != nil {
		c.forget()
	}
	if c.proc != nil {
		c.proc.killTree() // the root is gone by now; this catches grandchildren
		c.proc.release()
		c.proc.waitStderr(stderrDrain)
	}
	c.cancelLife()
	if c.httpTr != nil {
		c.httpTr.CloseIdleConnections()
	}
}

func stopReason(server string, why error) string {
	switch why {
	case errDisabled:
		return fmt.Sprintf("server %q was disabled", server)
	case errRestarted:
		return fmt.Sprintf("server %q was restarted", server)
	default:
		return fmt.Sprintf("server %q was shut down: %v", server, why)
	}
}

// bringUp starts a new connection to s and publishes it as ready, or
// records why it could not. epoch is s.epoch when the start was decided;
// if it changed meanwhile (the server was disabled, restarted or closed)
// the new connection is dropped. With retry, a failure a restart can fix
// schedules one. The caller has registered with m.work.
func (m *Manager) bringUp(ctx context.Context, s *server, epoch uint64, retry bool) *StartError {
	timeout := startTimeout(s.spec)
	if s.auth != nil && s.auth.Forcing() {
		// A sign-in the user asked for waits for them in the browser.
		timeout = max(timeout, loginTimeout)
	}
	begin := time.Now()
	startCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	stopLife := context.AfterFunc(m.life, cancel) // Close cancels starts
	defer stopLife()

	m.mu.Lock()
	if s.epoch != epoch || m.closed {
		m.mu.Unlock()
		return s.voidStart()
	}
	s.startedAt = begin
	m.mu.Unlock()

	mark := s.logs.mark()
	c, cat, err := m.connect(startCtx, s)
	c.logMark = mark
	if err != nil {
		c.kill()
		serr, transient := s.startError(ctx, startCtx, m.life, timeout, c, err, mark)
		m.log.Debug("server failed to start", "server", s.spec.Name, "error", err)
		m.mu.Lock()
		defer m.mu.Unlock()
		if s.epoch != epoch || m.closed {
			return s.voidStart()
		}
		s.pid = 0
		// A server that never worked in this run and fails twice the same
		// way will fail so again: it is not retried further.
		same := transient && !s.everReady && s.lastFail != "" && s.lastFail == failureKey(serr.Message)
		s.lastFail = failureKey(serr.Message)
		if same {
			serr = &StartError{Server: serr.Server, Err: serr.Err, Message: notRetried(serr.Message)}
		}
		if !(retry && transient && !same && m.scheduleRestartLocked(s, serr)) {
			s.fail(serr)
		}
		s.attempts++
		s.lastErr = serr
		s.notifyLocked()
		return serr
	}

	m.mu.Lock()
	if s.epoch != epoch || m.closed {
		m.mu.Unlock()
		c.stop(errClosed)
		return s.voidStart()
	}
	if s.cached != nil && s.cacheFP != cat.fingerprint() {
		m.log.Debug("the server's catalogue changed since it was cached", "server", s.spec.Name)
	}
	s.cached = nil
	old := s.cat
	m.publishLocked(s, cat)
	s.cur, s.via = c, c.transport
	s.state, s.err, s.startErr = StateReady, nil, nil
	s.ready = time.Since(begin)
	s.everReady = true
	s.attempts++
	s.lastErr, s.lastFail = nil, ""
	if c.proc != nil {
		s.pid = c.proc.cmd.Process.Pid
	}
	// A list that changed while this start listed it is listed again.
	m.refreshLocked(s)
	s.notifyLocked()
	onChange := m.onChange
	m.mu.Unlock()
	m.log.Debug("server ready", "server", s.spec.Name, "tools", len(cat.tools), "prompts", len(cat.prompts), "resources", len(cat.resources), "after", time.Since(begin))
	if old != nil && onChange != nil {
		// A restart, or a start after the cache: what differs is news.
		for _, ch := range diffCatalog(s.spec.Name, old, cat) {
			onChange(ch)
		}
	}

	go m.watch(s, c)
	return nil
}

// notRetried words a start failure that came twice the same way: the
// note is a line of its own after the failure, so that the failure's
// first line (what the chat shows of it) still names what the server
// wrote.
func notRetried(msg string) string {
	return msg + "\n(it failed the same way twice, so it is not retried in this run)"
}

// failureKey is a start failure's message as compared with the next one's:
// its runs of digits blanked, so that a pid, a port picked at random or a
// time in the server's last words does not make the same failure differ.
func failureKey(msg string) string {
	var b strings.Builder
	digits := false
	for _, r := range msg {
		if r >= '0' && r <= '9' {
			if !digits {
				b.WriteByte('#')
			}
			digits = true
			continue
		}
		digits = false
		b.WriteRune(r)
	}
	return b.String()
}

// voidStart is the result of a start made void by a deliberate change.
func (s *server) voidStart() *StartError {
	return &StartError{Server: s.spec.Name, Message: fmt.Sprintf("server %q: start cancelled", s.spec.Name), Err: context.Canceled}
}

// connect opens the transport, initializes the session and lists all tools
// (following pagination). The conn it returns, even with an error, must be
// stopped or killed.
func (m *Manager) connect(ctx context.Context, s *server) (*conn, *catalog, error) {
	c := newConn(s.spec.Name)
	c.raw = newRawTools()
	var transport mcp.Transport
	stopKill := func() bool { return true }
	defer func() { stopKill() }()
	switch s.configured() {
	case config.TransportStdio:
		t, err := newStdio(s.spec, s.logs, m.log, m.maxMessage)
		if err != nil {
			return c, nil, err
		}
		c.proc = t.proc
		// A start deadline kills the process, so a server that never
		// answers cannot hold Connect past it.
		stopKill = context.AfterFunc(ctx, t.proc.killTree)
		transport = t
	case config.TransportHTTP, config.TransportSSE:
		client, hdr, base := newHTTPClient(s.spec.URL, s.spec.Headers, m.log.With("server", s.spec.Name), c.raw, s.auth, m.maxMessage)
		c.hdr, c.httpTr, c.auth = hdr, base, s.auth
		transport = newHTTPTransport(s.spec, client, c.life, m.maxMessage)
	case config.TransportBuiltin:
		t, err := m.builtinTransport(c.life, s.spec)
		if err != nil {
			return c, nil, err
		}
		transport = t
	default:
		return c, nil, fmt.Errorf("unknown transport %q", s.spec.Transport)
	}

	c.transport = s.configured()
	if c.transport == config.TransportStdio || c.transport == config.TransportBuiltin {
		// HTTP transports are tapped below the SDK, in their http.Client:
		// the SDK's own HTTP connection needs to see what the session
		// does (a wrapper would hide it, and with it the stream servers
		// send their requests on).
		transport = &tapTransport{inner: transport, raw: c.raw}
	}
	m.mu.RLock()
	mcpClient := s.client
	m.mu.RUnlock()
	sess, err := mcpClient.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: protocolVersion})
	if err != nil && s.spec.FallbackSSE && c.transport == config.TransportHTTP && sseMayWork(ctx, c, err) {
		// The URL answered, but not as Streamable HTTP: it may be a
		// legacy SSE server.
		m.log.Debug("trying SSE after Streamable HTTP failed", "server", s.spec.Name, "url", shownURL(s.spec.URL), "error", err)
		spec := s.spec
		spec.Transport = config.TransportSSE
		client, hdr, base := newHTTPClient(spec.URL, spec.Headers, m.log.With("server", spec.Name), c.raw, s.auth, m.maxMessage)
		c.hdr, c.httpTr, c.transport = hdr, base, config.TransportSSE
		var sseErr error
		if sess, sseErr = mcpClient.Connect(ctx, newHTTPTransport(spec, client, c.life, m.maxMessage), &mcp.ClientSessionOptions{ProtocolVersion: protocolVersion}); sseErr != nil {
			return c, nil, fmt.Errorf("cannot connect to %s as Streamable HTTP (%v) nor as SSE (%w)", shownURL(s.spec.URL), err, sseErr)
		}
		err = nil
	}
	if err != nil {
		return c, nil, fmt.Errorf("initialize: %w", err)
	}
	c.sess = sess
	m.mu.Lock()
	m.sessions[sess] = s
	m.mu.Unlock()
	c.forget = func() {
		m.mu.Lock()
		delete(m.sessions, sess)
		for k := range m.urlWaits {
			if k.sess == sess {
				delete(m.urlWaits, k)
			}
		}
		m.mu.Unlock()
	}
	init := sess.InitializeResult()
	cat := &catalog{offers: offersOf(init.Capabilities)}
	if init.ServerInfo != nil {
		cat.info = *init.ServerInfo
	}
	if cat.offers.Logging {
		m.setLogLevel(ctx, s, sess)
	}
	if err := m.listCatalog(ctx, c, listTools|listPrompts|listResources, cat); err != nil {
		return c, nil, err
	}
	if !stopKill() || ctx.Err() != nil {
		// The deadline fired after the last page: the process is being
		// killed, so the session is unusable.
		return c, nil, context.Cause(ctx)
	}
	return c, cat, nil
}

// sseMayWork reports whether a failed Streamable HTTP start is worth
// trying again as SSE: not when nothing listens at the URL or it refused
// the credentials, where SSE fails the same way.
func sseMayWork(ctx context.Context, c *conn, err error) bool {
	var dial *net.OpError
	return ctx.Err() == nil && !(errors.As(err, &dial) && dial.Op == "dial") && (c.hdr == nil || !c.hdr.authFailed())
}

// builtinTransport starts an in-process server for the life of the
// connection and returns the client end of an in-memory transport to it.
func (m *Manager) builtinTransport(life context.Context, spec config.ServerSpec) (mcp.Transport, error) {
	if m.builtin == nil {
		return nil, fmt.Errorf("no built-in server %q in this build", spec.Builtin)
	}
	srv, err := m.builtin(life, spec)
	if err != nil {
		return nil, err
	}
	clientEnd, serverEnd := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(life, serverEnd, nil); err != nil {
		return nil, fmt.Errorf("connecting to built-in server %q: %w", spec.Builtin, err)
	}
	return clientEnd, nil
}

// startError words a start failure for the user, and says whether it is
// transient: the server crashed or could not be reached, which a restart
// may fix, as opposed to a wrong command, credentials or a hang.
//
// What the server wrote during the attempt (after mark in its log) is
// quoted, a few telling lines of it: the cause is often in the first error
// line, not the last line.
func (s *server) startError(ctx, startCtx, life context.Context, timeout time.Duration, c *conn, err error, mark int) (*StartError, bool) {
	name := s.spec.Name
	e := &StartError{Server: name, Err: err}
	transient := false
	wrote := func() []string {
		if c.proc != nil {
			c.proc.waitStderr(stderrDrain)
		}
		return stderrExcerpt(s.logs.since(mark))
	}
	sie := signInProblem(c, err)
	switch {
	case errors.Is(err, errCommandNotFound):
		e.Message = fmt.Sprintf("server %q failed to start: command %q not found", name, s.spec.Command)
	case ctx.Err() != nil || life.Err() != nil:
		e.Message = fmt.Sprintf("server %q: start cancelled", name)
	case c.hdr != nil && c.hdr.bound.tripped():
		e.Message = c.hdr.bound.tooLarge(name)
	case errors.Is(startCtx.Err(), context.DeadlineExceeded):
		e.Message = fmt.Sprintf("server %q did not start within %s", name, timeout)
		if lines := wrote(); len(lines) > 0 {
			e.Message += "; it wrote:" + quoted(lines)
		}
		e.Message += fmt.Sprintf("\n(its whole log: run with --debug, or /mcp logs %s in the chat; a slow server gets longer with \"timeout\": \"2m\" in its entry)", name)
	case c.proc != nil && (c.proc.exitedNormally() || connLost(err)):
		if lines := wrote(); len(lines) > 0 {
			status := ""
			if st := c.proc.exitStatus(); st != "" {
				status = " (" + st + ")"
			}
			e.Message = fmt.Sprintf("server %q exited during start%s; it wrote:%s", name, status, quoted(lines))
		} else {
			e.Message = fmt.Sprintf("server %q exited during start: %s", name, s.lastWords(c, err))
		}
		transient = true
	case sie != nil:
		e.Message = signInMessage(sie)
		e.Err = fmt.Errorf("%w: %w", ErrAuth, sie)
	case c.hdr != nil && c.hdr.authFailed():
		e.Message = authMessage(s.spec, c.hdr)
		e.Err = fmt.Errorf("%w: %w", ErrAuth, err)
	case c.hdr != nil:
		cause := netCause(err)
		if cause == "" {
			cause = c.hdr.lastFailure()
		}
		if cause == "" {
			cause = err.Error()
		}
		e.Message = fmt.Sprintf("server %q: cannot connect to %s: %s", name, shownURL(s.spec.URL), cause)
		transient = true
	default:
		e.Message = fmt.Sprintf("server %q failed to start: %v", name, err)
	}
	return e, transient
}

// authMessage words a refusal, without the credentials' values: a 401
// refused the credentials; a 403 refused the access, which other
// credentials may not change, so it is not called a credentials problem.
// The server's own reason, when it gave one, is quoted.
func authMessage(spec config.ServerSpec, hdr *headerTransport) string {
	where := "its headers"
	if spec.Source != "" {
		where += " in " + spec.Source
	}
	said := ""
	if reason := hdr.lastReason(); reason != "" {
		said = fmt.Sprintf(" (the server said: %s)", reason)
	}
	if hdr.forbidden() {
		why := "the account or key in " + where + " may lack a permission the server asks for"
		if len(spec.Headers) == 0 {
			why = "it may need credentials, which go in " + where
		}
		return fmt.Sprintf("server %q: access forbidden (%s) at %s%s: the server refused access; %s", spec.Name, hdr.lastFailure(), shownURL(spec.URL), said, why)
	}
	return fmt.Sprintf("server %q: authentication failed (%s) at %s: check the credentials in %s%s", spec.Name, hdr.lastFailure(), shownURL(spec.URL), where, said)
}

// lastWords is the best one-line account of why a stdio server ended: its
// last stderr line, else its exit status, else the error we saw.
func (s *server) lastWords(c *conn, err error) string {
	if line := s.logs.lastExcept(junkPrefix); line != "" {
		return line
	}
	if c.proc != nil {
		if st := c.proc.exitStatus(); st != "" {
			return st
		}
	}
	if err == nil {
		return "connection closed"
	}
	return err.Error()
}

// endMessage says how a stdio server that was running ended: how its
// process ended first (an exit status or the signal that killed it), then
// its last stderr lines; not only its last line, which may be any log.
// It is one line: it is a call's error too.
func (s *server) endMessage(c *conn, err error) string {
	how := fmt.Sprintf("server %q %s", s.spec.Name, c.proc.ending())
	if lines := endExcerpt(s.logs.since(c.logMark)); len(lines) > 0 {
		return how + "; its last stderr lines: " + inline(lines)
	}
	if c.proc.exitStatus() != "" {
		return how
	}
	return how + ": " + s.lastWords(c, err)
}

// watch waits for the session to end. Unless we ended it, the server died:
// its process tree is cleaned up and it is restarted, or marked failed
// once it has used up its restarts.
func (m *Manager) watch(s *server, c *conn) {
	werr := c.sess.Wait()
	m.mu.RLock()
	mine := s.cur == c
	m.mu.RUnlock()
	if !mine {
		return // stopped on purpose; stop did the rest
	}
	var msg string
	kind := ErrServerUnavailable
	switch {
	case c.proc != nil:
		// The SDK closed stdin when stdout ended; give the process its
		// moment to exit so its exit status and last words are known.
		c.proc.waitExit(stdinGrace)
		c.proc.waitStderr(stderrDrain)
		msg = s.endMessage(c, werr)
	case c.hdr != nil && c.hdr.bound.tripped():
		msg = c.hdr.bound.tooLarge(s.spec.Name)
	case c.hdr != nil && c.hdr.authFailed():
		msg, kind = authMessage(s.spec, c.hdr), ErrAuth
	case errors.Is(werr, mcp.ErrSessionMissing):
		msg = fmt.Sprintf("server %q lost the session", s.spec.Name)
	default:
		why := "connection closed"
		if werr != nil {
			why = werr.Error()
		}
		msg = fmt.Sprintf("server %q disconnected: %s", s.spec.Name, why)
	}
	endErr := &kindError{kind: kind, msg: msg, err: werr}

	m.mu.Lock()
	if s.cur != c {
		m.mu.Unlock()
		return
	}
	s.cur, s.pid = nil, 0
	restarting := kind != ErrAuth && m.scheduleRestartLocked(s, endErr)
	if !restarting {
		s.state, s.err = StateFailed, endErr
		if kind != ErrAuth && s.spec.MaxRestarts >= 0 {
			s.err = &kindError{kind: kind, err: werr,
				msg: fmt.Sprintf("%s (not restarted again: %d restarts within a minute)", msg, len(s.restarts))}
		}
	}
	s.notifyLocked()
	m.mu.Unlock()
	m.log.Debug("server ended", "server", s.spec.Name, "error", msg, "restarting", restarting)
	// The state is settled before calls learn of the end, so a call made
	// after this one failed sees the restart.
	c.end(endErr)
	c.finish()
}

// scheduleRestartLocked arranges for s to be started again after a delay
// that doubles with each restart within a minute, unless it has had its
// spec's share of restarts in that minute. It reports whether a restart
// was scheduled. The caller holds m.mu.
func (m *Manager) scheduleRestartLocked(s *server, why error) bool {
	limit := s.spec.MaxRestarts
	if limit == 0 {
		limit = config.DefaultMaxRestarts
	}
	if limit < 0 || m.closed {
		return false
	}
	now := time.Now()
	kept := s.restarts[:0]
	for _, t := range s.restarts {
		if now.Sub(t) < restartWindow {
			kept = append(kept, t)
		}
	}
	s.restarts = kept
	if len(s.restarts) >= limit {
		return false
	}
	delay := min(m.restartDelay<<len(s.restarts), maxRestartDelay)
	s.restarts = append(s.restarts, now)
	s.restartCount++
	s.state, s.err, s.nextRestart = StateRestarting, why, now.Add(delay)
	epoch := s.epoch
	m.work.Add(1) // not closed, checked above
	m.log.Debug("restarting server", "server", s.spec.Name, "in", delay, "restart", s.restartCount, "why", why)
	go func() {
		defer m.work.Done()
		t := time.NewTimer(delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-m.life.Done():
			return
		}
		m.bringUp(m.life, s, epoch, true)
	}()
	return true
}
