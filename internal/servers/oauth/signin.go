package oauth

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/mcphost/mcphost/config"
)

// callbackPath is where the authorization server sends the browser back.
const callbackPath = "/callback"

// SignInFunc shows the user the authorization URL of server's sign-in,
// and opens it in a browser where it can; it returns once it has, and the
// sign-in then waits for the browser to come back. An error ends the
// sign-in.
type SignInFunc func(ctx context.Context, server, url string) error

// flow is one authorization-code sign-in, run by the go-sdk's
// auth.AuthorizationCodeHandler: protected resource metadata and
// authorization server discovery, the client (a metadata document, a
// pre-registered client or dynamic registration), scopes, PKCE (S256)
// and the resource indicator. flow adds the user's side: the loopback
// listener the browser comes back to, and what to keep of the result.
type flow struct {
	server, serverURL string
	oauth             *config.OAuth // nil: a dynamically registered client
	http              *http.Client  // metadata, registration, token requests
	signIn            SignInFunc
	// prior are scopes granted or wanted before, which a new sign-in keeps.
	prior      []string
	clientName string
}

// callbackResult is what the browser brought back to the listener.
type callbackResult struct {
	code, state, iss string
	err              error
}

// run signs in after req was answered resp (a 401, or a 403 asking for
// more scopes), and returns the new sign-in.
func (f *flow) run(ctx context.Context, req *http.Request, resp *http.Response) (*Record, error) {
	port := 0
	if f.oauth != nil {
		port = f.oauth.RedirectPort
	}
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return nil, fmt.Errorf("cannot listen on 127.0.0.1:%d for the browser to come back to: %w", port, err)
	}
	redirect := fmt.Sprintf("http://127.0.0.1:%d%s", ln.Addr().(*net.TCPAddr).Port, callbackPath)
	results := make(chan callbackResult, 1)
	srv := &http.Server{Handler: f.callbackHandler(results), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	var (
		resource string
		cfg      *oauth2.Config
		tok      *oauth2.Token
	)
	hc := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL: redirect,
		AuthorizationCodeFetcher: func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			if u, err := url.Parse(args.URL); err == nil {
				resource = u.Query().Get("resource")
			}
			if err := f.signIn(ctx, f.server, args.URL); err != nil {
				return nil, err
			}
			select {
			case r := <-results:
				if r.err != nil {
					return nil, r.err
				}
				return &auth.AuthorizationResult{Code: r.code, State: r.state, Iss: r.iss}, nil
			case <-ctx.Done():
				return nil, fmt.Errorf("no sign-in came back from the browser: %w", context.Cause(ctx))
			}
		},
		ScopeFilter:         f.scopes,
		RequestRefreshToken: true,
		// A matching iss is only a confirmation; refusing it because the
		// server did not advertise it would fail sign-ins for nothing.
		AcceptUnadvertisedIss: true,
		Client:                f.http,
		NewTokenSource: func(ctx context.Context, c *oauth2.Config, t *oauth2.Token) (oauth2.TokenSource, error) {
			cfg, tok = c, t
			return oauth2.StaticTokenSource(t), nil
		},
	}
	if f.oauth != nil && f.oauth.ClientMetadataURL != "" {
		hc.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: f.oauth.ClientMetadataURL}
	}
	if f.oauth != nil && f.oauth.ClientID != "" {
		pre := &oauthex.ClientCredentials{ClientID: f.oauth.ClientID}
		if f.oauth.ClientSecret != "" {
			pre.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: f.oauth.ClientSecret}
		}
		hc.PreregisteredClient = pre
	} else {
		hc.DynamicClientRegistrationConfig = &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			RedirectURIs:  []string{redirect},
			ClientName:    f.clientName,
			GrantTypes:    []string{"authorization_code", "refresh_token"},
			ResponseTypes: []string{"code"},
		}}
	}
	h, err := auth.NewAuthorizationCodeHandler(hc)
	if err != nil {
		return nil, err
	}
	// The handler discovers the metadata from the server's URL: a request
	// on another endpoint of the server (SSE's message endpoint) must not
	// stand for the resource.
	probe := req.Clone(ctx)
	if probe.URL, err = url.Parse(f.serverURL); err != nil {
		return nil, err
	}
	if err := h.Authorize(ctx, probe, resp); err != nil {
		return nil, err
	}
	if cfg == nil || tok == nil {
		return nil, errors.New("the sign-in brought no token")
	}
	if resource == "" {
		resource = f.serverURL
	}
	rec := &Record{
		Server: f.server, Resource: resource,
		ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret, AuthStyle: cfg.Endpoint.AuthStyle,
		AuthURL: cfg.Endpoint.AuthURL, TokenURL: cfg.Endpoint.TokenURL,
		Scopes:     slices.Clone(cfg.Scopes),
		SignedInAt: time.Now().UTC().Truncate(time.Second),
	}
	rec.setToken(tok)
	return rec, nil
}

// scopes are the scopes to ask for: the configured ones, else the ones
// the server named (in its challenge, else its metadata), with those
// granted or wanted before, so that a step-up loses nothing.
func (f *flow) scopes(discovered []string) []string {
	if f.oauth != nil && len(f.oauth.Scopes) > 0 {
		discovered = f.oauth.Scopes
	}
	out := slices.Clone(f.prior)
	for _, s := range discovered {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// callbackHandler takes the browser's return: the first request to the
// callback path is the answer; the page tells the user to go back to
// mcphost.
func (f *flow) callbackHandler(results chan<- callbackResult) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+callbackPath, func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		res := callbackResult{code: q.Get("code"), state: q.Get("state"), iss: q.Get("iss")}
		title, text := "Signed in", "mcphost is signed in to "+f.server+". You can close this page."
		switch {
		case q.Get("error") != "":
			why := q.Get("error")
			if d := q.Get("error_description"); d != "" {
				why += ": " + d
			}
			res.err = fmt.Errorf("the authorization server refused the sign-in (%s)", why)
			title, text = "Sign-in refused", "The sign-in to "+f.server+" was refused ("+why+"). You can close this page."
		case res.code == "":
			res.err = errors.New("the browser came back without an authorization code")
			title, text = "Sign-in failed", "The sign-in to "+f.server+" brought no authorization code."
		}
		select {
		case results <- res:
		default:
			title, text = "Already answered", "This sign-in has been answered already. You can close this page."
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><title>%s</title><p>%s</p>\n", html.EscapeString(title), html.EscapeString(text))
	})
	return mux
}
