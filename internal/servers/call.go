package servers

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/sysproc"
	"github.com/mcphost/mcphost/tool"
)

// errCallTimeout is the cause of a call cancelled by its tool timeout
// (silence), errCallTotalTimeout by its total timeout.
var (
	errCallTimeout      = errors.New("tool timeout")
	errCallTotalTimeout = errors.New("tool total timeout")
)

// errSendAgain marks a call the server never saw, which Call may repeat.
var errSendAgain = errors.New("the call did not reach the server")

// notSent is the failure of a call the server never saw: Call sends it
// again, once, when the server is back.
type notSent struct{ err error }

func (e *notSent) Error() string        { return e.err.Error() }
func (e *notSent) Unwrap() error        { return e.err }
func (e *notSent) Is(target error) bool { return target == errSendAgain }

// Call calls the tool exposed as name. A tool that reports failure is not
// an error here: it is a result with IsError set. Text beyond the server's
// MaxResultBytes is cut, with a note saying so: a flood guard for memory
// and saved conversations (the runner fits results to the model's window).
//
// Every failure is an error worded for the model and the user, naming the
// server and tool:
//
//   - a name no tool has is unknown (ErrUnknownTool), but only once the
//     servers whose tools are known only from the cache have been asked
//     (see ConfirmCached): an upgraded server may have the tool;
//   - a server that is starting or restarting is waited for, ReadyWait at
//     most, then the call fails (ErrServerUnavailable);
//   - no answer and no progress within the server's ToolTimeout, or no
//     answer within its ToolTotalTimeout however much progress it
//     reported: the server is sent notifications/cancelled (tasks/cancel
//     for a task) and stays usable (ErrToolTimeout); the error quotes
//     what the server wrote to stderr during the call;
//   - the server exits during the call: "server X exited (exit status
//     3); its last stderr lines: …", or "was killed (signal: killed)"
//     (ErrServerUnavailable). It is restarted, but the call is not
//     repeated: the tool may have acted before the exit;
//   - an HTTP server lost the session (404): the session is initialised
//     again and the call sent once more, since the server never took it;
//   - the server is disabled, restarted or shut down during the call: the
//     call is cancelled and says so (ErrServerUnavailable).
//
// The call's progress, and the status of a call that runs as an MCP task,
// go to the tool.ProgressFunc of ctx (tool.WithProgress), never after Call
// returns. A call during which the server said its lists changed returns
// once they are listed again, so the model's next request offers the new
// tools. Structured content that does not match the tool's output schema
// is a warning (Options.Warn), not a failure.
//
// Cancelling ctx abandons the call and tells the server so.
func (m *Manager) Call(ctx context.Context, name string, args map[string]any) (*tool.Result, error) {
	m.mu.RLock()
	ref, ok := m.table[name]
	m.mu.RUnlock()
	if !ok {
		// The tool may be new in a server known only from the cache.
		if woke, err := m.ConfirmCached(ctx, name); err != nil {
			return nil, err
		} else if woke {
			m.mu.RLock()
			ref, ok = m.table[name]
			m.mu.RUnlock()
		}
	}
	m.mu.RLock()
	s := m.byName[ref.Server]
	m.mu.RUnlock()
	if !ok || s == nil {
		return nil, &kindError{kind: ErrUnknownTool, msg: fmt.Sprintf("unknown tool %q", name)}
	}
	for attempt := 0; ; attempt++ {
		// A call abandoned before it is sent is not sent at all: nor is
		// an idle server woken for it.
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c, err := m.readyConn(ctx, s)
		if err != nil {
			return nil, err
		}
		if err := m.stillHas(s, name, ref); err != nil {
			return nil, err
		}
		def, _ := m.toolDef(s, ref.Tool)
		res, err := m.callOn(ctx, s, c, def, args)
		if err == nil {
			// A call that changed the server's lists (it said so before
			// answering) returns once they are listed again.
			m.awaitLists(ctx, s)
			return toResult(res, s.spec.MaxResultBytes), nil
		}
		if attempt > 0 || !errors.Is(err, errSendAgain) {
			return nil, err
		}
		m.log.Debug("sending the call again after the session was lost", "server", s.spec.Name, "tool", ref.Tool)
	}
}

