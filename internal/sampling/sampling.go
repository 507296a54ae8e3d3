// Package sampling defines the neutral form of MCP sampling requests
// (sampling/createMessage: a server asking the client's model for a
// completion), which package servers translates, and decides them in runs
// where no one can be asked: they follow the --sampling setting, deny by
// default. The host answers an approved request with its current model;
// the chat asks the user first.
package sampling

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/tool"
)

// Message is one message of a sampling request: Role is "user" or
// "assistant"; Content holds text, images or audio.
type Message struct {
	Role    string
	Content []tool.Content
}

// Request is a server's request for a completion, as mcphost hands it to
// whoever decides and answers it.
type Request struct {
	// Server is the name of the server that asks.
	Server string
	// Messages are the conversation the server wants completed.
	Messages []Message
	// SystemPrompt is the server's system prompt; empty for none.
	SystemPrompt string
	// MaxTokens bounds the completion, in tokens; 0 when unbounded.
	MaxTokens int
	// Temperature is the server's wish, nil when it has none.
	Temperature *float64
	// StopSequences end the completion early.
	StopSequences []string
	// ModelHints are the models the server would prefer, best first
	// (advisory: mcphost answers with its current model).
	ModelHints []string
}

// Result is the completion sent back to the server.
type Result struct {
	// Text is the model's answer.
	Text string
	// Model is the name of the model that answered.
	Model string
	// StopReason is "endTurn", "maxTokens" or "stopSequence".
	StopReason string
}

// Func answers one request.
type Func func(ctx context.Context, req Request) (Result, error)

// Approver decides whether a request may go to the model; an error means
// no one could decide (the request is refused with it).
type Approver func(ctx context.Context, req Request) (bool, error)

// ErrDenied is the failure of a request that was refused.
var ErrDenied = errors.New("sampling request refused")

// Policy is the Approver of a run that cannot ask anyone: it follows
// mode, and note (when not nil) receives one sentence per request saying
// who asked and what became of it; the server's words are passed on as
// they are, for the caller to sanitise.
func Policy(mode config.ServerSampling, note func(string)) Approver {
	if note == nil {
		note = func(string) {}
	}
	return func(_ context.Context, req Request) (bool, error) {
		who := "a server"
		if req.Server != "" {
			who = fmt.Sprintf("server %q", req.Server)
		}
		if mode == config.ServerSamplingAllow {
			return true, nil
		}
		note(fmt.Sprintf("%s asked the model for a completion (%s) and was refused: run with --sampling allow to let servers use the model", who, req.Summary(80)))
		return false, nil
	}
}

// Summary is the request's last message, its text cut to about n
// characters on one line, for notes and questions.
func (r Request) Summary(n int) string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		for _, c := range r.Messages[i].Content {
			if text := strings.Join(strings.Fields(c.Describe()), " "); text != "" {
				if len([]rune(text)) > n {
					text = string([]rune(text)[:n]) + "…"
				}
				return fmt.Sprintf("%q", text)
			}
		}
	}
	return "no message"
}
