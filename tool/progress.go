package tool

import "context"

// Progress is news of a call that is still running: a progress
// notification of the server, or the status of a task (MCP tasks).
type Progress struct {
	// Progress grows with every notification; Total is the value it
	// will reach, 0 when unknown.
	Progress, Total float64
	// Message is the server's own words, not yet cleaned for a terminal.
	Message string
	// Status is a task's status ("working", "input_required",
	// "completed", "failed", "cancelled"); empty for a progress
	// notification.
	Status string
}

// ProgressFunc receives the progress of one call, one notification at a
// time, and never after the call has returned.
type ProgressFunc func(Progress)

type progressKey struct{}

// WithProgress returns a context whose tool call reports its progress to
// f. It travels with the call through every layer (approval, the manager)
// without them knowing.
func WithProgress(ctx context.Context, f ProgressFunc) context.Context {
	return context.WithValue(ctx, progressKey{}, f)
}

// ProgressOf returns the [ProgressFunc] of ctx, nil when it has none.
func ProgressOf(ctx context.Context) ProgressFunc {
	f, _ := ctx.Value(progressKey{}).(ProgressFunc)
	return f
}
