package openai

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/mcphost/mcphost/provider"
)

// Retry says how a request is tried again when the server is not up yet,
// is loading the model (llama.cpp's 503 "Loading model"), is overloaded
// (429) or sits behind a proxy that lost it (502, 503, 504). Only requests
// that have shown the user nothing are retried: an answer cut off after
// some of its text was streamed is reported, not silently started over.
// It is the Ollama backend's policy (provider/ollama/retry.go).
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
// between: about 3.5s for the server to come back before the error is
// shown.
func DefaultRetry() Retry {
	return Retry{Attempts: 4, Delay: 500 * time.Millisecond, MaxDelay: 4 * time.Second}
}

// LoggedRetry is DefaultRetry with every retry logged to l at debug level.
func LoggedRetry(l *slog.Logger) Retry {
	r := DefaultRetry()
	r.OnRetry = func(attempt int, wait time.Duration, err error) {
		l.Debug("model request failed: retrying", "attempt", attempt, "in", wait, "error", err)
	}
	return r
}

// SetRetry replaces the retry policy (DefaultRetry after New). Call it
// before the Provider is in use.
func (p *Provider) SetRetry(r Retry) { p.retry = r }

// retryable reports whether err, a failure before the user saw anything,
// is worth another try: nothing answered, 429, 502, 503 or 504, or a
// stream that ended before its first chunk. Not another status (a missing
// model, a bad request, a refused key, a 500 that will fail again) and not
// our own cancellation.
func retryable(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	var se *statusError
	if errors.As(err, &se) {
		var inStream *streamError
		if errors.As(err, &inStream) {
			return false
		}
		switch se.Status {
		case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return true
		}
		return false
	}
	return errors.Is(err, errCutOff) || unreachable(err)
}

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
