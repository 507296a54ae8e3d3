package ollama

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/provider"
)

// Retry says how a request is tried again when Ollama is not running yet,
// is restarting or reloading a model, or is overloaded. Only requests that
// have shown the user nothing are retried: an answer cut off after some of
// its text was streamed is reported, not silently started over.
type Retry struct {
	// Attempts is how many times a request is tried in all; 1 or less
	// means once.
	Attempts int
	// Delay is the wait after the first failure; it doubles after each
	// further one, up to MaxDelay.
	Delay, MaxDelay time.Duration
	// OnRetry, when set, hears of every retry before its wait, for logs.
	OnRetry func(attempt int, wait time.Duration, err error)
}

// DefaultRetry tries a request four times, waiting 0.5s, 1s and 2s in
// between: about 3.5s for Ollama to come back before the error is shown.
func DefaultRetry() Retry {
	return Retry{Attempts: 4, Delay: 500 * time.Millisecond, MaxDelay: 4 * time.Second}
}

// LoggedRetry is DefaultRetry with every retry logged to l at debug level,
// so --debug shows why an answer is slow to start.
func LoggedRetry(l *slog.Logger) Retry {
	r := DefaultRetry()
	r.OnRetry = func(attempt int, wait time.Duration, err error) {
		l.Debug("ollama request failed: retrying", "attempt", attempt, "in", wait, "error", err)
	}
	return r
}

// SetRetry replaces the retry policy (DefaultRetry after New). Call it
// before the Provider is in use.
func (p *Provider) SetRetry(r Retry) { p.retry = r }

// retryable reports whether err, a failure before the user saw anything,
// is worth another try: nothing answered, a 5xx or 429, an error Ollama
// reported in place of the answer, or a stream that ended before its
// first chunk. Not a 4xx (a missing model, a bad request) and not our own
// cancellation.
func retryable(ctx context.Context, err error) bool {
	var perr *provider.Error
	if ctx.Err() != nil || errors.As(err, &perr) {
		// Cancelled, or stopped by a limit: another try would fare no
		// better.
		return false
	}
	var status api.StatusError
	if errors.As(err, &status) {
		return status.StatusCode >= 500 || status.StatusCode == http.StatusTooManyRequests
	}
	var auth api.AuthorizationError
	if errors.As(err, &auth) {
		return false
	}
	var streamErr *streamError
	if errors.As(err, &streamErr) || errors.Is(err, errCut) {
		return true
	}
	return unreachable(err)
}

// errCut is the raw failure of a stream that ended without its done chunk.
var errCut = errors.New(errCutOff)

// streamError is an error Ollama sent in the stream, with status 200.
type streamError struct{ msg string }

func (e *streamError) Error() string { return e.msg }

// withRetry runs try until it succeeds, fails for good, or the attempts
// are used up, waiting between attempts as p.retry says. try reports
// whether the user already saw part of the answer, which forbids a retry.
// The error returned is worded by wrap, with the number of tries.
func (p *Provider) withRetry(ctx context.Context, model string, try func() (shown bool, err error)) error {
	attempts := max(p.retry.Attempts, 1)
	wait := p.retry.Delay
	for attempt := 1; ; attempt++ {
		shown, err := try()
		if err == nil {
			return nil
		}
		if shown || attempt >= attempts || !retryable(ctx, err) {
			werr := p.wrap(ctx, model, err)
			var perr *provider.Error
			if attempt > 1 && errors.As(werr, &perr) {
				perr.Message += fmt.Sprintf(" (tried %d times)", attempt)
			}
			return werr
		}
		if p.retry.OnRetry != nil {
			p.retry.OnRetry(attempt, wait, err)
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return p.wrap(ctx, model, ctx.Err())
		}
		wait = min(wait*2, max(p.retry.MaxDelay, p.retry.Delay))
	}
}
