package oauth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/mcphost/mcphost/config"
)

const (
	// refreshMargin: a token that expires within it is refreshed before it
	// is sent, so that a request never goes out with a token about to die.
	refreshMargin = time.Minute
	// maxSignIns bounds the sign-ins one Client makes, whatever a server
	// answers: a server that keeps refusing fresh tokens must not keep
	// sending the user to the browser.
	maxSignIns = 3
	// metadataTimeout bounds each request to the authorization server.
	metadataTimeout = 30 * time.Second
)

// Config describes the server a Client signs in to.
type Config struct {
	// Server is the server's name, URL its MCP endpoint.
	Server, URL string
	// OAuth is the server's client configuration; nil means dynamic
	// client registration.
	OAuth *config.OAuth
	// Store keeps the sign-ins; nil means an empty store in no file, so
	// nothing is kept.
	Store *Store
	// HTTP makes the requests to the authorization server and the
	// metadata endpoints; nil means a client of its own with a timeout.
	HTTP *http.Client
	// SignIn shows the user a sign-in's URL; nil means the Client never
	// signs in by itself: a server that wants a sign-in fails its request
	// with a *SignInError.
	SignIn SignInFunc
	// OnSecret receives every secret the Client learns (tokens, a
	// registered client's secret), for masking.
	OnSecret func(...string)
	// ClientName is the name mcphost registers under ("mcphost").
	ClientName string
	// Logger receives debug logs (never a token); nil discards them.
	Logger *slog.Logger
}

// Client holds the sign-in of one server: it adds the server's token to
// the requests mcphost makes to it (Transport), refreshes the token before
// it expires and when the server refuses it, and signs in again (through
// Config.SignIn) when the server asks, once per request. It is safe for
// concurrent use.
type Client struct {
	cfg    Config
	origin Origin
	// flow serialises refreshes and sign-ins; a request waiting for one
	// still honours its context.
	flow chan struct{}

	mu     sync.Mutex
	loaded bool
	rec    *Record // the sign-in in use; nil when there is none
	gen    uint64  // grows with every new token
	// force ignores the stored sign-in until a new one is made
	// (auth login).
	force    bool
	signIn   SignInFunc
	signIns  int
	problem  error
	signedIn bool // a sign-in was made by this Client
}

// New returns the Client of one server.
func New(cfg Config) *Client {
	if cfg.Store == nil {
		cfg.Store = &Store{}
	}
	if cfg.HTTP == nil {
		cfg.HTTP = &http.Client{Timeout: metadataTimeout}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.OnSecret == nil {
		cfg.OnSecret = func(...string) {}
	}
	if cfg.ClientName == "" {
		cfg.ClientName = "mcphost"
	}
	c := &Client{cfg: cfg, flow: make(chan struct{}, 1), signIn: cfg.SignIn}
	if u, err := url.Parse(cfg.URL); err == nil {
		c.origin = OriginOf(u)
	}
	return c
}

// ForceSignIn makes the Client ignore the stored sign-in and sign in anew,
// through f, at the server's first challenge; after that sign-in it goes
// back to Config.SignIn.
func (c *Client) ForceSignIn(f SignInFunc) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.force, c.signIn, c.signIns = true, f, 0
}

// Forcing reports whether the Client is waiting to sign in anew
// (ForceSignIn).
func (c *Client) Forcing() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.force
}

// EndForce ends a ForceSignIn that the server never answered with a
// challenge: the stored sign-in is used again, and sign-ins go back to
// Config.SignIn.
func (c *Client) EndForce() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.force, c.signIn = false, c.cfg.SignIn
}

// SignedIn reports whether this Client has made a sign-in, and returns it.
func (c *Client) SignedIn() (Record, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.signedIn || c.rec == nil {
		return Record{}, false
	}
	return *c.rec, true
}

// Problem returns the last *SignInError of a request, nil if none: why
// the server could not be used. It is cleared as it is returned, so that
// an old problem is not taken for the cause of a later failure.
func (c *Client) Problem() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.problem
	c.problem = nil
	return p
}

// Transport returns a RoundTripper that sends requests through base with
// the server's token. The token goes only to the server's origin (scheme,
// host and port): requests elsewhere (a redirect to another host) go as
// they are.
func (c *Client) Transport(base http.RoundTripper) http.RoundTripper {
	return &transport{c: c, base: base}
}

