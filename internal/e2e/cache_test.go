package e2e

// Servers' tool lists cached between runs (issue 14): with a warm cache a
// one-shot run knows every tool before any server starts, and starts only
// the servers whose tools it calls.

import (
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/ollamatest"
)

// startCount is how many times the named fault server started.
func (e *faultEnv) startCount(name string) int {
	return strings.Count(readFile(e.t, e.path(name+".trace")), "started ")
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, _ := os.ReadFile(path)
	return string(data)
}

// callingModel calls tool once, then answers with what it returned; at the
// first request it records what it was offered and how many servers had
// started by then.
type callingModel struct {
	*ollamatest.Server
	mu      sync.Mutex
	first   api.ChatRequest
	started int
}

func newCallingModel(t *testing.T, e *faultEnv, tool string, servers ...string) *callingModel {
	m := &callingModel{Server: ollamatest.NewServer()}
	t.Cleanup(m.Close)
	calls := 0
	m.Handle(func(req api.ChatRequest) ollamatest.Reply {
		m.mu.Lock()
		defer m.mu.Unlock()
		last := req.Messages[len(req.Messages)-1]
		if last.Role == "tool" {
			return ollamatest.Reply{Content: "the tool said: " + last.Content}
		}
		if calls == 0 {
			m.first = req
			for _, s := range servers {
				m.started += e.startCount(s)
			}
		}
		calls++
		return ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call(tool, map[string]any{"message": "hi"})}}
	})
	return m
}

func TestWarmCacheStartsOnlyTheServerCalled(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	e.config(e.server("a", ""), e.server("b", ""))
	home := t.TempDir()
	// The first run has no cache: both servers start before the model is asked.
	cold := newCallingModel(t, e, "a__echo", "a", "b")
	out := runBinary(t, invocation{args: faultArgs(), dir: e.dir, home: home, host: cold.URL})
	if out.code != 0 || cold.started != 2 {
		t.Fatalf("cold run: exit %d, %d servers started before the model was asked, stderr %q", out.code, cold.started, out.stderr)
	}
	// Warm: the model is asked before any server starts, offered both
	// servers' tools; only a, whose tool it calls, starts.
	warm := newCallingModel(t, e, "a__echo", "a", "b")
	out = runBinary(t, invocation{args: faultArgs(), dir: e.dir, home: home, host: warm.URL})
	if out.code != 0 || out.stdout != "the tool said: Echo: hi\n" {
		t.Fatalf("warm run: exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	if warm.started != 2 {
		t.Errorf("%d starts had happened when the model was first asked, want only the cold run's 2", warm.started)
	}
	if !hasTool(warm.first, "a__echo") || !hasTool(warm.first, "b__echo") {
		t.Errorf("the warm run did not offer the cached tools: %d tools", len(warm.first.Tools))
	}
	if e.startCount("a") != 2 || e.startCount("b") != 1 {
		t.Errorf("starts: a %d, b %d; want a started again and b never", e.startCount("a"), e.startCount("b"))
	}
	// --no-cache: every server starts at once, as on a first run.
	again := newCallingModel(t, e, "a__echo", "a", "b")
	out = runBinary(t, invocation{args: append(faultArgs(), "--no-cache"), dir: e.dir, home: home, host: again.URL})
	if out.code != 0 || e.startCount("b") != 2 {
		t.Errorf("--no-cache: exit %d, b started %d times", out.code, e.startCount("b"))
	}
	// tools list says where the list came from.
	list := runBinary(t, invocation{args: []string{"tools", "list", "b"}, dir: e.dir, home: home})
	if !strings.Contains(list.stdout, "as cached: the server was not started") || e.startCount("b") != 2 {
		t.Errorf("tools list from the cache: %q (b started %d times)", list.stdout, e.startCount("b"))
	}
	e.noneLeft("a", "b")
}

func TestCachedListThatChangedIsReplaced(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	e.config(e.server("f", ""))
	home := t.TempDir()
	cold := newCallingModel(t, e, "f__echo", "f")
	if out := runBinary(t, invocation{args: faultArgs(), dir: e.dir, home: home, host: cold.URL}); out.code != 0 {
		t.Fatalf("cold run: %d %s", out.code, out.stderr)
	}
	// The server now offers echo_v2, not echo; the cache still says echo.
	model := newCallingModel(t, e, "f__echo", "f")
	out := runBinary(t, invocation{args: faultArgs(), dir: e.dir, home: home, host: model.URL, env: []string{"FAULTSERVER_VARIANT=renamed"}})
	if out.code != 0 || !strings.Contains(out.stdout, `no longer has tool "echo"`) || !strings.Contains(out.stdout, "f__echo_v2") {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	// The model saw the live list from its next call on.
	reqs := model.Requests()
	if last := reqs[len(reqs)-1]; !hasTool(last, "f__echo_v2") || hasTool(last, "f__echo") {
		t.Errorf("the model's next request did not carry the live list")
	}
	// And the cache holds it for the next run.
	next := newCallingModel(t, e, "f__echo_v2", "f")
	out = runBinary(t, invocation{args: faultArgs(), dir: e.dir, home: home, host: next.URL, env: []string{"FAULTSERVER_VARIANT=renamed"}})
	if out.code != 0 || !hasTool(next.first, "f__echo_v2") || out.stdout != "the tool said: Echo: hi\n" {
		t.Errorf("next run: exit %d, stdout %q", out.code, out.stdout)
	}
}

func TestCachedServerThatNoLongerStartsFailsItsCalls(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	e.config(e.server("f", ""))
	home := t.TempDir()
	cold := newCallingModel(t, e, "f__echo", "f")
	if out := runBinary(t, invocation{args: faultArgs(), dir: e.dir, home: home, host: cold.URL}); out.code != 0 {
		t.Fatalf("cold run: %d %s", out.code, out.stderr)
	}
	model := newCallingModel(t, e, "f__echo", "f")
	out := runBinary(t, invocation{args: faultArgs(), dir: e.dir, home: home, host: model.URL, env: []string{"FAULTSERVER_VARIANT=broken"}})
	if out.code != 0 || !strings.Contains(out.stdout, "cannot open the database") {
		t.Errorf("exit %d, stdout %q, stderr %q; want the model to get the start error", out.code, out.stdout, out.stderr)
	}
}
