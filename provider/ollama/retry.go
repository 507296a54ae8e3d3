package ollama

import (
	"context"
	"errors"
	"net/http"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/provider"
)

// Retry is the policy for trying a request again; see provider.Retry.
type Retry = provider.Retry

// SetRetry replaces the retry policy (DefaultRetry after New). Call it
// before the Provider is in use.
func (p *Provider) SetRetry(r Retry) { p.retry = r }

// retryable reports whether err, a failure before the user saw anything,
// is worth another try: nothing answered, a 5xx or 429, an error Ollama
// reported in place of the answer, or a stream that ended before its
// first chunk. Not a 4xx (a missing model, a bad request) and not our own
// cancellation.
func retryable(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
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
	return provider.Unreachable(err)
}

// errCut is the raw failure of a stream that ended without its done chunk.
var errCut = errors.New(errCutOff)

// streamError is an error Ollama sent in the stream, with status 200.
type streamError struct{ msg string }

func (e *streamError) Error() string { return e.msg }

// withRetry runs try under p's retry policy, with this backend's idea of
// which failures are worth another try and its wording of the error.
func (p *Provider) withRetry(ctx context.Context, model string, try func() (shown bool, err error)) error {
	return p.retry.Do(ctx, try,
		func(err error) bool { return retryable(ctx, err) },
		func(err error) error { return p.wrap(ctx, model, err) })
}
