package provider

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcphost/mcphost/internal/termtext"
)

// Defaults of [Limits]. A reply of 8 MiB is some two million tokens, far
// past any context window; five minutes of silence is longer than a large
// model takes to load. Half an hour for a whole call leaves room for the
// slowest setup in use: a local model on a CPU at a few tokens a second
// reads a long prompt for minutes, then writes a few thousand tokens for
// ten or twenty more; yet a model that sends a byte just before each idle
// timeout is stopped within the hour.
const (
	DefaultMaxReplyBytes = 8 << 20
	DefaultIdleTimeout   = 5 * time.Minute
	DefaultTimeout       = 30 * time.Minute
)

// Limits bound one model call, whatever the engine, so that a model (or
// an endpoint) that streams without end or stops answering cannot hold the
// run, or its memory, forever. Backends enforce them with a [Meter].
type Limits struct {
	// MaxReplyBytes caps the reply: its text, its thinking and the
	// arguments of its tool calls together. 0 means DefaultMaxReplyBytes.
	MaxReplyBytes int
	// IdleTimeout ends a call that receives nothing for this long, the
	// wait for the first piece included. 0 means DefaultIdleTimeout.
	IdleTimeout time.Duration
	// Timeout ends a call that takes longer than this in all, however
	// steadily the reply comes (retries included), so that a model that
	// keeps the idle timeout at bay with a byte now and then cannot hold
	// the run for ever. 0 means DefaultTimeout.
	Timeout time.Duration
}

func (l Limits) withDefaults() Limits {
	if l.MaxReplyBytes <= 0 {
		l.MaxReplyBytes = DefaultMaxReplyBytes
	}
	if l.IdleTimeout <= 0 {
		l.IdleTimeout = DefaultIdleTimeout
	}
	if l.Timeout <= 0 {
		l.Timeout = DefaultTimeout
	}
	return l
}

// The reasons a [Meter] ends a call, for errors.Is; the *[Error] returned
// has Kind ErrProvider.
var (
	ErrReplyTooLarge = errors.New("the model's reply is too large")
	ErrIdle          = errors.New("the model stopped answering")
	ErrTimeout       = errors.New("the model call took too long")
)

// Meter enforces [Limits] on one model call. Watch starts it with the
// context the call must use; the backend tells it of every piece of the
// reply it receives (Add), and once the call is over asks it (Err) whether
// a limit ended the call.
type Meter struct {
	limits Limits
	cancel context.CancelCauseFunc
	timer  *time.Timer // the idle timeout, reset by every piece
	total  *time.Timer // the timeout of the whole call

	mu     sync.Mutex
	bytes  int
	reason error // the limit that ended the call, if any
}

// Watch starts a [Meter] for one call under ctx. The returned context ends
// when a limit is passed; the call must use it. Stop must be called when
// the call is over.
func (l Limits) Watch(ctx context.Context) (context.Context, *Meter) {
	m := &Meter{limits: l.withDefaults()}
	ctx, m.cancel = context.WithCancelCause(ctx)
	m.timer = time.AfterFunc(m.limits.IdleTimeout, func() {
		m.end(&Error{Kind: ErrProvider, Err: ErrIdle, Message: fmt.Sprintf(
			"the model sent nothing for %s, so the call was stopped: is the engine overloaded or stuck? (a slower model may need a longer --model-idle-timeout)",
			m.limits.IdleTimeout)})
	})
	m.total = time.AfterFunc(m.limits.Timeout, func() {
		m.end(&Error{Kind: ErrProvider, Err: ErrTimeout, Message: fmt.Sprintf(
			"the model's call took longer than %s in all, so it was stopped: is the engine stuck, or too slow for this model? (--model-timeout sets the limit)",
			m.limits.Timeout)})
	})
	return ctx, m
}

// Add records that a piece of the reply arrived, n bytes of it counting
// toward MaxReplyBytes (0 for a piece that only shows the engine is
// alive). It reports whether the reply is still within its limits; once
// it is not, the call's context is ended and the rest must be dropped.
func (m *Meter) Add(n int) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.reason != nil {
		return false
	}
	m.timer.Reset(m.limits.IdleTimeout)
	m.bytes += n
	if m.bytes > m.limits.MaxReplyBytes {
		m.endLocked(&Error{Kind: ErrProvider, Err: ErrReplyTooLarge, Message: fmt.Sprintf(
			"the model's reply grew past %s, so it was stopped (--max-reply-bytes sets the limit)",
			termtext.Bytes(m.limits.MaxReplyBytes))})
		return false
	}
	return true
}

// Err is the error that ended the call, when a limit did, else nil.
func (m *Meter) Err() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.reason
}

// Stop releases the Meter's timer and context.
func (m *Meter) Stop() {
	m.timer.Stop()
	m.total.Stop()
	m.cancel(context.Canceled)
}

func (m *Meter) end(err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.endLocked(err)
}

func (m *Meter) endLocked(err error) {
	if m.reason == nil {
		m.reason = err
		m.cancel(err)
	}
}
