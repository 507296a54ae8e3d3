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
		httpStatus := fmt.Sprintf("HTTP %d %s", status.StatusCode, http.StatusText(status.StatusCode))
		switch {
		case status.StatusCode == http.StatusNotFound:
			// Not a missing model: the path is not Ollama's API, so the
			// address is wrong (another server, a proxy's prefix).
			if msg != "" && msg != strings.ToLower(httpStatus) {
				httpStatus += " (" + msg + ")"
			}
			return addressError(fmt.Sprintf("%s answered %s: no Ollama API is there; %s", p.where(), httpStatus, p.fixAddress()), err)
		case msg == "":
			return addressError(fmt.Sprintf("%s answered %s", p.where(), httpStatus), err)
		}
		// Ollama's own words (a model that failed to load, bad options).
		return providerError(msg, err)
	}

	var auth api.AuthorizationError
	if errors.As(err, &auth) {
		return addressError(fmt.Sprintf("%s refused the request (HTTP %d): it needs a sign-in or a key mcphost does not send; %s", p.where(), auth.StatusCode, p.fixAddress()), err)
	}

	if provider.Unreachable(err) {
		return &provider.Error{
			Kind:    provider.ErrUnreachable,
			Message: fmt.Sprintf("cannot reach %s: %s", p.where(), row().Hint),
			Err:     err,
		}
	}
	// Reached, and the failure is the answer's (a stream Ollama broke
	// off with its own error, one that does not parse).
	return providerError(err.Error(), err)
}

// where names the server for an error about it: "Ollama at URL", and
// where the address came from when it was given.
func (p *Provider) where() string {
	w := fmt.Sprintf("%s at %s", row().Display, p.base)
	if p.source != "" {
		w += " (from " + p.source + ")"
	}
	return w
}

// fixAddress says how to give the right address: where this one came
// from, else the ways to give one.
func (p *Provider) fixAddress() string {
	if p.source != "" {
		return "check " + p.source
	}
	return "give Ollama's address with OLLAMA_HOST or --ollama-host"
}

func providerError(msg string, err error) error {
	return &provider.Error{Kind: provider.ErrProvider, Message: "ollama: " + msg, Err: err}
}

// addressError is the error of a server that is not the Ollama expected
// there: msg names the address and where it came from.
func addressError(msg string, err error) error {
	return &provider.Error{Kind: provider.ErrProvider, Message: msg, Err: err}
}

// isModelNotFound tells Ollama's "model 'x' not found" from a 404 of
// something that is not Ollama at all ("404 page not found"), which is a
// wrong host, not a missing model.
func isModelNotFound(msg string) bool {
	msg = strings.ToLower(msg)
	return strings.Contains(msg, "model") && strings.Contains(msg, "not found")
}