// readyConn returns the live connection of s, waiting up to m.readyWait
// while s is starting or restarting.
func (m *Manager) readyConn(ctx context.Context, s *server) (*conn, error) {
	var timeout <-chan time.Time
	wait := m.readyWait
	for {
		m.mu.RLock()
		state, c, serr, changed := s.state, s.cur, s.err, s.changed
		m.mu.RUnlock()
		name := s.spec.Name
		switch state {
		case StateReady:
			return c, nil
		case StateIdle:
			// Its tools were known from the cache; now it is needed. The
			// start is bounded by its own start timeout.
			m.wake(s)
			wait = max(wait, startTimeout(s.spec)+time.Second)
			continue
		case StateDisabled:
			return nil, &kindError{kind: ErrServerUnavailable, msg: fmt.Sprintf("server %q is disabled", name)}
		case StateClosed:
			return nil, &kindError{kind: ErrServerUnavailable, msg: fmt.Sprintf("server %q was shut down: %v", name, errClosed)}
		case StateFailed:
			if serr == nil {
				serr = fmt.Errorf("server %q failed", name)
			}
			return nil, &kindError{kind: ErrServerUnavailable, msg: serr.Error(), err: serr}
		}
		if state == StateStarting {
			// Its start is bounded by its own timeout (a slow npx server
			// may take tens of seconds), after which the state changes.
			wait = max(wait, startTimeout(s.spec)+time.Second)
		}
		if timeout == nil {
			t := time.NewTimer(wait)
			defer t.Stop()
			timeout = t.C
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, fmt.Errorf("server %q: waiting for it to start: %w", name, ctx.Err())
		case <-timeout:
			msg := fmt.Sprintf("server %q is still starting after %s; try again later", name, wait)
			if state == StateRestarting && serr != nil {
				msg = fmt.Sprintf("server %q is restarting after it failed (%v) and was not ready within %s; try again later", name, serr, m.readyWait)
			}
			return nil, &kindError{kind: ErrServerUnavailable, msg: msg, err: serr}
		}
	}
}

// callOn makes one call on connection c, bounded by the tool timeouts,
// and words its failure. The call carries a progress token: each
// notification about it (or each change of its task's status) goes to the
// ProgressFunc of ctx and starts the idle timeout afresh; the total
// timeout is never extended.
func (m *Manager) callOn(ctx context.Context, s *server, c *conn, def tool.Def, args map[string]any) (*mcp.CallToolResult, error) {
	idle, total := toolTimeout(s.spec), toolTotalTimeout(s.spec)
	if args == nil {
		args = map[string]any{} // not null on the wire
	}
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	idleTimer := time.AfterFunc(idle, func() { cancel(errCallTimeout) })
	defer idleTimer.Stop()
	totalTimer := time.AfterFunc(total, func() { cancel(errCallTotalTimeout) })
	defer totalTimer.Stop()
	stop := context.AfterFunc(c.calls, func() { cancel(context.Cause(c.calls)) })
	defer stop()
	mark := s.logs.mark()
	token, pc := m.progress.add(tool.ProgressOf(ctx), func() { idleTimer.Reset(idle) })
	defer m.progress.remove(token, pc)

	var (
		res *mcp.CallToolResult
		err error
	)
	if def.TaskSupport != "" {
		res, err = m.callTask(cctx, c, def.Name, args, token, pc)
	} else {
		params := &mcp.CallToolParams{Name: def.Name, Arguments: args}
		params.SetProgressToken(token)
		res, err = c.sess.CallTool(cctx, params)
	}
	if err == nil {
		m.checkStructured(s, def, res)
		return res, nil
	}
	name, tool := s.spec.Name, def.Name
	var wire *jsonrpc.Error
	sie := signInProblem(c, err)
	switch {
	case ctx.Err() != nil:
		return nil, fmt.Errorf("server %q: tool %q: %w", name, tool, ctx.Err())
	case errors.Is(context.Cause(cctx), errCallTimeout):
		m.log.Debug("tool call timed out", "server", name, "tool", tool, "timeout", idle)
		return nil, &kindError{kind: ErrToolTimeout, err: err,
			msg: fmt.Sprintf("server %q: tool %q did not answer within %s; the call was cancelled", name, tool, idle) +
				s.meanwhile(mark) + fmt.Sprintf(" (run with --debug to see the server's messages; a slow tool gets more time with \"toolTimeout\": \"5m\" in the entry of %q)", name)}
	case errors.Is(context.Cause(cctx), errCallTotalTimeout):
		m.log.Debug("tool call ran out of time", "server", name, "tool", tool, "total", total)
		return nil, &kindError{kind: ErrToolTimeout, err: err,
			msg: fmt.Sprintf("server %q: tool %q was still running after %s (its toolTotalTimeout); the call was cancelled", name, tool, total) +
				s.meanwhile(mark) + fmt.Sprintf(" (run with --debug to see the server's messages; a long tool gets more time with \"toolTotalTimeout\": \"30m\" in the entry of %q)", name)}
	case c.calls.Err() != nil:
		<-c.ended // stop records the reason before it cancels calls
		return nil, c.endErr
	case errors.Is(err, mcp.ErrSessionMissing), errors.Is(err, mcp.ErrConnectionClosed), sysproc.IsBrokenPipe(err):
		// The request never reached the server: the HTTP session was gone
		// (404), or the connection had ended before it was written. Once
		// the watcher has settled the server's state, Call can try again.
		endErr := c.awaitEnd(exitNoticeDelay)
		if endErr == nil {
			endErr = fmt.Errorf("server %q: calling tool %q: %w", name, tool, err)
		}
		return nil, &notSent{endErr}
	case sie != nil:
		return nil, &kindError{kind: ErrAuth, msg: signInMessage(sie), err: sie}
	case c.hdr != nil && c.hdr.authFailed():
		return nil, &kindError{kind: ErrAuth, msg: authMessage(s.spec, c.hdr), err: err}
	case connLost(err):
		if endErr := c.awaitEnd(exitNoticeDelay); endErr != nil {
			return nil, endErr
		}
	case errors.As(err, &wire):
		return nil, fmt.Errorf("server %q: tool %q failed: %s", name, tool, cleanLine(wire.Message))
	case c.hdr != nil && c.hdr.bound.tripped():
		// An event past the bound ended the HTTP session (a JSON answer
		// past it is a wire error, above).
		return nil, &kindError{kind: ErrServerUnavailable, msg: c.hdr.bound.tooLarge(name), err: err}
	}
	return nil, fmt.Errorf("server %q: calling tool %q: %w", name, tool, err)
}

