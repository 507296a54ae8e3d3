package approval

import (
	"context"

	"github.com/mcphost/mcphost/ask"
)

// The question and its answer are the public package's, which the chat
// and programs implement; aliases keep this package's names for the
// hooks and the audit log that share them.
type (
	// Request is a tool call waiting for a human's yes or no.
	Request = ask.CallRequest
	// Choice is the human's answer to a Request.
	Choice = ask.Choice
	// Answer is a human's decision about one call.
	Answer = ask.Approval
)

// The answers a person may give.
const (
	No         = ask.No
	YesOnce    = ask.YesOnce
	YesSession = ask.YesSession
)

// Asker asks a human about a tool call. Toolbox asks one question at a
// time, even when the model makes several calls at once. Ask returns
// ctx's error when the user interrupts, and ask.ErrNoOne when no one can
// be asked (the call is then refused as without an Asker).
type Asker interface {
	Ask(ctx context.Context, req Request) (Answer, error)
}

// AskerFunc adapts a function to Asker.
type AskerFunc func(ctx context.Context, req Request) (Answer, error)

// Ask calls f.
func (f AskerFunc) Ask(ctx context.Context, req Request) (Answer, error) { return f(ctx, req) }
