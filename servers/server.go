package servers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/provider"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Shutdown bounds. A stdio server gets closeGrace to exit after its stdin
// closes (the SDK sends SIGTERM half-way); then its group is killed and
// closeKill more is allowed for the SDK to reap it.
const (
	closeGrace  = 2 * time.Second
	closeKill   = time.Second
	stderrDrain = 500 * time.Millisecond
	// exitNoticeDelay is how long a failed call waits for the exit watcher
	// to learn that the process ended.
	exitNoticeDelay = 2 * time.Second
)

// server is one configured server. Fields below the line are guarded by
// the manager's mu; the start goroutine and the exit watcher write them.
type server struct {
	spec config.ServerSpec
	logs *lineRing

	// set once by the start goroutine before the server becomes visible as
	// ready, read-only afterwards
	proc       *proc           // stdio only
	httpTr     *http.Transport // http and sse only
	httpHdr    *headerTransport
	cancelLife context.CancelFunc
	exited     chan struct{} // closed when the session ended on its own
	exitErr    error         // why it ended; written before exited closes
	// shutdownOnce makes teardown happen once, whoever asks first: a
	// failed start, the exit watcher or Close.
	shutdownOnce sync.Once

	// -----
	state     State
	err       error       // why the server failed, worded for the user
	startErr  *StartError // the same, when it happened during Start
	tools     []*mcp.Tool // "tools known": the filtered tool list
	exposed   []provider.Tool
	session   *mcp.ClientSession // "server ready": non-nil once callable
	pid       int
	startedAt time.Time
	ready     time.Duration
	closing   bool
}

func (s *server) transport() config.Transport {
	if s.spec.Transport == "" {
		return config.TransportStdio
	}
	return s.spec.Transport
}

// fail records a start failure; the caller holds the manager's mu or owns s.
func (s *server) fail(e *StartError) {
	s.state, s.err, s.startErr = StateFailed, e, e
}

// start connects one server, lists its tools and publishes it as ready,
// or records and returns why it could not.
func (m *Manager) start(ctx context.Context, s *server) *StartError {
	timeout := s.spec.StartTimeout
	if timeout <= 0 {
		timeout = config.DefaultStartTimeout
	}
	begin := time.Now()
	m.mu.Lock()
	s.startedAt = begin
	m.mu.Unlock()

	startCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	stop := context.AfterFunc(m.life, cancel) // Close cancels starts
	defer stop()
	// The server's own lifetime outlives the start deadline.
	life, cancelLife := context.WithCancel(m.life)

	sess, tools, err := m.connect(startCtx, s, life, cancelLife)
	if err != nil {
		s.shutdown(nil, false)
		serr := s.startError(ctx, startCtx, m.life, timeout, err)
		m.mu.Lock()
		s.fail(serr)
		s.pid = 0
		m.mu.Unlock()
		m.log.Debug("server failed to start", "server", s.spec.Name, "error", err)
		return serr
	}

	m.mu.Lock()
	s.tools = filterTools(tools, s.spec.AllowedTools, s.spec.ExcludedTools)
	s.session = sess
	s.state = StateReady
	s.ready = time.Since(begin)
	m.rebuildLocked()
	m.mu.Unlock()
	m.log.Debug("server ready", "server", s.spec.Name, "tools", len(tools), "after", time.Since(begin))

	go m.watch(s, sess)
	return nil
}

// connect opens the transport, initializes the session and lists all tools
// (following pagination). It fills in s.proc or s.httpTr for shutdown.
func (m *Manager) connect(ctx context.Context, s *server, life context.Context, cancelLife context.CancelFunc) (*mcp.ClientSession, []*mcp.Tool, error) {
	var transport mcp.Transport
	stopKill := func() bool { return true }
	defer func() { stopKill() }()
	switch s.transport() {
	case config.TransportStdio:
		t, err := newStdio(s.spec, s.logs, m.log)
		if err != nil {
			cancelLife()
			return nil, nil, err
		}
		// A start deadline kills the process, so a server that never
		// answers cannot hold Connect past it.
		stopKill = context.AfterFunc(ctx, t.proc.killGroup)
		m.mu.Lock()
		s.proc, s.cancelLife, s.exited = t.proc, cancelLife, make(chan struct{})
		m.mu.Unlock()
		transport = t
	case config.TransportHTTP, config.TransportSSE:
		client, ht, base := newHTTPClient(s.spec.Headers)
		m.mu.Lock()
		s.httpHdr, s.httpTr, s.cancelLife, s.exited = ht, base, cancelLife, make(chan struct{})
		m.mu.Unlock()
		transport = newHTTPTransport(s.spec, client, life)
	case config.TransportBuiltin:
		t, err := m.builtinTransport(life, s.spec)
		if err != nil {
			cancelLife()
			return nil, nil, err
		}
		m.mu.Lock()
		s.cancelLife, s.exited = cancelLife, make(chan struct{})
		m.mu.Unlock()
		transport = t
	default:
		cancelLife()
		return nil, nil, fmt.Errorf("unknown transport %q", s.spec.Transport)
	}

	sess, err := m.client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: protocolVersion})
	if err != nil {
		return nil, nil, fmt.Errorf("initialize: %w", err)
	}
	if s.proc != nil {
		m.mu.Lock()
		s.pid = s.proc.cmd.Process.Pid
		m.mu.Unlock()
	}
	var tools []*mcp.Tool
	for t, err := range sess.Tools(ctx, nil) {
		if err != nil {
			_ = sess.Close()
			return nil, nil, fmt.Errorf("listing tools: %w", err)
		}
		tools = append(tools, t)
	}
	if !stopKill() || ctx.Err() != nil {
		// The deadline fired after the last page: the process is being
		// killed, so the session is unusable.
		_ = sess.Close()
		return nil, nil, context.Cause(ctx)
	}
	return sess, tools, nil
}

