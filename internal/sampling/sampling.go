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

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/config"
)

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
type Func func(ctx context.Context, req ask.SamplingRequest) (Result, error)

// Approver decides whether a request may go to the model; an error means
// no one could decide (the request is refused with it).
type Approver func(ctx context.Context, req ask.SamplingRequest) (bool, error)

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
	return func(_ context.Context, req ask.SamplingRequest) (bool, error) {
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
