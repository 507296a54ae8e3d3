//go:build linux

package e2e

// The wait for servers still starting (--server-wait): a one-shot run is
// not held up by a server that never answers, a server that fails the same
// way twice at start is not retried, and the chat shows what its turn waits
// for.

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/ollamatest"
)

// runFinal is what a test reads of --output json's final object.
type runFinal struct {
	Answer   string   `json:"answer"`
	Warnings []string `json:"warnings"`
	LeftOut  []struct {
		Server, State, Reason string
	} `json:"servers_left_out"`
	ExitCode int `json:"exit_code"`
}

func parseRunFinal(t *testing.T, out outcome) runFinal {
	t.Helper()
	var f runFinal
	if err := json.Unmarshal([]byte(out.stdout), &f); err != nil {
		t.Fatalf("stdout is not one JSON object (%v): %q; stderr %q", err, out.stdout, out.stderr)
	}
	return f
}

// TestOneShotGoesOnWithoutAHungServer: beside a server whose tools are
// cached, a server that does not answer initialize (it waits at a gate)
// holds a one-shot run for the short server wait only: the first model request goes out without its tools,
// a warning and the JSON's servers_left_out name it, and once the gate
// opens (after that first request) its tools are offered at a later step
// of the same run.
func TestOneShotGoesOnWithoutAHungServer(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	gate, open := e.gate()
	model := ollamatest.NewServer()
	defer model.Close()
	// A first run caches the good server's tools, as an earlier run of
	// the user's would: its tools are known at once, the hung one's never.
	home := t.TempDir()
	e.config(e.server("good", ""))
	if out := runBinary(t, invocation{args: faultArgs(), dir: e.dir, host: model.URL, home: home}); out.code != 0 {
		t.Fatalf("the first run: exit %d, stderr %q", out.code, out.stderr)
	}
	e.config(e.server("good", ""), e.server("hung", `"timeout": "15s"`, "-start-gate", gate))
	var (
		mu    sync.Mutex
		first *api.ChatRequest
		once  sync.Once
	)
	model.Handle(func(req api.ChatRequest) ollamatest.Reply {
		mu.Lock()
		if first == nil {
			first = &req
		}
		mu.Unlock()
		// The run is past its wait: the server may now answer.
		once.Do(func() { go open() })
		last := lastMessage(req)
		switch {
		case last.Role == "tool" && last.ToolName == "hung__echo":
			return ollamatest.Reply{Content: "hung joined: " + last.Content}
		case hasTool(req, "hung__echo"):
			return calls(ollamatest.Call("hung__echo", map[string]any{"message": "late"}))
		default:
			// The model polls with the good server's tool until the hung
			// one's tools are offered; different arguments each time, or
			// the loop guard stops a repeated call.
			return calls(ollamatest.Call("good__slow", map[string]any{"ms": 50 + len(req.Messages)}))
		}
	})
	out := runBinary(t, invocation{
		args: append(faultArgs(), "--max-steps", "200", "--output", "json"), dir: e.dir, host: model.URL, home: home,
		env: []string{"MCPHOST_SERVER_WAIT=300ms"},
	})
	noPanic(t, out)
	f := parseRunFinal(t, out)
	if out.code != 0 || f.Answer != "hung joined: Echo: late" {
		t.Fatalf("exit %d, answer %q, stderr %q", out.code, f.Answer, out.stderr)
	}
	if first == nil || !hasTool(*first, "good__echo") || hasTool(*first, "hung__echo") {
		t.Errorf("the first request should offer good's tools and not hung's")
	}
	const warning = `server "hung" is still starting after 300ms: the model is called without its tools until it is ready`
	if !strings.Contains(out.stderr, warning) {
		t.Errorf("stderr does not name the server left out: %q", out.stderr)
	}
	if !slicesContain(f.Warnings, warning) {
		t.Errorf("warnings: %q", f.Warnings)
	}
	if len(f.LeftOut) != 1 || f.LeftOut[0].Server != "hung" || f.LeftOut[0].State != "starting" || f.LeftOut[0].Reason != "still starting after 300ms" {
		t.Errorf("servers_left_out: %+v", f.LeftOut)
	}
	e.noneLeft("good", "hung")
}

