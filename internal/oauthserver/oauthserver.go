// Package oauthserver runs, for tests, an MCP server that wants an OAuth
// sign-in and the authorization server that signs users in to it, in the
// spirit of net/http/httptest: both listen on loopback ports of their own
// (two origins), the authorization server approves every request at once
// (the browser only has to follow its redirect), and both record what
// they were sent, so tests can check what mcphost did on the wire.
//
// The MCP server is the go-sdk's Streamable HTTP handler behind a bearer
// token check: a request without a valid token gets 401 with the
// protected resource metadata URL (RFC 9728) in WWW-Authenticate; with
// Options.StepUpScope, tools/call needs one more scope and gets 403
// insufficient_scope without it. Its tool whoami answers who the token
// belongs to and its scopes.
//
// The authorization server publishes RFC 8414 metadata, registers clients
// (RFC 7591) unless a pre-registered one is configured, and issues tokens
// for the authorization code grant (PKCE S256 and the resource indicator
// required) and the refresh token grant.
package oauthserver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// User is who the authorization server signs in.
const User = "alice"

// Options configure a Server.
type Options struct {
	// Scopes are the scopes the MCP server names in its challenge and
	// metadata; every token carries the ones asked for.
	Scopes []string
	// StepUpScope, when not empty, is needed on top of Scopes for
	// tools/call.
	StepUpScope string
	// TokenLifetime is the expires_in of access tokens; 0 means an hour.
	TokenLifetime time.Duration
	// ClientID and ClientSecret, when set, are the one client the
	// authorization server knows: registration is off.
	ClientID, ClientSecret string
	// SSE serves the legacy HTTP+SSE transport at URL instead of
	// Streamable HTTP (the stream and its messages, both checked).
	SSE bool
}

// Request is one request a server received.
type Request struct {
	// Server is "mcp", "auth" or "elsewhere".
	Server        string
	Method, Path  string
	Authorization string
	// Form is the body of a form POST (the token endpoint's), else the
	// query.
	Form url.Values
	// RPC is the JSON-RPC method of a POST to the MCP endpoint.
	RPC string
}

// Server is a running MCP server and its authorization server.
type Server struct {
	// URL is the MCP endpoint, AuthURL the authorization server (its
	// issuer), ElsewhereURL an MCP endpoint on a third origin that needs
	// no token (see RedirectElsewhere).
	URL, AuthURL, ElsewhereURL string

	opts                 Options
	mcp, auth, elsewhere *httptest.Server
	mu                   sync.Mutex
	requests             []Request
	tokens               map[string]grant // access token → grant
	refresh              map[string]grant // refresh token → grant
	codes                map[string]codeGrant
	clients              map[string]client
	redirect             bool
	next                 int
	revokedBefore        int
}

type grant struct {
	scopes  []string
	expires time.Time
	serial  int
	client  string
}

type codeGrant struct {
	client, redirect, challenge, resource string
	scopes                                []string
}

type client struct{ secret, redirect string }

// New starts the servers; they are closed when the test ends.
func New(t testing.TB, opts Options) *Server {
	t.Helper()
	if opts.TokenLifetime == 0 {
		opts.TokenLifetime = time.Hour
	}
	s := &Server{opts: opts, tokens: map[string]grant{}, refresh: map[string]grant{}, codes: map[string]codeGrant{}, clients: map[string]client{}}
	if opts.ClientID != "" {
		s.clients[opts.ClientID] = client{secret: opts.ClientSecret}
	}
	s.auth = httptest.NewServer(s.record("auth", s.authHandler()))
	s.mcp = httptest.NewServer(s.record("mcp", s.mcpHandler()))
	s.elsewhere = httptest.NewServer(s.record("elsewhere", mcpHandler("nobody (no token)")))
	s.URL, s.AuthURL, s.ElsewhereURL = s.mcp.URL+"/mcp", s.auth.URL, s.elsewhere.URL+"/mcp"
	t.Cleanup(func() {
		s.mcp.Close()
		s.auth.Close()
		s.elsewhere.Close()
	})
	return s
}

// Requests returns what the servers received, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Revoke makes every token issued so far invalid at the MCP server (the
// refresh tokens stay good), as when a token is revoked early.
func (s *Server) Revoke() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.revokedBefore = s.next
}

// RedirectElsewhere makes the MCP endpoint answer every request that has a
// valid token with a redirect (307) to ElsewhereURL, another origin.
func (s *Server) RedirectElsewhere(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.redirect = on
}

