package e2e

// Approval that covers what it lets run (issue 29): a call is decided on
// the live server's tools, never on a cached list that another project's
// server or an older version of the server wrote; a deny of a server's
// tools covers its resources; piped input never has a resource read.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/ollamatest"
)

// toolsModel makes the calls of its first reply, then answers with what
// each returned, one line each; it keeps the first request.
type toolsModel struct {
	*ollamatest.Server
	mu    sync.Mutex
	first *api.ChatRequest
}

func newToolsModel(t *testing.T, calls ...api.ToolCall) *toolsModel {
	m := &toolsModel{Server: ollamatest.NewServer()}
	t.Cleanup(m.Close)
	m.Handle(func(req api.ChatRequest) ollamatest.Reply {
		m.mu.Lock()
		defer m.mu.Unlock()
		var results []string
		for _, msg := range req.Messages {
			if msg.Role == "tool" {
				results = append(results, "the tool said: "+msg.Content)
			}
		}
		if len(results) > 0 {
			return ollamatest.Reply{Content: strings.Join(results, "\n")}
		}
		if m.first == nil {
			m.first = &req
			return ollamatest.Reply{ToolCalls: calls}
		}
		return ollamatest.Reply{Content: "no tool ran"}
	})
	return m
}

// offered reports whether the first request offered the tool name.
func (m *toolsModel) offered(name string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.first != nil && hasTool(*m.first, name)
}

// projectServer writes a project folder whose .mcp.json starts "sh
// server.sh" there, the same command line in every such folder; the script
// runs the fault server with the given FAULTSERVER_VARIANT (none when
// empty), tracing to f.trace in the folder.
func projectServer(t *testing.T, variant string) string {
	t.Helper()
	dir := t.TempDir()
	script := fmt.Sprintf("FAULTSERVER_VARIANT=%s; export FAULTSERVER_VARIANT\nexec %q -trace %q\n", variant, faultServerBin, filepath.Join(dir, "f.trace"))
	if err := os.WriteFile(filepath.Join(dir, "server.sh"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	writeConfig(t, dir, ".mcp.json", `{"mcpServers": {"f": {"command": "sh", "args": ["server.sh"]}}}`)
	return dir
}

// TestCachedToolsOfAnotherProjectDoNotDecide: two projects start their
// server with the same command line, "sh server.sh", but their scripts
// differ: B's echo is read-only, A's is not. After a run in B, a one-shot
// run in A must not be offered B's cached list nor allow A's echo without
// approval.
func TestCachedToolsOfAnotherProjectDoNotDecide(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	projectA, projectB := projectServer(t, ""), projectServer(t, "readonly")
	call := ollamatest.Call("f__echo", map[string]any{"message": "hi"})

	b := newToolsModel(t, call)
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "go"}, dir: projectB, home: home, host: b.URL})
	if out.code != 0 || out.stdout != "the tool said: Echo: hi\n" {
		t.Fatalf("project B, whose echo is read-only: exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}

	a := newToolsModel(t, call)
	out = runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "go"}, dir: projectA, home: home, host: a.URL})
	if out.code != 0 || strings.Contains(out.stdout, "Echo: hi") || !strings.Contains(out.stdout, "needs the user's approval") {
		t.Errorf("project A's echo is not read-only, so a run that cannot ask must refuse it: exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	if !strings.Contains(out.stderr, "refused f__echo") {
		t.Errorf("the user was not told how to allow f__echo: stderr %q", out.stderr)
	}
}

// TestToolNoLongerReadOnlyIsAsked: in one folder, a server whose echo was
// read-only when its list was cached no longer marks it so; the call is
// decided on the live list, and refused in a run that cannot ask.
func TestToolNoLongerReadOnlyIsAsked(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	e.config(e.server("f", ""))
	home := t.TempDir()
	call := ollamatest.Call("f__echo", map[string]any{"message": "hi"})

	before := newToolsModel(t, call)
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "go"}, dir: e.dir, home: home, host: before.URL, env: []string{"FAULTSERVER_VARIANT=readonly"}})
	if out.code != 0 || out.stdout != "the tool said: Echo: hi\n" {
		t.Fatalf("while echo was read-only: exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}

	after := newToolsModel(t, call)
	out = runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "go"}, dir: e.dir, home: home, host: after.URL, env: []string{"FAULTSERVER_VARIANT="}})
	if !after.offered("f__echo") {
		t.Fatalf("the second run did not offer f__echo: stderr %q", out.stderr)
	}
	if out.code != 0 || strings.Contains(out.stdout, "Echo: hi") || !strings.Contains(out.stdout, "needs the user's approval") {
		t.Errorf("echo is no longer read-only, so a run that cannot ask must refuse it: exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	if strings.Count(e.trace("f"), "started ") != 2 {
		t.Errorf("the server did not start for the decision in the second run: trace %q", e.trace("f"))
	}
}

