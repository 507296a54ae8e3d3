package e2e

// Remote servers that sign in with OAuth, through the binary: against a
// local authorization server and MCP server (mcptest/oauthserver), with
// this test binary as the browser ($BROWSER): it fetches the URL and
// follows the redirect back to mcphost, as a user approving at once.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcphost/mcphost/internal/oauthserver"
	"github.com/mcphost/mcphost/internal/servers/oauth"
	"github.com/mcphost/mcphost/ollamatest"
)

// fakeBrowserEnv names the file where the fake browser logs the URLs it
// opened; set, it makes the test binary the browser.
const fakeBrowserEnv = "MCPHOST_TEST_BROWSER"

// fakeBrowser logs url to log and fetches it, following redirects.
func fakeBrowser(log, url string) int {
	f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err == nil {
		fmt.Fprintln(f, url)
		f.Close()
	}
	client := &http.Client{Timeout: 20 * time.Second}
	resp, err := client.Get(url)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake browser:", err)
		return 1
	}
	resp.Body.Close()
	return 0
}

// authSetup is a user's home and project folder with the test server
// configured as "remote", and the environments of runs that can and
// cannot open a browser. The latter has a fake xdg-open first on PATH,
// which leaves a mark if anything runs it.
type authSetup struct {
	srv                  *oauthserver.Server
	home, dir            string
	browserLog, xdgMark  string
	withBrowser, noInter []string
}