// record logs each request before handing it on.
func (s *Server) record(name string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		req := Request{Server: name, Method: r.Method, Path: r.URL.Path, Authorization: r.Header.Get("Authorization"), Form: r.URL.Query()}
		if strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
			req.Form, _ = url.ParseQuery(string(body))
		}
		var msg struct {
			Method string `json:"method"`
		}
		if json.Unmarshal(body, &msg) == nil {
			req.RPC = msg.Method
		}
		s.mu.Lock()
		s.requests = append(s.requests, req)
		s.mu.Unlock()
		next.ServeHTTP(w, r)
	})
}

// mcpHandler is an MCP server whose whoami tool answers who.
func mcpHandler(who string) http.Handler {
	srv := mcp.NewServer(&mcp.Implementation{Name: "oauth-test", Version: "1.0.0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "whoami", Description: "who the token belongs to", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		text := who
		if id, ok := ctx.Value(identityKey{}).(string); ok {
			text = id
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
	})
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
}

// sseHandler is an MCP server over the legacy SSE transport, whose
// whoami answers "signed in over SSE": only requests with a valid token
// reach it.
func sseHandler() http.Handler {
	srv := mcp.NewServer(&mcp.Implementation{Name: "oauth-test", Version: "1.0.0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "whoami", Description: "who the token belongs to", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "signed in over SSE"}}}, nil, nil
	})
	return mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return srv }, nil)
}

type identityKey struct{}

func (s *Server) prmURL() string { return s.mcp.URL + "/.well-known/oauth-protected-resource/mcp" }

// mcpHandler checks the token of every request to the MCP endpoint.
func (s *Server) mcpHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"resource": s.URL, "authorization_servers": []string{s.AuthURL}, "scopes_supported": s.opts.Scopes})
	})
	inner := mcpHandler("")
	if s.opts.SSE {
		inner = sseHandler()
	}
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			Method string `json:"method"`
		}
		_ = json.Unmarshal(body, &msg)
		g, ok := s.verify(r.Header.Get("Authorization"))
		if !ok {
			challenge := fmt.Sprintf("Bearer resource_metadata=%q", s.prmURL())
			if len(s.opts.Scopes) > 0 {
				challenge += fmt.Sprintf(", scope=%q", strings.Join(s.opts.Scopes, " "))
			}
			w.Header().Set("WWW-Authenticate", challenge)
			http.Error(w, "invalid or missing token", http.StatusUnauthorized)
			return
		}
		if msg.Method == "tools/call" && s.opts.StepUpScope != "" && !slices.Contains(g.scopes, s.opts.StepUpScope) {
			want := append(slices.Clone(s.opts.Scopes), s.opts.StepUpScope)
			w.Header().Set("WWW-Authenticate", fmt.Sprintf("Bearer error=\"insufficient_scope\", scope=%q, resource_metadata=%q", strings.Join(want, " "), s.prmURL()))
			http.Error(w, "insufficient scope", http.StatusForbidden)
			return
		}
		s.mu.Lock()
		redirect := s.redirect
		s.mu.Unlock()
		if redirect {
			http.Redirect(w, r, s.ElsewhereURL, http.StatusTemporaryRedirect)
			return
		}
		id := fmt.Sprintf("%s, scopes %q, token %d", User, strings.Join(g.scopes, " "), g.serial)
		inner.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), identityKey{}, id)))
	})
	return mux
}

