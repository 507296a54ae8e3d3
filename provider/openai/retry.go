package openai

import (
	"context"
	"errors"
	"net/http"

	"github.com/mcphost/mcphost/provider"
)

// Retry is the policy for trying a request again; see provider.Retry.
type Retry = provider.Retry

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
	return errors.Is(err, errCutOff) || provider.Unreachable(err)
}

// withRetry runs try under p's retry policy, with this backend's idea of
// which failures are worth another try and its wording of the error.
func (p *Provider) withRetry(ctx context.Context, model string, try func() (shown bool, err error)) error {
	return p.retry.Do(ctx, try,
		func(err error) bool { return retryable(ctx, err) },
		func(err error) error { return p.wrap(ctx, model, err) })
}
