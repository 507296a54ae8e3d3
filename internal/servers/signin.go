package servers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/servers/oauth"
)

// loginTimeout bounds a start that signs in on request (Login): the user
// has that long to finish in the browser.
const loginTimeout = 5 * time.Minute

// ErrNoSignIn means the server did not ask for a sign-in, so there is
// nothing to sign in to.
var ErrNoSignIn = errors.New("the server did not ask for a sign-in")

// newSignIn returns the sign-in of spec's server, or nil when it cannot
// have one: not an http or sse server, OAuth off, or an Authorization
// header configured (that header is its credential).
func newSignIn(spec config.ServerSpec, opts Options, client string, log *slog.Logger) *oauth.Client {
	if opts.SignIns == nil || (spec.Transport != config.TransportHTTP && spec.Transport != config.TransportSSE) {
		return nil
	}
	for k := range spec.Headers {
		if strings.EqualFold(k, "Authorization") {
			return nil
		}
	}
	return oauth.New(oauth.Config{
		Server: spec.Name, URL: spec.URL, OAuth: spec.OAuth,
		Store: opts.SignIns, SignIn: opts.SignIn, OnSecret: opts.OnSecret,
		ClientName: client, Logger: log.With("server", spec.Name),
		HTTP: &http.Client{Timeout: 30 * time.Second},
	})
}

// signInProblem returns the *oauth.SignInError behind a failure on
// connection c, if it is one.
func signInProblem(c *conn, err error) *oauth.SignInError {
	if c == nil || c.auth == nil {
		return nil
	}
	var sie *oauth.SignInError
	if errors.As(err, &sie) {
		return sie
	}
	if errors.As(c.auth.Problem(), &sie) {
		return sie
	}
	return nil
}

// signInMessage words a sign-in problem for the user, saying what to do.
func signInMessage(e *oauth.SignInError) string {
	msg := e.Error()
	if e.NeedsSignIn() {
		return fmt.Sprintf("%s: run mcphost auth login %s (in the chat: /mcp login %s)", msg, e.Server, e.Server)
	}
	return msg
}

// Login signs in to server name anew: its stored sign-in is set aside,
// the server is restarted, and at its first challenge signIn is given the
// URL to show the user. It returns the new sign-in once the server is
// ready with it, within loginTimeout (or the server's start timeout, if
// longer); ErrNoSignIn (the server is ready) when the server asked for
// none. Calls in flight on the server fail, as for Restart.
func (m *Manager) Login(ctx context.Context, name string, signIn oauth.SignInFunc) (oauth.Record, error) {
	m.mu.RLock()
	s := m.byName[name]
	m.mu.RUnlock()
	switch {
	case s == nil:
		return oauth.Record{}, fmt.Errorf("no server %q", name)
	case s.spec.Transport != config.TransportHTTP && s.spec.Transport != config.TransportSSE:
		return oauth.Record{}, fmt.Errorf("server %q is not a remote (http or sse) server: only those sign in", name)
	case s.auth == nil:
		return oauth.Record{}, fmt.Errorf("server %q does not sign in with OAuth: it has an Authorization header in %s", name, s.spec.Source)
	}
	s.auth.ForceSignIn(signIn)
	defer s.auth.EndForce()
	if err := m.Restart(ctx, name); err != nil {
		return oauth.Record{}, err
	}
	rec, ok := s.auth.SignedIn()
	if !ok {
		return oauth.Record{}, fmt.Errorf("server %q: %w, so there is nothing to sign in to", name, ErrNoSignIn)
	}
	return rec, nil
}
