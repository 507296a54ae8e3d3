package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"

	"github.com/mcphost/mcphost/provider"
)

// statusError is an error answer of the server: its status and the message
// of its body, in whichever of the engines' shapes it came.
type statusError struct {
	Status  int
	Message string
	// Type and Code are the body's error type and code when it has them
	// ("exceed_context_size_error", "model_not_found").
	Type, Code string
}

func (e *statusError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("HTTP %d %s", e.Status, http.StatusText(e.Status))
	}
	return fmt.Sprintf("HTTP %d: %s", e.Status, e.Message)
}

// readStatusError reads an error answer. The engines word them as
// {"error": {"message", "type", "code"}} (OpenAI, llama.cpp, Ollama, newer
// vLLM), {"object": "error", "message", "type", "code"} (older vLLM),
// {"error": "text"} (LM Studio) or plain text.
func readStatusError(resp *http.Response) *statusError {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	se := parseErrorBody(b)
	se.Status = resp.StatusCode
	return se
}

// parseErrorBody reads the message of an error body (see readStatusError);
// a body it cannot read is its own message, cut short.
func parseErrorBody(b []byte) *statusError {
	var body struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    any             `json:"code"`
	}
	se := &statusError{}
	if json.Unmarshal(b, &body) != nil {
		se.Message = shorten(string(bytes.TrimSpace(b)))
		return se
	}
	se.Message, se.Type, se.Code = body.Message, body.Type, codeString(body.Code)
	if len(body.Error) > 0 {
		var inner struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Code    any    `json:"code"`
		}
		var text string
		switch {
		case json.Unmarshal(body.Error, &text) == nil:
			se.Message = text
		case json.Unmarshal(body.Error, &inner) == nil:
			se.Message, se.Type, se.Code = inner.Message, inner.Type, codeString(inner.Code)
		}
	}
	se.Message = strings.TrimSpace(se.Message)
	return se
}

func codeString(v any) string {
	switch c := v.(type) {
	case string:
		return c
	case float64:
		return fmt.Sprint(int(c))
	}
	return ""
}