type transport struct {
	c    *Client
	base http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	c := t.c
	if OriginOf(req.URL) != c.origin {
		return t.base.RoundTrip(req)
	}
	ctx := req.Context()
	tok, gen, hasRecord := c.current(ctx)
	resp, err := t.send(req, tok)
	if err != nil {
		return nil, err
	}
	ch := challengeOf(resp)
	switch {
	case ch.kind == challengeNone:
		return resp, nil
	case !ch.bearer && !hasRecord:
		// Not an OAuth server, as far as it says: its other credentials
		// (configured headers) were refused.
		return resp, nil
	case req.Body != nil && req.Body != http.NoBody && req.GetBody == nil:
		return resp, nil // the request could not be sent again
	}
	if err := c.recover(ctx, req, resp, gen, ch); err != nil {
		return nil, err
	}
	again := req
	if req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return nil, err
		}
		again = req.Clone(ctx)
		again.Body = body
	}
	tok, _, _ = c.current(ctx)
	resp, err = t.send(again, tok)
	if err != nil {
		return nil, err
	}
	// Once per request: a server that refuses what it just asked for is
	// not asked again.
	if ch := challengeOf(resp); ch.kind != challengeNone && (ch.bearer || hasRecord) {
		drain(resp)
		return nil, c.fail(&SignInError{Server: c.cfg.Server, Reason: refusedReason(ch)})
	}
	return resp, nil
}

