package approval

import (
	"context"

	"github.com/mcphost/mcphost/ask"
)

// Asker asks a human about a tool call. Toolbox asks one question at a
// time, even when the model makes several calls at once. Ask returns
// ctx's error when the user interrupts, and ask.ErrNoOne when no one can
// be asked (the call is then refused as without an Asker).
type Asker interface {
	Ask(ctx context.Context, req ask.CallRequest) (ask.Approval, error)
}

// AskerFunc adapts a function to Asker.
type AskerFunc func(ctx context.Context, req ask.CallRequest) (ask.Approval, error)

// Ask calls f.
func (f AskerFunc) Ask(ctx context.Context, req ask.CallRequest) (ask.Approval, error) {
	return f(ctx, req)
}
