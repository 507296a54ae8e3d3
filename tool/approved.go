package tool

import "context"

// ApprovedFunc is told that a call held for a question to the user (an
// approval) has been allowed and is now sent to its server.
type ApprovedFunc func()

type approvedKey struct{}

// WithApproved returns a context whose tool call tells f when it is
// approved after waiting for the user. The runner uses it so that the time
// a person took to answer is not counted as the tool's, and so that its
// renderers show the call running again once the question is gone.
func WithApproved(ctx context.Context, f ApprovedFunc) context.Context {
	return context.WithValue(ctx, approvedKey{}, f)
}

// Approved tells the ApprovedFunc of ctx, if any, that the call is
// approved and about to run; the approval layer calls it after asking.
func Approved(ctx context.Context) {
	if f, _ := ctx.Value(approvedKey{}).(ApprovedFunc); f != nil {
		f()
	}
}