// slicesContain reports whether one of the strings contains sub.
func slicesContain(list []string, sub string) bool {
	for _, s := range list {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// TestOneShotWithOnlyAHungServerAnswers: when the only server is still
// starting after the wait, the run is no failure (exit 0, not 5): the
// model answers without tools, and the warning says why.
func TestOneShotWithOnlyAHungServerAnswers(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	// Nothing opens the gate: mcphost stops the server when it exits.
	e.gatedServer("hung")
	model := ollamatest.NewServer()
	defer model.Close()
	model.Handle(func(req api.ChatRequest) ollamatest.Reply {
		if len(req.Tools) > 0 {
			return ollamatest.Reply{Content: "tools offered"}
		}
		return ollamatest.Reply{Content: "answered without tools"}
	})
	out := runBinary(t, invocation{args: append(faultArgs(), "--server-wait", "200ms"), dir: e.dir, host: model.URL})
	noPanic(t, out)
	if out.code != 0 || out.stdout != "answered without tools\n" || !strings.Contains(out.stderr, `server "hung" is still starting after 200ms`) {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
}

// TestServerFailingTheSameWayTwiceIsNotRetried: a server that exits at
// start with the same error is started twice, not six times; the one
// warning quotes its stderr once and says it is not retried; JSON lists
// it among the servers left out.
func TestServerFailingTheSameWayTwiceIsNotRetried(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	e.config(
		e.server("broken", "", "-exit-at-start", "-message", "fault: cannot open database"),
		e.server("good", ""),
	)
	model := ollamatest.NewServer()
	defer model.Close()
	out := e.run(model.URL, "--output", "json")
	noPanic(t, out)
	f := parseRunFinal(t, out)
	if out.code != 0 || f.Answer != "ok" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	if n := len(e.pids("broken")); n != 2 {
		t.Errorf("broken started %d times, want 2", n)
	}
	const said = "server \"broken\" exited during start (exit status 3); it wrote:\n  fault: cannot open database\n(it failed the same way twice, so it is not retried in this run)"
	if n := strings.Count(out.stderr, "fault: cannot open database"); n != 1 || !strings.Contains(out.stderr, said) {
		t.Errorf("stderr quotes the server %d times, want once as %q: %q", n, said, out.stderr)
	}
	if len(f.LeftOut) != 1 || f.LeftOut[0].Server != "broken" || f.LeftOut[0].State != "failed" || !strings.Contains(f.LeftOut[0].Reason, "cannot open database") {
		t.Errorf("servers_left_out: %+v", f.LeftOut)
	}
	e.noneLeft("broken", "good")
}

// TestChatTurnShowsTheServersItWaitsFor: a chat turn sent while a server
// is still starting shows the start-up line of a one-shot run while it
// waits, and goes on once the server is ready.
func TestChatTurnShowsTheServersItWaitsFor(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	open := e.gatedServer("slow")
	model := ollamatest.NewServer()
	defer model.Close()
	model.Handle(func(req api.ChatRequest) ollamatest.Reply {
		if hasTool(req, "slow__echo") {
			return ollamatest.Reply{Content: "with the slow tools"}
		}
		return ollamatest.Reply{Content: "without them"}
	})
	term := startTerminal(t, e.dir, append(chatEnv(t, model.URL), "MCPHOST_SERVER_WAIT=2m"), "-m", "tiny")
	term.waitFor("(1 starting)")
	term.typeLine("hello")
	term.waitFor("starting slow… ")
	open()
	term.waitFor("with the slow tools")
	term.typeLine("/quit")
	term.waitExit()
}

// TestChatListsDoNotWaitForAHungServer: /prompts and /resources wait for
// a server still starting no longer than the server wait, then list what
// the others have and name the one still starting.
func TestChatListsDoNotWaitForAHungServer(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	// The gate is never opened: the server hangs until the chat ends.
	e.gatedServer("slow")
	model := ollamatest.NewServer()
	defer model.Close()
	term := startTerminal(t, e.dir, append(chatEnv(t, model.URL), "MCPHOST_SERVER_WAIT=300ms"), "-m", "tiny")
	term.waitFor("(1 starting)")
	term.typeLine("/prompts")
	term.waitFor("still starting, so not listed yet: slow; /prompts again")
	term.typeLine("/resources")
	term.waitFor("still starting, so not listed yet: slow; /resources again")
	term.typeLine("/quit")
	term.waitExit()
}
