package approval

import (
	"context"

	"github.com/mcphost/mcphost/tool"
)

// Request is a tool call waiting for a human's yes or no.
type Request struct {
	// Name is the tool as the model calls it ("server__tool"); Server and
	// Tool are the server's name and the server's own tool name.
	Name, Server, Tool string
	// Arguments are the model's, unmodified: show them with
	// FormatArguments, which makes them safe for a terminal.
	Arguments map[string]any
	// Info is the tool's MCP definition, nil when unknown.
	Info *tool.Def
	// Why says why the call is asked rather than allowed.
	Why string
}

// Choice is the human's answer to a Request.
type Choice int

// The answers a chat offers.
const (
	// No refuses this call; with Answer.Reason set, the model is told why.
	No Choice = iota
	// YesOnce runs this call only.
	YesOnce
	// YesSession runs this call and every later call of the same tool
	// until the session ends.
	YesSession
)

// Answer is a human's decision about one call.
type Answer struct {
	Choice Choice
	// Reason, for No, is passed to the model ("use the staging branch").
	Reason string
}

// Asker asks a human about a tool call; a chat implements it. Toolbox asks
// one question at a time, even when the model makes several calls at
// once. Ask returns ctx's error when the user interrupts.
type Asker interface {
	Ask(ctx context.Context, req Request) (Answer, error)
}

// AskerFunc adapts a function to Asker.
type AskerFunc func(ctx context.Context, req Request) (Answer, error)

// Ask calls f.
func (f AskerFunc) Ask(ctx context.Context, req Request) (Answer, error) { return f(ctx, req) }
