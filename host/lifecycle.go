package host

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

// ErrClosed is returned, wrapped, by every method that reaches the model
// or the servers once Close has begun, and by the turns and calls that
// Close stopped. A conversation's history stays readable (History, Save).
var ErrClosed = errors.New("the host is closed")

// begin registers one piece of work (a turn, a tool call, a prompt
// fetched) and returns the context it must run under: ctx, also cancelled
// when Close begins. end must be called when the work is over. After
// Close has begun, begin returns an error matching ErrClosed.
func (h *Host) begin(ctx context.Context) (_ context.Context, end func(), _ error) {
	h.workMu.Lock()
	if h.closing {
		h.workMu.Unlock()
		return nil, nil, ErrClosed
	}
	h.work.Add(1)
	h.workMu.Unlock()
	ctx, cancel := context.WithCancelCause(ctx)
	unhook := context.AfterFunc(h.life, func() { cancel(ErrClosed) })
	return ctx, func() {
		unhook()
		cancel(nil)
		h.work.Done()
	}, nil
}

// closedErr is err as the caller sees it: work that failed because Close
// stopped it (not because the caller's own ctx ended) fails with
// ErrClosed. A nil err stays nil: work that finished is not undone.
func (h *Host) closedErr(caller context.Context, err error) error {
	if err == nil || errors.Is(err, ErrClosed) || caller.Err() != nil || h.life.Err() == nil {
		return err
	}
	return errStopped
}

// errStopped is the error of work that Close stopped. It does not match
// context.Canceled, which says the caller cancelled.
var errStopped = fmt.Errorf("%w: it stopped this while it ran", ErrClosed)

// guard runs f as one piece of work (see begin) and maps its error with
// closedErr, and to the host's own errors (hostError).
func guard[T any](h *Host, ctx context.Context, f func(ctx context.Context) (T, error)) (T, error) {
	work, end, err := h.begin(ctx)
	if err != nil {
		var zero T
		return zero, err
	}
	defer end()
	v, err := f(work)
	return v, hostError(h.closedErr(ctx, err))
}

// Close stops the Host. New work is refused at once with [ErrClosed];
// running turns and calls are cancelled (a turn then returns an error
// matching ErrClosed, or context.Canceled when its own context ended
// first) and waited for, so no model call and no tool call starts once
// Close has begun (a Provider, an Asker and the other callbacks must
// honour their context, or Close waits for them). Then every MCP
// server is shut down (stdin closed, then SIGTERM, then SIGKILL, each to
// the whole process group; an HTTP session is ended with DELETE), the
// audit log is closed and the engine's idle connections are closed.
// Close returns when the servers are down. It may be called more than
// once, and from several goroutines: each call returns when the Host is
// closed. It must not be called from a turn's own event callback or
// approval question, which would wait for that turn.
func (h *Host) Close() error {
	h.closeOnce.Do(func() {
		h.workMu.Lock()
		h.closing = true
		h.workMu.Unlock()
		h.stop(ErrClosed)
		h.work.Wait()
		if h.manager != nil {
			h.manager.Close()
		}
		if h.audit != nil {
			h.audit.Close()
		}
		if h.client != nil {
			h.client.CloseIdleConnections()
		}
	})
	return nil
}

// newHTTPClient is the Host's own client for its engines, on a transport
// of its own: Close can then close its idle connections without touching
// the program's other clients.
func newHTTPClient() *http.Client {
	return &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
}

// serverWork runs f, which only fails, as work of the Host (see guard).
func (h *Host) serverWork(ctx context.Context, f func(ctx context.Context) error) error {
	_, err := guard(h, ctx, func(ctx context.Context) (struct{}, error) { return struct{}{}, f(ctx) })
	return err
}