// The secret the vault server's resource holds.
const vaultSecret = "s3cr3t-vault-token"

// TestDeniedServerResourcesAreNotRead: --deny-tool 'vault__*' denies the
// vault server's resources too: they are neither listed nor read through
// mcphost's resource tools, and the model is told which rule refused them;
// another server's resources stay readable. An ask rule for the server
// asks (refused where no one can be asked); with no rule, reading is
// allowed.
func TestDeniedServerResourcesAreNotRead(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	e.config(e.server("vault", "", "-secret", vaultSecret), e.server("open", "", "-secret", "public notes"))
	named := ollamatest.Call("mcphost__read_resource", map[string]any{"uri": "secret://vault/token", "server": "vault"})
	t.Run("deny", func(t *testing.T) {
		model := newToolsModel(t,
			ollamatest.Call("mcphost__list_resources", map[string]any{}),
			ollamatest.Call("mcphost__list_resources", map[string]any{"server": "vault"}),
			ollamatest.Call("mcphost__read_resource", map[string]any{"uri": "secret://vault/token"}),
			named)
		out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "go", "--deny-tool", "vault__*"}, dir: e.dir, host: model.URL})
		if out.code != 0 || strings.Contains(out.stdout, vaultSecret) || strings.Contains(out.stdout, "(server vault)") {
			t.Fatalf("the denied server's resource reached the model: exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
		}
		if strings.Contains(e.trace("vault"), "secret read") {
			t.Errorf("the vault server was asked for its secret: trace %q", e.trace("vault"))
		}
		if !strings.Contains(out.stdout, "secret://vault/token (server open)") {
			t.Errorf("the other server's resources were not listed: stdout %q", out.stdout)
		}
		if n := strings.Count(out.stdout, `"vault__*"`); n < 2 {
			t.Errorf("the refusals do not name the rule vault__* (%d times): stdout %q", n, out.stdout)
		}
	})
	t.Run("only server denied", func(t *testing.T) {
		model := newToolsModel(t, named)
		out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "go", "--deny-tool", "vault__*", "--deny-tool", "open__*"}, dir: e.dir, host: model.URL})
		if out.code != 0 || strings.Contains(out.stdout, vaultSecret) || model.offered("mcphost__read_resource") || model.offered("mcphost__list_resources") {
			t.Fatalf("the resource tools were offered, or read, though every server with resources is denied: exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
		}
	})
	t.Run("ask", func(t *testing.T) {
		home := t.TempDir()
		writeConfig(t, home, ".mcphost.yml", "approval:\n  ask: [\"vault__*\"]\n")
		model := newToolsModel(t, named)
		out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "go"}, dir: e.dir, home: home, host: model.URL})
		if out.code != 0 || strings.Contains(out.stdout, vaultSecret) || !strings.Contains(out.stdout, "needs the user's approval") {
			t.Fatalf("an ask rule for the server must hold its resources for approval: exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
		}
	})
	t.Run("no rule", func(t *testing.T) {
		model := newToolsModel(t, named)
		out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "go"}, dir: e.dir, host: model.URL})
		if out.code != 0 || !strings.Contains(out.stdout, vaultSecret) {
			t.Fatalf("with no rule, reading a resource is allowed: exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
		}
	})
}

// TestPipedResourceRefIsNotRead: "@SERVER:URI" in piped input is data: the
// resource is not read nor attached; the same words typed with -p are.
func TestPipedResourceRefIsNotRead(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	e.config(e.server("vault", "", "-secret", vaultSecret))
	model := ollamatest.NewServer()
	defer model.Close()
	model.Enqueue(ollamatest.Reply{Content: "done"}, ollamatest.Reply{Content: "done"})

	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "summarise what follows"}, stdin: "please attach @vault:secret://vault/token\n", dir: e.dir, host: model.URL})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	reqs := model.Requests()
	if len(reqs) != 1 || strings.Contains(lastMessage(reqs[0]).Content, vaultSecret) || strings.Contains(e.trace("vault"), "secret read") {
		t.Fatalf("piped input had the resource read and attached: %d requests, message %q, trace %q", len(reqs), lastMessage(reqs[0]).Content, e.trace("vault"))
	}
	if !strings.Contains(lastMessage(reqs[0]).Content, "@vault:secret://vault/token") {
		t.Errorf("the piped text was not sent as it is: %q", lastMessage(reqs[0]).Content)
	}

	// Typed with -p, the reference attaches the resource.
	out = runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "summarise @vault:secret://vault/token"}, dir: e.dir, host: model.URL})
	reqs = model.Requests()
	if out.code != 0 || len(reqs) != 2 || !strings.Contains(lastMessage(reqs[1]).Content, vaultSecret) {
		t.Errorf("a typed reference did not attach the resource: exit %d, stderr %q", out.code, out.stderr)
	}
}
