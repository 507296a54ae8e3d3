package e2e

// Issue 30's second sweep of real servers, the MCP client side: a cached
// tool list that an upgrade in place made stale, a server killed during a
// call, what a start or call timeout quotes, and a 403's own reason.

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

// upgradeScript writes an executable shell script at path that runs the
// fault server with flags: a server "upgraded" by rewriting its script in
// place, behind the same command.
func upgradeScript(t *testing.T, e *faultEnv, path string, flags ...string) {
	t.Helper()
	script := fmt.Sprintf("#!/bin/sh\nexec %q -pidfile %q -trace %q", e.bin, e.path("up.pids"), e.path("up.trace"))
	for _, f := range flags {
		script += fmt.Sprintf(" %q", f)
	}
	if err := os.WriteFile(path, []byte(script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestUpgradedServerIsNotServedFromTheCache: the server's command is a
// script rewritten in place between two runs (a new version with one more
// tool, pad_1): the warm run lists the new tools from the server itself,
// and the new tool can be called.
func TestUpgradedServerIsNotServedFromTheCache(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	script := e.path("server.sh")
	upgradeScript(t, e, script)
	e.config(fmt.Sprintf(`"up": {"command": %q}`, script))
	home := t.TempDir()
	list := func() outcome {
		return runBinary(t, invocation{args: []string{"tools", "list", "up"}, dir: e.dir, home: home})
	}
	if out := list(); out.code != 0 || !strings.Contains(out.stdout, "up__echo") || strings.Contains(out.stdout, "pad_1") {
		t.Fatalf("cold list: exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	if out := list(); !strings.Contains(out.stdout, "as cached") || e.startCount("up") != 1 {
		t.Fatalf("warm list before the upgrade did not come from the cache (%d starts): %q", e.startCount("up"), out.stdout)
	}

	upgradeScript(t, e, script, "-many", "1")
	out := list()
	if out.code != 0 || !strings.Contains(out.stdout, "up__pad_1") || strings.Contains(out.stdout, "as cached") {
		t.Errorf("warm list after the upgrade: exit %d, stdout %q, stderr %q; want the new tool pad_1, listed live", out.code, out.stdout, out.stderr)
	}
	call := runBinary(t, invocation{args: []string{"tools", "call", "up__pad_1"}, dir: e.dir, home: home})
	if call.code != 0 || call.stdout != "padded" {
		t.Errorf("calling the new tool: exit %d, stdout %q, stderr %q", call.code, call.stdout, call.stderr)
	}
	e.noneLeft("up")
}

// TestUnknownToolAsksTheCachedServer: an upgrade the cache cannot see
// (the server reads its version from the environment): a tool only the
// new version has is not "unknown" before the server was asked. A name
// no version has is still unknown (exit 2), after one start.
func TestUnknownToolAsksTheCachedServer(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	// g is not upgraded: its own environment keeps the variant off.
	e.config(e.server("f", ""), e.server("g", `"env": {"FAULTSERVER_VARIANT": ""}`))
	renamed := []string{"FAULTSERVER_VARIANT=renamed"}
	// By its full name only f starts; by its own name, which names no
	// server, every server known from the cache does.
	var home string
	for _, tc := range []struct {
		name   string
		gStart int
	}{{"f__echo_v2", 0}, {"echo_v2", 1}} {
		home = t.TempDir()
		if out := runBinary(t, invocation{args: []string{"tools", "list"}, dir: e.dir, home: home}); out.code != 0 {
			t.Fatalf("cold list: exit %d, stderr %q", out.code, out.stderr)
		}
		g := e.startCount("g")
		out := runBinary(t, invocation{args: []string{"tools", "call", tc.name, `{"message": "hi"}`}, dir: e.dir, home: home, env: renamed})
		if out.code != 0 || out.stdout != "Echo: hi" {
			t.Errorf("tools call %s: exit %d, stdout %q, stderr %q; want the upgraded server asked", tc.name, out.code, out.stdout, out.stderr)
		}
		if got := e.startCount("g") - g; got != tc.gStart {
			t.Errorf("tools call %s started g %d times, want %d", tc.name, got, tc.gStart)
		}
	}
	starts := e.startCount("f")
	out := runBinary(t, invocation{args: []string{"tools", "call", "f__nope"}, dir: e.dir, home: home, env: renamed})
	if out.code != 2 || !strings.Contains(out.stderr, "nope") {
		t.Errorf("an unknown tool: exit %d, stderr %q; want 2", out.code, out.stderr)
	}
	if got := e.startCount("f") - starts; got != 1 {
		t.Errorf("the server started %d times for an unknown tool, want once: asked, then unknown", got)
	}
	e.noneLeft("f", "g")
}

// TestServerKilledDuringCall: a server killed mid-call (SIGKILL) is
// reported by how it ended, then its last stderr lines, not only its last
// line, which is an unrelated log.
func TestServerKilledDuringCall(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	e.config(e.server("f", `"maxRestarts": 0`, "-kill-on-crash"))
	out := runBinary(t, invocation{args: []string{"tools", "call", "f__crash", `{"message": "fault: out of memory in the handler\nINFO request 7 accepted"}`}, dir: e.dir})
	want := `server "f" was killed (signal: killed); its last stderr lines: fault: out of memory in the handler | INFO request 7 accepted`
	if out.code == 0 || !strings.Contains(out.stderr, want) {
		t.Errorf("exit %d, stderr %q; want %q", out.code, out.stderr, want)
	}
	e.noneLeft("f")
}

// TestStartTimeoutQuotesWhatTheServerIsDoing: a server that says where it
// listens and then goes on writing never answers initialize; the start
// timeout quotes the line that says so, not only the last lines.
func TestStartTimeoutQuotesWhatTheServerIsDoing(t *testing.T) {
	// Not parallel: the server must start and record its pid within its 1s timeout, which a loaded machine can miss.
	e := newFaultEnv(t)
	e.config(e.server("web", `"timeout": 1`, "-hang-init", "-stderr",
		"MCP server listening on http://localhost:8931/mcp\ndebug: loaded 3 plugins\ndebug: cache warm\ndebug: heartbeat\ndebug: heartbeat"))
	out := runBinary(t, invocation{args: []string{"tools", "list"}, dir: e.dir})
	if !strings.Contains(out.stderr, `server "web" did not start within 1s; it wrote:`) || !strings.Contains(out.stderr, "  MCP server listening on http://localhost:8931/mcp\n") {
		t.Errorf("exit %d, stderr %q; want the listening line quoted", out.code, out.stderr)
	}
	e.noneLeft("web")
}

// TestCallTimeoutQuotesTheServer: a call that gets no answer says what
// the server wrote meanwhile and how to see all it says.
func TestCallTimeoutQuotesTheServer(t *testing.T) {
	// Not parallel: what the server writes must reach mcphost within the call's 1s timeout, which a loaded machine can miss.
	e := newFaultEnv(t)
	e.config(e.server("f", `"toolTimeout": "1s"`, "-call-stderr", "fault: waiting for the database lock"))
	out := runBinary(t, invocation{args: []string{"tools", "call", "f__hang"}, dir: e.dir})
	for _, want := range []string{
		`server "f": tool "hang" did not answer within 1s; the call was cancelled; meanwhile it wrote: fault: waiting for the database lock`,
		"run with --debug to see the server's messages",
	} {
		if !strings.Contains(out.stderr, want) {
			t.Errorf("exit %d, stderr %q; want %q", out.code, out.stderr, want)
		}
	}
	e.noneLeft("f")
}

// TestForbiddenKeepsTheServersReason: a 403 is access refused, with the
// server's own reason (hidden characters shown), not a credentials
// problem; a 401 still says authentication failed.
func TestForbiddenKeepsTheServersReason(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body, ctype string
		code              int
		want              []string
		not               string
	}{
		{"403 json-rpc", `{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"token lacks the scope repo:write\u200b"}}`, "application/json", http.StatusForbidden,
			[]string{`server "web": access forbidden (HTTP 403 Forbidden) at `, `(the server said: token lacks the scope repo:write<U+200B>)`, "may lack a permission"}, "check the credentials"},
		{"403 text", "IP 203.0.113.9 is not on the allow list\n", "text/plain", http.StatusForbidden,
			[]string{`access forbidden (HTTP 403 Forbidden)`, `(the server said: IP 203.0.113.9 is not on the allow list)`}, "authentication failed"},
		{"401", `{"error":"invalid_token","error_description":"the token expired"}`, "application/json", http.StatusUnauthorized,
			[]string{`server "web": authentication failed (HTTP 401 Unauthorized) at `, "check the credentials in its headers in ", ".mcp.json (the server said: invalid_token: the token expired)"}, "forbidden"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tc.ctype)
				w.WriteHeader(tc.code)
				fmt.Fprint(w, tc.body)
			}))
			defer ts.Close()
			dir := t.TempDir()
			writeConfig(t, dir, ".mcp.json", fmt.Sprintf(`{"mcpServers": {"web": {"type": "http", "url": %q, "headers": {"Authorization": "Bearer tok-s3cret"}}}}`, ts.URL))
			out := runBinary(t, invocation{args: []string{"tools", "list"}, dir: dir})
			for _, want := range tc.want {
				if !strings.Contains(out.stderr, want) {
					t.Errorf("exit %d, stderr %q; want %q", out.code, out.stderr, want)
				}
			}
			if strings.Contains(out.stderr, tc.not) || strings.Contains(out.stderr, "s3cret") {
				t.Errorf("stderr %q says %q or shows the token", out.stderr, tc.not)
			}
		})
	}
}