func newAuthSetup(t *testing.T, opts oauthserver.Options) *authSetup {
	t.Helper()
	s := &authSetup{srv: oauthserver.New(t, opts), home: t.TempDir(), dir: t.TempDir()}
	writeConfig(t, s.dir, ".mcp.json", fmt.Sprintf(`{"mcpServers": {"remote": {"type": "http", "url": %q}}}`, s.srv.URL))
	tmp := t.TempDir()
	s.browserLog, s.xdgMark = filepath.Join(tmp, "browser.log"), filepath.Join(tmp, "xdg-open-ran")
	bin := filepath.Join(tmp, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\necho \"$@\" >> " + s.xdgMark + "\n"
	for _, name := range []string{"xdg-open", "open"} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	s.withBrowser = []string{"BROWSER=" + self, fakeBrowserEnv + "=" + s.browserLog}
	s.noInter = []string{"BROWSER=", "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}
	return s
}

func (s *authSetup) run(t *testing.T, env []string, args ...string) outcome {
	t.Helper()
	return runBinary(t, invocation{args: args, dir: s.dir, home: s.home, env: env})
}

// stored is the sign-in kept in the state directory.
func (s *authSetup) stored(t *testing.T) *oauth.Record {
	t.Helper()
	store := &oauth.Store{Path: filepath.Join(s.home, ".local", "state", "mcphost", "oauth.json")}
	rec, err := store.Find("remote", s.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// opened returns the URLs the fake browser opened so far.
func (s *authSetup) opened() []string {
	data, _ := os.ReadFile(s.browserLog)
	return strings.Fields(string(data))
}

// noBrowserOpened fails the test if the system's opener ran, or $BROWSER
// opened more than the want URLs so far.
func (s *authSetup) noBrowserOpened(t *testing.T, want int) {
	t.Helper()
	if data, err := os.ReadFile(s.xdgMark); err == nil {
		t.Errorf("the system's browser opener ran: %s", data)
	}
	if got := s.opened(); len(got) != want {
		t.Errorf("$BROWSER opened %d URLs, want %d: %q", len(got), want, got)
	}
}

func TestAuthLoginCallRefreshLogout(t *testing.T) {
	t.Parallel()
	// Tokens live 30 s: less than the refresh margin, so every later run
	// refreshes the token before it sends it.
	s := newAuthSetup(t, oauthserver.Options{Scopes: []string{"mcp:read"}, TokenLifetime: 30 * time.Second})

	// No sign-in, no terminal, no $BROWSER: the server fails to start with
	// one line saying what to do, nothing is opened, nothing reaches the
	// authorization server.
	out := s.run(t, s.noInter, "tools", "call", "remote__whoami")
	wantLine := `server "remote" needs a sign-in: run mcphost auth login remote`
	if out.code != exitNoServers || !strings.Contains(out.stderr, wantLine) {
		t.Fatalf("without a sign-in: exit %d, stderr %q; want %d and %q", out.code, out.stderr, exitNoServers, wantLine)
	}
	s.noBrowserOpened(t, 0)
	for _, r := range s.srv.Requests() {
		if r.Server == "auth" {
			t.Errorf("a run without a sign-in reached the authorization server: %+v", r)
		}
	}

	// auth login: the URL is printed, the browser opened and the token kept.
	// (mcphost lists the granted scopes sorted.)
	out = s.run(t, s.withBrowser, "auth", "login", "remote")
	if out.code != 0 || !strings.Contains(out.stdout, "Signed in to remote ("+s.srv.URL+"), scopes mcp:read offline_access") {
		t.Fatalf("auth login: exit %d\nstdout %q\nstderr %q", out.code, out.stdout, out.stderr)
	}
	if opened := s.opened(); len(opened) != 1 || !strings.Contains(out.stderr, opened[0]) {
		t.Errorf("the URL opened (%q) is not printed: %q", opened, out.stderr)
	}
	rec := s.stored(t)
	if rec == nil || rec.Resource != s.srv.URL || rec.RefreshToken == "" {
		t.Fatalf("stored sign-in %+v", rec)
	}
	st, err := os.Stat(filepath.Join(s.home, ".local", "state", "mcphost", "oauth.json"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("the sign-ins file: %v, mode %v; want 0600", err, st.Mode().Perm())
	}
	secrets := []string{rec.AccessToken, rec.RefreshToken, rec.ClientSecret}

	// A call with the stored sign-in, without a browser: the token is
	// refreshed first (it expires within the margin).
	out = s.run(t, s.noInter, "tools", "call", "remote__whoami", "--debug")
	if out.code != 0 || !strings.Contains(out.stdout, "alice, scopes") || !strings.Contains(out.stdout, "mcp:read") {
		t.Fatalf("call with the sign-in: exit %d\nstdout %q\nstderr %q", out.code, out.stdout, out.stderr)
	}
	refreshed := s.stored(t)
	if refreshed.AccessToken == rec.AccessToken {
		t.Error("the expiring token was not refreshed before use")
	}
	s.noBrowserOpened(t, 1)
	secrets = append(secrets, refreshed.AccessToken, refreshed.RefreshToken)
	checkNoSecrets(t, "call --debug", out, secrets)

	// The server revokes the token: the 401 is answered by a refresh and
	// the call goes through.
	s.srv.Revoke()
	out = s.run(t, s.noInter, "tools", "call", "remote__whoami")
	if out.code != 0 || !strings.Contains(out.stdout, "alice") {
		t.Fatalf("call after revocation: exit %d\nstdout %q\nstderr %q", out.code, out.stdout, out.stderr)
	}
	again := s.stored(t)
	secrets = append(secrets, again.AccessToken, again.RefreshToken)
	for _, r := range s.srv.Requests() {
		if r.Server == "auth" && r.Form.Get("grant_type") != "" && r.Form.Get("resource") != s.srv.URL {
			t.Errorf("token request without the resource: %v", r.Form)
		}
	}

	// auth status lists it, without a secret; --output json too.
	out = s.run(t, s.noInter, "auth", "status")
	if out.code != 0 || !strings.Contains(out.stdout, "remote") || !strings.Contains(out.stdout, s.srv.URL) || !strings.Contains(out.stdout, "mcp:read offline_access") {
		t.Errorf("auth status: exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	checkNoSecrets(t, "auth status", out, secrets)
	out = s.run(t, s.noInter, "auth", "status", "--output", "json")
	var status struct {
		SignIns []struct {
			Server, Resource string
			Refreshable      bool
		} `json:"sign_ins"`
	}
	if err := json.Unmarshal([]byte(out.stdout), &status); err != nil || len(status.SignIns) != 1 || status.SignIns[0].Server != "remote" || !status.SignIns[0].Refreshable {
		t.Errorf("auth status --output json: %v, %q", err, out.stdout)
	}
	checkNoSecrets(t, "auth status --output json", out, secrets)

	// auth logout forgets it: the next run needs a sign-in again.
	out = s.run(t, s.noInter, "auth", "logout", "remote")
	if out.code != 0 || !strings.Contains(out.stdout, "Signed out of remote") || s.stored(t) != nil {
		t.Fatalf("auth logout: exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	out = s.run(t, s.noInter, "tools", "call", "remote__whoami")
	if out.code != exitNoServers || !strings.Contains(out.stderr, wantLine) {
		t.Errorf("after logout: exit %d, stderr %q", out.code, out.stderr)
	}
	s.noBrowserOpened(t, 1)
}

// checkNoSecrets fails when an output shows one of the secrets.
func checkNoSecrets(t *testing.T, what string, out outcome, secrets []string) {
	t.Helper()
	for _, sec := range secrets {
		if sec != "" && (strings.Contains(out.stdout, sec) || strings.Contains(out.stderr, sec)) {
			t.Errorf("%s shows the secret %q", what, sec)
		}
	}
}

func TestOneShotRunWithoutSignInFailsWithoutBrowser(t *testing.T) {
	t.Parallel()
	s := newAuthSetup(t, oauthserver.Options{})
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	out := runBinary(t, invocation{args: []string{"-m", "ollama:tiny", "-p", "who am I?"}, dir: s.dir, home: s.home, env: s.noInter, host: ollama.URL})
	if out.code != exitNoServers || !strings.Contains(out.stderr, `server "remote" needs a sign-in: run mcphost auth login remote`) {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	if n := strings.Count(strings.TrimSpace(out.stderr), "\n"); n > 1 {
		t.Errorf("more than the sign-in line and the exit line: %q", out.stderr)
	}
	s.noBrowserOpened(t, 0)
}

func TestTokenGoesToItsServerAlone(t *testing.T) {
	t.Parallel()
	s := newAuthSetup(t, oauthserver.Options{})
	if out := s.run(t, s.withBrowser, "auth", "login", "remote"); out.code != 0 {
		t.Fatalf("auth login: exit %d, stderr %q", out.code, out.stderr)
	}
	// The server now redirects every request to another origin, which
	// answers without a token.
	s.srv.RedirectElsewhere(true)
	out := s.run(t, s.noInter, "tools", "call", "remote__whoami")
	if out.code != 0 || !strings.Contains(out.stdout, "nobody (no token)") {
		t.Fatalf("call through the redirect: exit %d\nstdout %q\nstderr %q", out.code, out.stdout, out.stderr)
	}
	var elsewhere, withToken int
	for _, r := range s.srv.Requests() {
		switch {
		case r.Server == "elsewhere":
			elsewhere++
			if r.Authorization != "" {
				t.Errorf("the token went to another origin: %+v", r)
			}
		case r.Server == "auth" && strings.HasPrefix(r.Authorization, "Bearer"):
			t.Errorf("the token went to the authorization server: %+v", r)
		case r.Server == "mcp" && strings.HasPrefix(r.Authorization, "Bearer "):
			withToken++
		}
	}
	if elsewhere == 0 || withToken == 0 {
		t.Errorf("%d requests elsewhere, %d with the token to the server: the test proved nothing", elsewhere, withToken)
	}
}

func TestRunSignsInWithBrowserAndStepsUp(t *testing.T) {
	t.Parallel()
	// A --url server met for the first time, with $BROWSER set: the run
	// signs in by itself, and steps up when the call needs another scope.
	s := newAuthSetup(t, oauthserver.Options{Scopes: []string{"mcp:read"}, StepUpScope: "mcp:write"})
	out := s.run(t, s.withBrowser, "tools", "call", "--url", s.srv.URL, "whoami")
	if out.code != 0 || !strings.Contains(out.stdout, "alice, scopes") {
		t.Fatalf("exit %d\nstdout %q\nstderr %q", out.code, out.stdout, out.stderr)
	}
	for _, scope := range []string{"mcp:read", "mcp:write", "offline_access"} {
		if !strings.Contains(out.stdout, scope) {
			t.Errorf("the token lacks %s: %q", scope, out.stdout)
		}
	}
	opened := s.opened()
	if len(opened) != 2 {
		t.Fatalf("the browser was opened %d times, want 2 (sign-in, step-up): %q", len(opened), opened)
	}
	if !strings.Contains(opened[0], "mcp%3Aread") || strings.Contains(opened[0], "mcp%3Awrite") || !strings.Contains(opened[1], "mcp%3Awrite") || !strings.Contains(opened[1], "mcp%3Aread") {
		t.Errorf("scopes asked: %q, then %q; want mcp:read, then mcp:read and mcp:write", opened[0], opened[1])
	}
	if !strings.Contains(out.stderr, `server "server" asks you to sign in`) {
		t.Errorf("the sign-in was not shown: %q", out.stderr)
	}
}