// verify checks an Authorization header.
func (s *Server) verify(header string) (grant, bool) {
	tok, ok := strings.CutPrefix(header, "Bearer ")
	if !ok {
		return grant{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.tokens[tok]
	if !ok || g.serial < s.revokedBefore || time.Now().After(g.expires) {
		return grant{}, false
	}
	return g, true
}

// authHandler is the authorization server.
func (s *Server) authHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		meta := map[string]any{
			"issuer":                                s.AuthURL,
			"authorization_endpoint":                s.AuthURL + "/authorize",
			"token_endpoint":                        s.AuthURL + "/token",
			"response_types_supported":              []string{"code"},
			"grant_types_supported":                 []string{"authorization_code", "refresh_token"},
			"code_challenge_methods_supported":      []string{"S256"},
			"token_endpoint_auth_methods_supported": []string{"client_secret_basic", "client_secret_post", "none"},
			"scopes_supported":                      append(slices.Clone(s.opts.Scopes), "offline_access"),
		}
		if s.opts.ClientID == "" {
			meta["registration_endpoint"] = s.AuthURL + "/register"
		}
		writeJSON(w, meta)
	})
	mux.HandleFunc("POST /register", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			RedirectURIs []string `json:"redirect_uris"`
		}
		if json.NewDecoder(r.Body).Decode(&req) != nil || len(req.RedirectURIs) != 1 {
			oauthError(w, http.StatusBadRequest, "invalid_client_metadata", "one redirect URI, please")
			return
		}
		s.mu.Lock()
		s.next++
		id, secret := fmt.Sprintf("client-%d", s.next), fmt.Sprintf("secret-%d-%d", s.next, time.Now().UnixNano())
		s.clients[id] = client{secret: secret, redirect: req.RedirectURIs[0]}
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(map[string]any{"client_id": id, "client_secret": secret, "redirect_uris": req.RedirectURIs, "token_endpoint_auth_method": "client_secret_basic"})
	})
	mux.HandleFunc("GET /authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		s.mu.Lock()
		c, known := s.clients[q.Get("client_id")]
		s.mu.Unlock()
		redirect := q.Get("redirect_uri")
		switch {
		case !known:
			http.Error(w, "unknown client", http.StatusBadRequest)
			return
		case c.redirect != "" && c.redirect != redirect:
			http.Error(w, "redirect_uri is not the registered one", http.StatusBadRequest)
			return
		case q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("resource") != s.URL:
			http.Error(w, "PKCE S256 and resource="+s.URL+" are required", http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.next++
		code := fmt.Sprintf("code-%d", s.next)
		s.codes[code] = codeGrant{client: q.Get("client_id"), redirect: redirect, challenge: q.Get("code_challenge"), resource: q.Get("resource"), scopes: strings.Fields(q.Get("scope"))}
		s.mu.Unlock()
		u, err := url.Parse(redirect)
		if err != nil {
			http.Error(w, "bad redirect_uri", http.StatusBadRequest)
			return
		}
		back := u.Query()
		back.Set("code", code)
		back.Set("state", q.Get("state"))
		u.RawQuery = back.Encode()
		http.Redirect(w, r, u.String(), http.StatusFound)
	})
	mux.HandleFunc("POST /token", s.token)
	return mux
}

// token is the token endpoint.
func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", err.Error())
		return
	}
	id, secret, ok := r.BasicAuth()
	if !ok {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, known := s.clients[id]
	if !known || (c.secret != "" && c.secret != secret) {
		oauthError(w, http.StatusUnauthorized, "invalid_client", "unknown client or wrong secret")
		return
	}
	if r.PostForm.Get("resource") != s.URL {
		oauthError(w, http.StatusBadRequest, "invalid_target", "resource must be "+s.URL)
		return
	}
	var scopes []string
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		g, ok := s.codes[r.PostForm.Get("code")]
		delete(s.codes, r.PostForm.Get("code"))
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		switch {
		case !ok || g.client != id || g.redirect != r.PostForm.Get("redirect_uri"):
			oauthError(w, http.StatusBadRequest, "invalid_grant", "unknown code")
			return
		case base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge:
			oauthError(w, http.StatusBadRequest, "invalid_grant", "code_verifier does not match")
			return
		}
		scopes = g.scopes
	case "refresh_token":
		g, ok := s.refresh[r.PostForm.Get("refresh_token")]
		if !ok || g.client != id {
			oauthError(w, http.StatusBadRequest, "invalid_grant", "unknown refresh token")
			return
		}
		delete(s.refresh, r.PostForm.Get("refresh_token")) // rotated
		scopes = g.scopes
	default:
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type", r.PostForm.Get("grant_type"))
		return
	}
	s.next++
	g := grant{scopes: scopes, expires: time.Now().Add(s.opts.TokenLifetime), serial: s.next, client: id}
	access := fmt.Sprintf("access-%d-%d", s.next, time.Now().UnixNano())
	s.tokens[access] = g
	out := map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": int(s.opts.TokenLifetime.Seconds()), "scope": strings.Join(scopes, " ")}
	if slices.Contains(scopes, "offline_access") {
		refresh := fmt.Sprintf("refresh-%d-%d", s.next, time.Now().UnixNano())
		s.refresh[refresh] = g
		out["refresh_token"] = refresh
	}
	writeJSON(w, out)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func oauthError(w http.ResponseWriter, code int, name, desc string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": name, "error_description": desc})
}