// shorten keeps an unreadable body (an HTML error page, say) to one short
// line.
func shorten(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// contextOverflow matches the engines' words for a prompt longer than the
// window: llama.cpp's "exceeds the available context size", vLLM's and
// OpenAI's "maximum context length", LM Studio's "context length of only",
// "context window", "context_length_exceeded".
var contextOverflow = regexp.MustCompile(`(?i)context[ _](size|length|window)|exceed_context|context.{0,20}overflow`)

func (e *statusError) contextOverflow() bool {
	return e.Status < 500 && contextOverflow.MatchString(e.Message+" "+e.Type+" "+e.Code)
}

// toolsUnsupported tells a server that cannot give this model tools:
// llama.cpp without --jinja ("tools param requires --jinja flag", a 400 or
// a 500 by version), vLLM without --enable-auto-tool-choice, Ollama's "does
// not support tools". Only these words count: a bare 400 is as often a
// malformed request or a long prompt, which answering without tools would
// hide.
func (e *statusError) toolsUnsupported() bool {
	m := strings.ToLower(e.Message)
	return e.Status >= 400 && strings.Contains(m, "tool") &&
		(strings.Contains(m, "--jinja") || strings.Contains(m, "enable-auto-tool-choice") ||
			strings.Contains(m, "tool-call-parser") || strings.Contains(m, "does not support tools") ||
			strings.Contains(m, "support tool use"))
}

// modelNotFound tells a 404 (or a 400) about the model from one about the
// path (a wrong URL).
func (e *statusError) modelNotFound() bool {
	m := strings.ToLower(e.Message + " " + e.Code)
	return (e.Status == http.StatusNotFound || e.Status == http.StatusBadRequest) &&
		strings.Contains(m, "model") && (strings.Contains(m, "not found") ||
		strings.Contains(m, "does not exist") || strings.Contains(m, "model_not_found") ||
		strings.Contains(m, "no models loaded") || strings.Contains(m, "not loaded"))
}

// errCutOff is a stream that ended without its finish: the server died or
// a proxy dropped the connection mid-answer.
var errCutOff = errors.New("the answer was cut off mid-stream")

// streamError is an error the server sent inside a stream that began
// with status 200.
type streamError struct{ *statusError }

// wrap turns a failure into a *provider.Error worded for the user, or into
// the context's error when the caller gave up.
func (p *Provider) wrap(ctx context.Context, model string, err error) error {
	var perr *provider.Error
	if errors.As(err, &perr) {
		// Already worded: a limit of the call (provider.Limits).
		return err
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return fmt.Errorf("%s request for %s stopped: %w", p.Kind().displayName(), model, ctxErr)
	}
	engine := p.Engine()
	if errors.Is(err, errCutOff) {
		return p.fail(provider.ErrProvider, err, "the answer from %s was cut off mid-stream", engine)
	}
	var se *statusError
	if errors.As(err, &se) {
		return p.statusFailure(ctx, model, se, err)
	}
	if provider.Unreachable(err) {
		return p.fail(provider.ErrUnreachable, err, "cannot reach %s: %s", engine, p.startHint())
	}
	return p.fail(provider.ErrProvider, err, "%s: %v", engine, err)
}

// statusFailure words an error answer.
func (p *Provider) statusFailure(ctx context.Context, model string, se *statusError, err error) error {
	engine := p.Engine()
	switch {
	case se.Status == http.StatusUnauthorized || se.Status == http.StatusForbidden:
		return p.fail(provider.ErrProvider, err, "%s refused the request (HTTP %d): %s", engine, se.Status, p.keyHint())
	case se.modelNotFound():
		return p.notFound(ctx, model, err)
	case se.contextOverflow():
		return p.fail(provider.ErrProvider, err, "the conversation does not fit model %q's context window on %s (%s): start a new conversation, lower --max-result-bytes, or serve the model with a larger window%s",
			model, engine, se.Message, p.windowHint())
	case se.toolsUnsupported():
		return p.fail(provider.ErrProvider, err, "%s cannot give model %q tools (%s): %s", engine, model, se.Message, p.toolsHint())
	}
	return p.fail(provider.ErrProvider, err, "%s answered %v", engine, se)
}

// notFound is the error for a model the server does not serve, listing
// those it does.
func (p *Provider) notFound(ctx context.Context, model string, err error) error {
	msg := fmt.Sprintf("model %q is not served by %s", model, p.Engine())
	if models, lerr := p.modelIDs(ctx); lerr == nil && len(models) > 0 {
		const most = 12
		list := models
		if len(list) > most {
			list = append(list[:most:most], fmt.Sprintf("… %d more", len(models)-most))
		}
		msg += fmt.Sprintf(": it serves %s; pick one with -m %s:NAME", strings.Join(list, ", "), p.opts.Name)
	} else if hint := p.Kind().row().NotServed; hint != "" {
		msg += ": " + hint
	}
	return p.fail(provider.ErrModelNotFound, err, "%s", msg)
}

func (p *Provider) fail(kind error, err error, format string, args ...any) error {
	return &provider.Error{Kind: kind, Message: fmt.Sprintf(format, args...), Err: err}
}

// startHint is what to do when the server does not answer: its usual
// start command, from its row of the engine table.
func (p *Provider) startHint() string { return p.Kind().row().Hint }

// keyHint says which key was sent, never its value.
func (p *Provider) keyHint() string {
	if p.opts.APIKey == "" {
		return "no API key was sent: give one with --provider-api-key, MCPHOST_PROVIDER_API_KEY or provider-api-key in a config file" + p.envKeyHint()
	}
	src := p.opts.KeySource
	if src == "" {
		src = "the configuration"
	}
	return fmt.Sprintf("the API key from %s was refused: check it, or the server's own key setting", src)
}

func (p *Provider) envKeyHint() string {
	if p.opts.Name == provider.EngineOpenAI {
		return ", or set OPENAI_API_KEY"
	}
	return ""
}

// windowHint says how the engine's window is set.
func (p *Provider) windowHint() string {
	if w := p.Kind().row().Window; w != "" {
		return " (" + w + ")"
	}
	return ""
}

// toolsHint says how to make the server give the model tools.
func (p *Provider) toolsHint() string {
	if t := p.Kind().row().Tools; t != "" {
		return t
	}
	return "pick a model that supports tools"
}
