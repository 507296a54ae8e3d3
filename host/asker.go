package host

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/internal/elicit"
	"github.com/mcphost/mcphost/internal/guard/approval"
)

// askerBox holds the Asker (nil for none) for an atomic swap.
type askerBox struct{ a ask.Asker }

// SetAsker sets who is put the questions for a person from now on
// (approvals, forms, sampling requests and, on a Host given an Asker in
// its Options, sign-ins); nil asks no one. See [Options].Asker.
func (h *Host) SetAsker(a ask.Asker) {
	h.asker.Store(&askerBox{a})
	h.approval.SetAsker(h.approvalAsker(a))
}

// currentAsker is who is asked now; nil for no one.
func (h *Host) currentAsker() ask.Asker {
	if b := h.asker.Load(); b != nil {
		return b.a
	}
	return nil
}

// notify runs the Notification hooks before a question to a person at
// the terminal.
func (h *Host) notify(ctx context.Context, msg string) {
	if h.hooks != nil && h.opts.Interactive {
		h.hooks.Notification(ctx, msg)
	}
}

// approvalAsker is a's approval question as the approval layer asks it;
// nil (no one to ask) when a is nil. An Asker that answers ask.ErrNoOne
// gets its call refused as without one.
func (h *Host) approvalAsker(a ask.Asker) approval.Asker {
	if a == nil {
		return nil
	}
	return approval.AskerFunc(func(ctx context.Context, req ask.CallRequest) (ask.Approval, error) {
		h.notify(ctx, fmt.Sprintf("mcphost needs your approval to run %s", req.Name))
		return a.ApproveCall(ctx, req)
	})
}

// elicit is the manager's elicitation handler: the Asker, or the
// elicitation setting when no one can be asked.
func (h *Host) elicit(ctx context.Context, req ask.FormRequest) (ask.FormAnswer, error) {
	if a := h.currentAsker(); a != nil {
		h.notify(ctx, fmt.Sprintf("server %s asks for input: %s", req.Server, req.Message))
		res, err := a.Elicit(ctx, req)
		if !errors.Is(err, ask.ErrNoOne) {
			return res, err
		}
	}
	return elicit.Handler(h.settings.Elicitation, h.warn)(ctx, req)
}

// signIn is the servers' sign-in, on a Host given an Asker: the URL goes
// to whoever is asked now.
func (h *Host) signIn(ctx context.Context, server, url string) error {
	a := h.currentAsker()
	if a == nil {
		return ask.ErrNoOne
	}
	return a.SignIn(ctx, ask.SignInRequest{Server: server, URL: url})
}