// send sends req with the token tok, if any, on a copy: a RoundTripper
// must not modify its request, and a redirect built from it must not
// carry the token.
func (t *transport) send(req *http.Request, tok string) (*http.Response, error) {
	if tok != "" {
		req = req.Clone(req.Context())
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	return t.base.RoundTrip(req)
}

// current returns the token to send, refreshed first when it is about to
// expire, the generation of the token, and whether there is a sign-in at
// all.
func (c *Client) current(ctx context.Context) (string, uint64, bool) {
	c.mu.Lock()
	if c.force {
		defer c.mu.Unlock()
		return "", c.gen, false
	}
	if !c.loaded {
		rec, err := c.cfg.Store.Find(c.cfg.Server, c.cfg.URL)
		if err != nil {
			c.cfg.Logger.Warn("cannot read the stored sign-ins", "server", c.cfg.Server, "error", err)
		}
		c.loaded, c.rec = true, rec
		if rec != nil {
			c.cfg.OnSecret(rec.secrets()...)
		}
	}
	rec, gen := c.rec, c.gen
	c.mu.Unlock()
	if rec == nil {
		return "", gen, false
	}
	if rec.fresh(time.Now(), refreshMargin) || rec.RefreshToken == "" {
		return rec.AccessToken, gen, true
	}
	if c.acquire(ctx) == nil {
		if c.generation() == gen {
			if err := c.refresh(ctx, rec); err != nil {
				c.cfg.Logger.Debug("refreshing the token before it expires failed", "server", c.cfg.Server, "error", err)
			}
		}
		c.release()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rec == nil {
		return "", c.gen, false
	}
	return c.rec.AccessToken, c.gen, true
}

func (c *Client) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

func (c *Client) acquire(ctx context.Context) error {
	select {
	case c.flow <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *Client) release() { <-c.flow }

// recover gets a token the server may take after it answered resp with
// ch: a refreshed one, else a new sign-in. The response is closed.
func (c *Client) recover(ctx context.Context, req *http.Request, resp *http.Response, gen uint64, ch challenge) error {
	defer drain(resp)
	if err := c.acquire(ctx); err != nil {
		return err
	}
	defer c.release()
	c.mu.Lock()
	if c.gen != gen {
		c.mu.Unlock()
		return nil // another request got a new token meanwhile: try it
	}
	rec, force := c.rec, c.force
	c.mu.Unlock()

	if ch.kind == challengeUnauthorized && rec != nil && rec.RefreshToken != "" && !force {
		err := c.refresh(ctx, rec)
		if err == nil {
			return nil
		}
		c.cfg.Logger.Debug("refreshing the refused token failed", "server", c.cfg.Server, "error", err)
	}
	var more []string
	reason := ReasonNeeded
	if rec != nil {
		reason = ReasonExpired
	}
	if ch.kind == challengeScope {
		reason = ReasonScopes
		if rec != nil && !force {
			have := union(rec.Scopes, rec.Wanted)
			if len(ch.scopes) > 0 && subset(ch.scopes, have) {
				// A new sign-in would ask for what the token has already.
				return c.fail(&SignInError{Server: c.cfg.Server, Reason: refusedReason(ch)})
			}
		}
		more = ch.scopes
	}
	return c.signInNow(ctx, req, resp, rec, reason, more)
}

// signInNow signs in, or without a way to reach the user fails with a
// *SignInError (and remembers the scopes the server wanted, for the next
// sign-in).
func (c *Client) signInNow(ctx context.Context, req *http.Request, resp *http.Response, rec *Record, reason Reason, more []string) error {
	c.mu.Lock()
	signIn, n := c.signIn, c.signIns
	c.mu.Unlock()
	if signIn == nil {
		if rec != nil && len(more) > 0 {
			_ = c.cfg.Store.Update(ctx, rec.Server, rec.Resource, func(cur *Record) (*Record, error) {
				if cur == nil {
					return nil, nil
				}
				cur.Wanted = union(cur.Wanted, more)
				return cur, nil
			})
		}
		return c.fail(&SignInError{Server: c.cfg.Server, Reason: reason, Scopes: more})
	}
	if n >= maxSignIns {
		return c.fail(&SignInError{Server: c.cfg.Server, Reason: ReasonLoop})
	}
	f := &flow{
		server: c.cfg.Server, serverURL: c.cfg.URL, oauth: c.cfg.OAuth, http: c.cfg.HTTP,
		signIn: signIn, clientName: c.cfg.ClientName,
	}
	if rec != nil {
		f.prior = union(rec.Scopes, rec.Wanted)
	}
	c.cfg.Logger.Debug("signing in", "server", c.cfg.Server, "reason", string(reason), "scopes", strings.Join(more, " "))
	c.mu.Lock()
	c.signIns++
	c.mu.Unlock()
	next, err := f.run(ctx, req, resp)
	if err != nil {
		return c.fail(&SignInError{Server: c.cfg.Server, Reason: ReasonFailed, Err: err})
	}
	c.cfg.OnSecret(next.secrets()...)
	if err := c.cfg.Store.Save(ctx, *next); err != nil {
		// The token still serves this run.
		c.cfg.Logger.Warn("cannot keep the sign-in", "server", c.cfg.Server, "error", err)
	}
	c.mu.Lock()
	c.rec, c.loaded, c.force, c.signedIn, c.problem = next, true, false, true, nil
	c.gen++
	c.signIn = c.cfg.SignIn
	c.mu.Unlock()
	return nil
}

// refresh gets a new access token with rec's refresh token, under the
// store's lock: when another mcphost refreshed it meanwhile (and the
// authorization server rotated the refresh token), its token is taken
// instead.
func (c *Client) refresh(ctx context.Context, rec *Record) error {
	var fresh *Record
	err := c.cfg.Store.Update(ctx, rec.Server, rec.Resource, func(cur *Record) (*Record, error) {
		if cur != nil && cur.AccessToken != rec.AccessToken && cur.fresh(time.Now(), refreshMargin) {
			fresh = cur
			return nil, nil
		}
		base := rec
		if cur != nil && cur.RefreshToken != "" {
			base = cur
		}
		tok, err := refreshToken(ctx, c.cfg.HTTP, base)
		if err != nil {
			return nil, err
		}
		next := *base
		next.setToken(tok)
		fresh = &next
		if cur == nil {
			return nil, nil // logged out meanwhile: use it, keep nothing
		}
		return &next, nil
	})
	if err != nil && fresh == nil {
		return err
	}
	if err != nil {
		c.cfg.Logger.Warn("cannot keep the refreshed token", "server", c.cfg.Server, "error", err)
	}
	c.cfg.Logger.Debug("token refreshed", "server", c.cfg.Server, "expires", fresh.Expiry)
	c.cfg.OnSecret(fresh.secrets()...)
	c.mu.Lock()
	c.rec = fresh
	c.gen++
	c.mu.Unlock()
	return nil
}

// refreshToken asks rec's token endpoint for a new token, naming the
// resource as the authorization request did (RFC 8707).
func refreshToken(ctx context.Context, hc *http.Client, rec *Record) (*oauth2.Token, error) {
	cfg := &oauth2.Config{
		ClientID: rec.ClientID, ClientSecret: rec.ClientSecret,
		Endpoint: oauth2.Endpoint{AuthURL: rec.AuthURL, TokenURL: rec.TokenURL, AuthStyle: rec.AuthStyle},
	}
	withResource := &http.Client{
		Timeout:   hc.Timeout,
		Transport: &resourceParam{base: hc.Transport, tokenURL: rec.TokenURL, resource: rec.Resource},
	}
	ctx = context.WithValue(ctx, oauth2.HTTPClient, withResource)
	return cfg.TokenSource(ctx, &oauth2.Token{RefreshToken: rec.RefreshToken}).Token()
}

// resourceParam adds the resource parameter to refresh requests, which
// oauth2 builds without it.
type resourceParam struct {
	base               http.RoundTripper
	tokenURL, resource string
}

func (t *resourceParam) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.base
	if base == nil {
		base = http.DefaultTransport
	}
	if req.Method != http.MethodPost || req.URL.String() != t.tokenURL || req.Body == nil || t.resource == "" {
		return base.RoundTrip(req)
	}
	data, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	form, err := url.ParseQuery(string(data))
	if err == nil && form.Get("grant_type") == "refresh_token" && form.Get("resource") == "" {
		form.Set("resource", t.resource)
		data = []byte(form.Encode())
	}
	req = req.Clone(req.Context())
	req.Body = io.NopCloser(bytes.NewReader(data))
	req.ContentLength = int64(len(data))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
	return base.RoundTrip(req)
}

// fail records err as the Client's problem and returns it.
func (c *Client) fail(err *SignInError) error {
	c.mu.Lock()
	c.problem = err
	c.mu.Unlock()
	return err
}

// challengeKind is what a response asks of the client.
type challengeKind int

const (
	challengeNone         challengeKind = iota
	challengeUnauthorized               // 401: a (new) token
	challengeScope                      // 403 insufficient_scope: more scopes
)

// challenge is a refusal that a sign-in may answer.
type challenge struct {
	kind   challengeKind
	bearer bool // the server asked for a Bearer token: it speaks OAuth
	scopes []string
	desc   string
}

// challengeOf reads resp's status and WWW-Authenticate.
func challengeOf(resp *http.Response) challenge {
	if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
		return challenge{}
	}
	var ch challenge
	cs, _ := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	errCode := ""
	for _, c := range cs {
		if c.Scheme != "bearer" {
			continue
		}
		ch.bearer = true
		if ch.scopes == nil {
			ch.scopes = strings.Fields(c.Params["scope"])
		}
		if errCode == "" {
			errCode, ch.desc = c.Params["error"], c.Params["error_description"]
		}
	}
	switch {
	case resp.StatusCode == http.StatusUnauthorized:
		ch.kind = challengeUnauthorized
	case errCode == "insufficient_scope":
		ch.kind = challengeScope
	}
	return ch
}

// refusedReason words a refusal of a token that was just obtained.
func refusedReason(ch challenge) Reason {
	if ch.kind == challengeScope {
		return ReasonScopesRefused
	}
	return ReasonRefused
}

// drain reads what is left of a body (so that the connection can be used
// again) and closes it.
func drain(resp *http.Response) {
	if resp == nil || resp.Body == nil {
		return
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
}

func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func subset(a, b []string) bool {
	for _, s := range a {
		if !slices.Contains(b, s) {
			return false
		}
	}
	return true
}

// Reason says why a server cannot be used without a (new) sign-in.
type Reason string

// The reasons of a SignInError.
const (
	ReasonNeeded        Reason = "needs a sign-in"
	ReasonExpired       Reason = "needs a new sign-in: its token expired or was revoked, and could not be refreshed"
	ReasonScopes        Reason = "needs a sign-in with more permissions"
	ReasonRefused       Reason = "refused the token it was just given"
	ReasonScopesRefused Reason = "still refuses the request with the permissions it asked for"
	ReasonFailed        Reason = "could not be signed in to"
	ReasonLoop          Reason = "asked for a sign-in again and again"
)

// SignInError is a server that could not be used for want of a sign-in:
// none was stored and none could be made, or it failed.
type SignInError struct {
	Server string
	Reason Reason
	// Scopes are the scopes the server asked for, with ReasonScopes.
	Scopes []string
	// Err is why a sign-in failed, with ReasonFailed.
	Err error
}

func (e *SignInError) Error() string {
	msg := fmt.Sprintf("server %q %s", e.Server, e.Reason)
	if len(e.Scopes) > 0 {
		msg += fmt.Sprintf(" (scopes %q)", strings.Join(e.Scopes, " "))
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *SignInError) Unwrap() error { return e.Err }

// NeedsSignIn reports whether signing in (mcphost auth login) is what the
// user should do about e.
func (e *SignInError) NeedsSignIn() bool {
	switch e.Reason {
	case ReasonNeeded, ReasonExpired, ReasonScopes:
		return true
	}
	return false
}

// ErrSignIn matches every *SignInError under errors.Is.
var ErrSignIn = errors.New("sign-in needed")

func (e *SignInError) Is(target error) bool { return target == ErrSignIn }
