package host

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/mcphost/mcphost/internal/servers/oauth"
)

// SignIn describes a stored OAuth sign-in, without its secrets.
type SignIn struct {
	// Server is the server's name; Resource what the token is for (the
	// server's URL, or its origin).
	Server, Resource string
	// Scopes are the scopes granted.
	Scopes []string
	// Expires is when the access token expires (zero: it did not say);
	// Refreshable whether a refresh token renews it then.
	Expires     time.Time
	Refreshable bool
	// SignedInAt is when the sign-in was made.
	SignedInAt time.Time
	// AuthServer is the authorization server's token endpoint.
	AuthServer string
}

func signInOf(r oauth.Record) SignIn {
	return SignIn{
		Server: r.Server, Resource: r.Resource, Scopes: slices.Clone(r.Scopes),
		Expires: r.Expiry, Refreshable: r.RefreshToken != "", SignedInAt: r.SignedInAt, AuthServer: r.TokenURL,
	}
}

// Login signs in to the remote server name with OAuth: signIn is given
// the authorization URL to show the user (and open in a browser), and the sign-in waits for the browser to come
// back, five minutes at most (ctx may end it sooner). The server is
// restarted with the new token and its sign-in is kept for later runs.
// A server that does not ask for a sign-in is an error matching
// [ErrNoSignIn] (it is ready all the same).
func (h *Host) Login(ctx context.Context, name string, signIn func(ctx context.Context, server, url string) error) (SignIn, error) {
	if signIn == nil {
		return SignIn{}, errors.New("signing in needs a function that shows the sign-in's URL to the person")
	}
	rec, err := guard(h, ctx, func(ctx context.Context) (oauth.Record, error) { return h.manager.Login(ctx, name, signIn) })
	if err != nil {
		return SignIn{}, hostError(err)
	}
	return signInOf(rec), nil
}

// SignIns lists the stored sign-ins, of every server (configured here or
// not), by server and resource.
func (h *Host) SignIns() ([]SignIn, error) {
	recs, err := h.signIns.List()
	if err != nil {
		return nil, err
	}
	out := make([]SignIn, len(recs))
	for i, r := range recs {
		out[i] = signInOf(r)
	}
	return out, nil
}

// Logout forgets the stored sign-ins of server name and returns them;
// none is not an error. A server of this Host that is running keeps its
// token until it restarts.
func (h *Host) Logout(ctx context.Context, name string) ([]SignIn, error) {
	gone, err := h.signIns.Remove(ctx, name)
	out := make([]SignIn, len(gone))
	for i, r := range gone {
		out[i] = signInOf(r)
	}
	return out, err
}
