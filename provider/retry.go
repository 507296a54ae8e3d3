package provider

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"time"
)

// Retry says how a model request is tried again when the engine is not
// up yet, is loading or reloading a model, is overloaded or sits behind a
// proxy that lost it. Which failures qualify is the backend's to say; the
// policy (how often, how long between) is the same for every engine. Only
// requests that have shown the user nothing are retried: an answer cut off
// after some of its text was streamed is reported, not silently started
// over.
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
// between: about 3.5s for the engine to come back before the error is
// shown.
func DefaultRetry() Retry {
	return Retry{Attempts: 4, Delay: 500 * time.Millisecond, MaxDelay: 4 * time.Second}
}

// LoggedRetry is [DefaultRetry] with every retry logged to l at debug level,
// so --debug shows why an answer is slow to start.
func LoggedRetry(l *slog.Logger) Retry {
	r := DefaultRetry()
	r.OnRetry = func(attempt int, wait time.Duration, err error) {
		l.Debug("model request failed: retrying", "attempt", attempt, "in", wait, "error", err)
	}
	return r
}

// Do runs try until it succeeds, fails for good, or the attempts are used
// up, waiting between attempts as r says. try reports whether the user
// already saw part of the answer, which forbids a retry; retryable says
// whether a raw failure is worth another try. The error returned is worded
// by wrap and, when it is an *[Error] after more than one try, says how many.
func (r Retry) Do(ctx context.Context, try func() (shown bool, err error), retryable func(error) bool, wrap func(error) error) error {
	attempts := max(r.Attempts, 1)
	wait := r.Delay
	for attempt := 1; ; attempt++ {
		shown, err := try()
		if err == nil {
			return nil
		}
		var limit *Error
		// Cancelled, or stopped by one of our limits: another try would
		// fare no better.
		stop := ctx.Err() != nil || errors.As(err, &limit)
		if shown || stop || attempt >= attempts || !retryable(err) {
			werr := wrap(err)
			var perr *Error
			if attempt > 1 && errors.As(werr, &perr) {
				perr.Message += fmt.Sprintf(" (tried %d times)", attempt)
			}
			return werr
		}
		if r.OnRetry != nil {
			r.OnRetry(attempt, wait, err)
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return wrap(ctx.Err())
		}
		wait = min(wait*2, max(r.MaxDelay, r.Delay))
	}
}

// Unreachable reports whether err means the engine never answered:
// nothing listening, no such host, the connection dropped before a
// response, no answer in time. Any failure of the HTTP round trip
// (*url.Error) counts, except a TLS failure, which is an answer, just not
// one that can be trusted, and is reported as is.
func Unreachable(err error) bool {
	var ue *url.Error
	if !errors.As(err, &ue) {
		return false
	}
	var certErr *tls.CertificateVerificationError
	var recErr tls.RecordHeaderError
	var alert tls.AlertError
	return !errors.As(err, &certErr) && !errors.As(err, &recErr) && !errors.As(err, &alert)
}