// builtinTransport starts an in-process server for the life of the
// session and returns the client end of an in-memory transport to it.
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

// startError words a start failure for the user.
func (s *server) startError(ctx, startCtx, life context.Context, timeout time.Duration, err error) *StartError {
	name := s.spec.Name
	e := &StartError{Server: name, Err: err}
	switch {
	case errors.Is(err, errCommandNotFound):
		e.Message = fmt.Sprintf("server %q failed to start: command %q not found", name, s.spec.Command)
	case ctx.Err() != nil || life.Err() != nil:
		e.Message = fmt.Sprintf("server %q: start cancelled", name)
	case errors.Is(startCtx.Err(), context.DeadlineExceeded):
		e.Message = fmt.Sprintf("server %q did not start within %s", name, timeout)
	case s.proc != nil && (s.proc.exitedNormally() || connLost(err)):
		e.Message = fmt.Sprintf("server %q exited during start: %s", name, s.lastWords(err))
	case s.proc != nil:
		e.Message = fmt.Sprintf("server %q failed to start: %v", name, err)
	default:
		cause := netCause(err)
		if cause == "" && s.httpHdr != nil {
			cause = s.httpHdr.lastFailure()
		}
		if cause == "" {
			cause = err.Error()
		}
		e.Message = fmt.Sprintf("server %q: cannot connect to %s: %s", name, s.spec.URL, cause)
	}
	return e
}

// lastWords is the best one-line account of why a stdio server ended: its
// last stderr line, else its exit status, else the error we saw.
func (s *server) lastWords(err error) string {
	if line := s.logs.last(); line != "" {
		return line
	}
	if st := s.proc.exitStatus(); st != "" {
		return st
	}
	return err.Error()
}

// watch waits for the session to end. Unless we closed it, the server
// died: it becomes failed and its process group is cleaned up.
func (m *Manager) watch(s *server, sess *mcp.ClientSession) {
	werr := sess.Wait()
	m.mu.RLock()
	closing := s.closing
	m.mu.RUnlock()
	if closing {
		return
	}
	s.shutdown(sess, false)
	var msg string
	if s.proc != nil {
		if werr == nil {
			werr = errors.New(s.proc.exitStatus())
		}
		msg = fmt.Sprintf("server %q exited: %s", s.spec.Name, s.lastWords(werr))
	} else {
		if werr == nil {
			werr = errors.New("connection closed")
		}
		msg = fmt.Sprintf("server %q disconnected: %v", s.spec.Name, werr)
	}
	s.exitErr = &kindError{kind: ErrServerUnavailable, msg: msg, err: werr}
	m.mu.Lock()
	if !s.closing {
		s.state, s.err = StateFailed, s.exitErr
	}
	m.mu.Unlock()
	close(s.exited)
	m.log.Debug("server ended", "server", s.spec.Name, "error", werr)
}

// awaitExit waits up to d for the exit watcher and returns the server's
// failure, or nil if it is still alive.
func (s *server) awaitExit(d time.Duration) error {
	if s.exited == nil {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-s.exited:
		return s.exitErr // written before exited was closed
	case <-t.C:
		return nil
	}
}

// shutdown ends the session and, for stdio, the whole process group, in a
// few seconds at most. graceful lets the server exit on its own first (the
// SDK closes its stdin, then sends SIGTERM); otherwise the group is killed
// at once. Only the first call does anything; later ones wait for it.
func (s *server) shutdown(sess *mcp.ClientSession, graceful bool) {
	s.shutdownOnce.Do(func() {
		if s.proc != nil && !graceful {
			s.proc.killGroup()
		}
		if sess != nil {
			s.closeSession(sess)
		}
		if s.proc != nil {
			// The leader is gone by now; this catches grandchildren.
			s.proc.killGroup()
			s.proc.waitStderr(stderrDrain)
		}
		if s.cancelLife != nil {
			s.cancelLife()
		}
		if s.httpTr != nil {
			s.httpTr.CloseIdleConnections()
		}
	})
}

// closeSession closes sess, killing the process group when the server
// takes longer than closeGrace. An HTTP close that hangs is abandoned; the
// SDK bounds it on its own.
func (s *server) closeSession(sess *mcp.ClientSession) {
	done := make(chan struct{})
	go func() {
		_ = sess.Close()
		close(done)
	}()
	grace := time.NewTimer(closeGrace)
	defer grace.Stop()
	select {
	case <-done:
		return
	case <-grace.C:
	}
	if s.proc == nil {
		return
	}
	s.proc.killGroup()
	kill := time.NewTimer(closeKill)
	defer kill.Stop()
	select {
	case <-done:
	case <-kill.C:
	}
}
