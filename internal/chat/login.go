package chat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/ui"
)

// signer is a Host that signs in to remote servers (*host.Host is one).
type signer interface {
	Login(ctx context.Context, name string, signIn func(ctx context.Context, server, url string) error) (host.SignIn, error)
}

// SignIn answers ask.Asker's sign-in question: the chat signs in only
// when the user asks, with /mcp login, so a server that needs a sign-in
// fails to start and the chat says which command signs in.
func (c *Chat) SignIn(context.Context, ask.SignInRequest) error { return ask.ErrNoOne }

// mcpLogin runs "/mcp login NAME": it shows the sign-in's URL, opens it in
// the browser and waits for the browser to come back (Ctrl-C gives up);
// the server is then restarted with its new token.
func (c *Chat) mcpLogin(ctx context.Context, w io.Writer, name string) bool {
	h, ok := c.opts.Host.(signer)
	if !ok {
		fmt.Fprintln(w, "this chat cannot sign in to servers")
		return false
	}
	// Ctrl-C (SIGINT) gives up the sign-in only; the chat goes on.
	loginCtx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	defer noEcho(c.opts.In)()
	si, err := h.Login(loginCtx, name, ui.OpenSignIn(ui.Lines(w), true))
	switch {
	case errors.Is(err, host.ErrNoSignIn):
		fmt.Fprintf(w, "%s does not ask for a sign-in.\n", name)
	case err != nil && loginCtx.Err() != nil && ctx.Err() == nil:
		fmt.Fprintln(w, "(sign-in cancelled)")
	case err != nil:
		fmt.Fprintf(w, "login %s: %s\n", name, ui.Sanitize(c.opts.Mask(err.Error())))
	default:
		tools := 0
		for _, t := range c.tools() {
			if t.Server == name {
				tools++
			}
		}
		ui.SignedIn(w, si, tools)
	}
	return false
}