// meanwhile quotes what a stdio server wrote to stderr since mark (the
// start of a call that got no answer): what it was doing instead; "" when
// it wrote nothing.
func (s *server) meanwhile(mark int) string {
	lines := endExcerpt(s.logs.since(mark))
	if len(lines) == 0 {
		return ""
	}
	return "; meanwhile it wrote: " + inline(lines)
}

// ConfirmCached is for a tool name that matches no tool: the tools of a
// server known only from the cache of an earlier run may have changed
// since (an upgrade the cache could not notice), so such servers are
// started, or waited for, and their lists taken from them. Which servers:
// when the name is "server__tool" and server names a server, that one
// alone, and none when its tools are live already (the tool is surely
// unknown); otherwise every server whose tools are only cached. It
// reports whether any server was asked, so that the caller looks the name
// up again. A server named by the name that cannot start is an error
// (the start's); others that fail are left out.
func (m *Manager) ConfirmCached(ctx context.Context, name string) (bool, error) {
	m.mu.RLock()
	var named, cached []*server
	prefix, _, hasPrefix := strings.Cut(name, separator)
	for _, s := range m.servers {
		if m.byName[s.spec.Name] != s {
			continue
		}
		if hasPrefix && sanitize(s.spec.Name) == prefix {
			named = append(named, s)
		}
	}
	pick := named
	if len(named) == 0 {
		pick = m.servers
	}
	for _, s := range pick {
		if s.cached != nil && s.offered() && m.byName[s.spec.Name] == s {
			cached = append(cached, s)
		}
	}
	m.mu.RUnlock()
	if len(cached) == 0 {
		return false, nil
	}
	m.log.Debug("unknown tool: asking the servers whose tools were cached", "tool", name, "servers", len(cached))
	errs := make([]error, len(cached))
	var wg sync.WaitGroup
	for i, s := range cached {
		wg.Go(func() {
			if _, errs[i] = m.readyConn(ctx, s); errs[i] == nil {
				m.awaitLists(ctx, s)
			}
		})
	}
	wg.Wait()
	if len(named) > 0 && len(cached) == 1 && errs[0] != nil {
		return false, errs[0]
	}
	return true, ctx.Err()
}

// wake starts an idle server, once: its tools were known from the cache
// and one of them was called. A failed start is not retried: the calls
// waiting for it fail with its error.
func (m *Manager) wake(s *server) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s.state != StateIdle || m.closed {
		return
	}
	s.state = StateStarting
	s.notifyLocked()
	epoch := s.epoch
	m.work.Add(1)
	go func() {
		defer m.work.Done()
		m.log.Debug("starting a server on its first call", "server", s.spec.Name)
		m.bringUp(m.life, s, epoch, false)
	}()
}

// stillHas checks, once the server runs, that the tool the call was made
// for is still the one the name stands for: a server whose live list
// differs from the cached one may have dropped or renamed it.
func (m *Manager) stillHas(s *server, name string, ref toolRef) error {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if now, ok := m.table[name]; ok && now == ref {
		return nil
	}
	var names []string
	for _, t := range s.exposed {
		names = append(names, t.Name)
	}
	return &kindError{kind: ErrUnknownTool, msg: fmt.Sprintf("server %q no longer has tool %q: its tools changed since they were cached; it now has %s",
		s.spec.Name, ref.Tool, strings.Join(names, ", "))}
}

// toolDef returns a server's tool by its own name; only its name is
// known when the server no longer lists it.
func (m *Manager) toolDef(s *server, name string) (tool.Def, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	for _, t := range s.tools {
		if t.Name == name {
			return t, true
		}
	}
	return tool.Def{Name: name}, false
}

// toolTimeout is how long a call to spec's tools may go without news.
func toolTimeout(spec config.ServerSpec) time.Duration {
	if spec.ToolTimeout > 0 {
		return spec.ToolTimeout
	}
	return config.DefaultToolTimeout
}

// toolTotalTimeout is how long a call to spec's tools may take in all.
func toolTotalTimeout(spec config.ServerSpec) time.Duration {
	total := spec.ToolTotalTimeout
	if total <= 0 {
		total = config.DefaultToolTotalTimeout
	}
	return max(total, toolTimeout(spec))
}

// startTimeout is how long a start of spec may take.
func startTimeout(spec config.ServerSpec) time.Duration {
	if spec.StartTimeout > 0 {
		return spec.StartTimeout
	}
	return config.DefaultStartTimeout
}
