package ollama

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/provider"
)

// errCutOff is what a stream that ends without its done chunk means: the
// server died or a proxy dropped the connection mid-answer.
const errCutOff = "the answer from Ollama was cut off mid-stream"

// wrap turns a failure of the api client into a *provider.Error worded for
// the user, or into the context's error when the caller gave up.
func (p *Provider) wrap(ctx context.Context, model string, err error) error {
	var perr *provider.Error
	if errors.As(err, &perr) {
		// Already worded: a limit of the call (provider.Limits).
		return err
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return fmt.Errorf("ollama request for %s stopped: %w", model, ctxErr)
	}
	if errors.Is(err, errCut) {
		return &provider.Error{Kind: provider.ErrProvider, Message: errCutOff, Err: err}
	}

	var status api.StatusError
	if errors.As(err, &status) {
		if status.StatusCode == http.StatusNotFound && isModelNotFound(status.ErrorMessage) {
			return &provider.Error{
				Kind:    provider.ErrModelNotFound,
				Message: fmt.Sprintf("model %q not found: run \"ollama pull %s\"", model, model),
				Err:     err,
			}
		}
		msg := strings.TrimSpace(status.ErrorMessage)
		if msg == "" {
			msg = fmt.Sprintf("HTTP %d %s", status.StatusCode, http.StatusText(status.StatusCode))
		}
		return providerError(msg, err)
	}

	var auth api.AuthorizationError
	if errors.As(err, &auth) {
		return providerError(fmt.Sprintf("unauthorized (HTTP %d)", auth.StatusCode), err)
	}

	if provider.Unreachable(err) {
		return &provider.Error{
			Kind:    provider.ErrUnreachable,
			Message: fmt.Sprintf("cannot reach %s at %s: %s", row().Display, p.base, row().Hint),
			Err:     err,
		}
	}
	return providerError(err.Error(), err)
}

func providerError(msg string, err error) error {
	return &provider.Error{Kind: provider.ErrProvider, Message: "ollama: " + msg, Err: err}
}

// isModelNotFound tells Ollama's "model 'x' not found" from a 404 of
// something that is not Ollama at all ("404 page not found"), which is a
// wrong host, not a missing model.
func isModelNotFound(msg string) bool {
	msg = strings.ToLower(msg)
	return strings.Contains(msg, "model") && strings.Contains(msg, "not found")
}
