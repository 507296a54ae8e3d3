package oauth_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/oauthserver"
	"github.com/mcphost/mcphost/internal/servers/oauth"
)

// follow is a browser that approves at once: it fetches the URL and
// follows the authorization server's redirect back to mcphost.
func follow(t *testing.T, opened *atomic.Int32) oauth.SignInFunc {
	return func(ctx context.Context, server, url string) error {
		opened.Add(1)
		go func() {
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Logf("browser: %v", err)
				return
			}
			resp.Body.Close()
		}()
		return nil
	}
}

// whoami connects to the server through c and calls whoami.
func whoami(t *testing.T, srv *oauthserver.Server, c *oauth.Client) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	hc := &http.Client{Transport: c.Transport(http.DefaultTransport)}
	client := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil)
	sess, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: hc}, nil)
	if err != nil {
		return "", err
	}
	defer sess.Close()
	res, err := sess.CallTool(ctx, &mcp.CallToolParams{Name: "whoami"})
	if err != nil {
		return "", err
	}
	return res.Content[0].(*mcp.TextContent).Text, nil
}

// hasScopes reports whether whoami's answer names exactly these scopes,
// in any order (the go-sdk orders them as a map does).
func hasScopes(whoami string, want ...string) bool {
	_, rest, ok := strings.Cut(whoami, `scopes "`)
	got, _, ok2 := strings.Cut(rest, `"`)
	if !ok || !ok2 {
		return false
	}
	fields := strings.Fields(got)
	slices.Sort(fields)
	want = slices.Clone(want)
	slices.Sort(want)
	return slices.Equal(fields, want)
}

func TestSignInStoreRefreshAndStepUp(t *testing.T) {
	srv := oauthserver.New(t, oauthserver.Options{Scopes: []string{"mcp:read"}, StepUpScope: "mcp:write", TokenLifetime: 30 * time.Second})
	store := &oauth.Store{Path: filepath.Join(t.TempDir(), "state", "oauth.json")}
	var opened atomic.Int32
	var secrets []string
	cfg := oauth.Config{Server: "remote", URL: srv.URL, Store: store, SignIn: follow(t, &opened), OnSecret: func(s ...string) { secrets = append(secrets, s...) }}

	// No sign-in stored: the first call signs in, the tool call steps up.
	got, err := whoami(t, srv, oauth.New(cfg))
	if err != nil {
		t.Fatal(err)
	}
	if !hasScopes(got, "mcp:read", "offline_access", "mcp:write") {
		t.Errorf("whoami = %q, want the stepped-up scopes", got)
	}
	if n := opened.Load(); n != 2 {
		t.Errorf("%d sign-ins, want 2 (the first, then the step-up)", n)
	}
	st, err := os.Stat(store.Path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("store mode %v, want 0600", st.Mode().Perm())
	}
	rec, err := store.Find("remote", srv.URL)
	if err != nil || rec == nil || rec.RefreshToken == "" || rec.Resource != srv.URL {
		t.Fatalf("stored %+v, %v", rec, err)
	}
	if !strings.Contains(strings.Join(secrets, " "), rec.AccessToken) {
		t.Error("the access token was not handed over for masking")
	}

	// A new client without a way to sign in uses the stored token; it
	// expires within the refresh margin, so it is refreshed first.
	cfg.SignIn = nil
	got, err = whoami(t, srv, oauth.New(cfg))
	if err != nil || !strings.Contains(got, "alice") {
		t.Fatalf("with the stored sign-in: %q, %v", got, err)
	}
	refreshed, _ := store.Find("remote", srv.URL)
	if refreshed.AccessToken == rec.AccessToken {
		t.Error("the token was not refreshed before it expired")
	}
	if opened.Load() != 2 {
		t.Error("a stored sign-in opened the browser")
	}
	var refreshes int
	for _, r := range srv.Requests() {
		if r.Server == "auth" && r.Form.Get("grant_type") == "refresh_token" {
			refreshes++
			if r.Form.Get("resource") != srv.URL {
				t.Errorf("refresh request without the resource: %v", r.Form)
			}
		}
		if r.Server == "auth" && strings.HasPrefix(r.Authorization, "Bearer") {
			t.Errorf("a bearer token went to the authorization server: %+v", r)
		}
	}
	if refreshes == 0 {
		t.Error("no refresh request")
	}

	// The server revokes the token: the 401 is answered by a refresh.
	srv.Revoke()
	if _, err := whoami(t, srv, oauth.New(cfg)); err != nil {
		t.Fatalf("after revocation: %v", err)
	}
}

func TestNoSignInWithoutAWayToAsk(t *testing.T) {
	srv := oauthserver.New(t, oauthserver.Options{})
	store := &oauth.Store{Path: filepath.Join(t.TempDir(), "oauth.json")}
	c := oauth.New(oauth.Config{Server: "remote", URL: srv.URL, Store: store})
	_, err := whoami(t, srv, c)
	var se *oauth.SignInError
	if !errors.As(c.Problem(), &se) || se.Reason != oauth.ReasonNeeded {
		t.Fatalf("problem %v (call error %v), want a sign-in needed", c.Problem(), err)
	}
	for _, r := range srv.Requests() {
		if r.Server == "auth" {
			t.Errorf("the authorization server was contacted: %+v", r)
		}
	}
}

func TestPreRegisteredClientAndConfiguredScopes(t *testing.T) {
	srv := oauthserver.New(t, oauthserver.Options{Scopes: []string{"mcp:read"}, ClientID: "mcphost-test", ClientSecret: "s3cret-value"})
	store := &oauth.Store{Path: filepath.Join(t.TempDir(), "oauth.json")}
	var opened atomic.Int32
	c := oauth.New(oauth.Config{Server: "remote", URL: srv.URL, Store: store, SignIn: follow(t, &opened),
		OAuth: &config.OAuth{ClientID: "mcphost-test", ClientSecret: "s3cret-value", Scopes: []string{"mcp:read", "extra"}}})
	got, err := whoami(t, srv, c)
	if err != nil {
		t.Fatal(err)
	}
	if !hasScopes(got, "mcp:read", "extra", "offline_access") {
		t.Errorf("whoami = %q, want the configured scopes", got)
	}
	for _, r := range srv.Requests() {
		if r.Path == "/register" {
			t.Error("a pre-registered client registered itself")
		}
	}
}

func TestSignInOverSSE(t *testing.T) {
	srv := oauthserver.New(t, oauthserver.Options{SSE: true})
	store := &oauth.Store{Path: filepath.Join(t.TempDir(), "oauth.json")}
	var opened atomic.Int32
	c := oauth.New(oauth.Config{Server: "legacy", URL: srv.URL, Store: store, SignIn: follow(t, &opened)})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	hc := &http.Client{Transport: c.Transport(http.DefaultTransport)}
	sess, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, &mcp.SSEClientTransport{Endpoint: srv.URL, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	res, err := sess.CallTool(ctx, &mcp.CallToolParams{Name: "whoami"})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != "signed in over SSE" {
		t.Errorf("whoami = %q", got)
	}
	if opened.Load() != 1 {
		t.Errorf("%d sign-ins, want 1", opened.Load())
	}
	var stream, posts int
	for _, r := range srv.Requests() {
		if r.Server != "mcp" || r.Path != "/mcp" || !strings.HasPrefix(r.Authorization, "Bearer ") {
			continue
		}
		if r.Method == http.MethodGet {
			stream++
		} else {
			posts++
		}
	}
	if stream == 0 || posts == 0 {
		t.Errorf("the token went with %d stream requests and %d messages; want both", stream, posts)
	}
}
