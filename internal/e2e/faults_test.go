package e2e

// The fault table (docs/faults.md): each test drives the real mcphost
// binary against a misbehaving MCP server (internal/faultserver) or a
// failing scripted Ollama (ollamatest), and checks the exit code, what the
// user sees, what the model is told, and that no process is left behind.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/ollamatest"
)

// faultEnv is a directory with a config of fault servers, and the files
// they report to.
type faultEnv struct {
	t   *testing.T
	dir string
	bin string
}

func newFaultEnv(t *testing.T) *faultEnv {
	t.Helper()
	return &faultEnv{t: t, dir: t.TempDir(), bin: faultServerBin}
}

// path is a file in the environment's directory.
func (e *faultEnv) path(name string) string { return filepath.Join(e.dir, name) }

// server is the JSON of one fault server entry: its flags (each server
// writes its pids to <name>.pids and its events to <name>.trace) and
// extra config fields such as `"toolTimeout": 1`.
func (e *faultEnv) server(name string, extra string, flags ...string) string {
	args := append([]string{"-pidfile", e.path(name + ".pids"), "-trace", e.path(name + ".trace")}, flags...)
	b, _ := json.Marshal(args)
	entry := fmt.Sprintf(`%q: {"command": %q, "args": %s`, name, e.bin, b)
	if extra != "" {
		entry += ", " + extra
	}
	return entry + "}"
}

// config writes .mcp.json with the given server entries.
func (e *faultEnv) config(entries ...string) {
	writeConfig(e.t, e.dir, ".mcp.json", `{"mcpServers": {`+strings.Join(entries, ",\n")+`}}`)
}

// run runs mcphost in the environment, every tool allowed.
func (e *faultEnv) run(host string, args ...string) outcome {
	e.t.Helper()
	return runBinary(e.t, invocation{args: append(faultArgs(), args...), dir: e.dir, host: host})
}

// faultArgs is a one-shot run that may call every tool without asking.
func faultArgs() []string { return []string{"-m", "tiny", "-p", "go", "--allow-tool", "*"} }

// pids returns every pid the named servers (and their grandchildren)
// recorded.
func (e *faultEnv) pids(names ...string) []int {
	var out []int
	for _, name := range names {
		data, _ := os.ReadFile(e.path(name + ".pids"))
		for _, f := range strings.Fields(string(data)) {
			if pid, err := strconv.Atoi(f); err == nil {
				out = append(out, pid)
			}
		}
	}
	return out
}

// trace returns the events the named server recorded.
func (e *faultEnv) trace(name string) string {
	data, _ := os.ReadFile(e.path(name + ".trace"))
	return string(data)
}

// noneLeft checks that every process the servers recorded is gone the
// moment mcphost has exited (mcphost waits for its SIGKILLs to land).
func (e *faultEnv) noneLeft(names ...string) {
	e.t.Helper()
	pids := e.pids(names...)
	if len(pids) == 0 {
		e.t.Fatalf("servers %v recorded no pids", names)
	}
	for _, pid := range pids {
		if alive(pid) {
			e.t.Errorf("process %d outlived mcphost", pid)
			mcptest.KillProcess(pid)
		}
	}
}

// faultToolResults returns the tool messages of the last request the
// model got.
func faultToolResults(reqs []api.ChatRequest) []api.Message {
	if len(reqs) == 0 {
		return nil
	}
	var out []api.Message
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == "tool" {
			out = append(out, m)
		}
	}
	return out
}

// told returns the contents of the tool messages the model was given.
func told(reqs []api.ChatRequest) []string {
	var out []string
	for _, m := range faultToolResults(reqs) {
		out = append(out, m.Content)
	}
	return out
}

// rawTerminal reports control characters that must never reach a
// terminal from a server: escape sequences, BEL, backspace, CR, invalid
// UTF-8.
func rawTerminal(s string) bool {
	return strings.ContainsAny(s, "\x1b\x07\x08\r") || !utf8.ValidString(s)
}

// noPanic fails on a Go stack trace in stderr.
func noPanic(t *testing.T, out outcome) {
	t.Helper()
	if strings.Contains(out.stderr, "goroutine ") || strings.Contains(out.stderr, "panic:") {
		t.Errorf("stack trace in stderr:\n%s", out.stderr)
	}
}

func calls(c ...api.ToolCall) ollamatest.Reply { return ollamatest.Reply{ToolCalls: c} }

func TestFaultServerExitsAtStart(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	e.config(
		e.server("broken", `"maxRestarts": 0`, "-exit-at-start", "-message", "fault: cannot open database"),
		e.server("good", ""),
	)
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	out := e.run(ollama.URL)
	noPanic(t, out)
	if out.code != 0 || out.stdout != "ok\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	if !strings.Contains(out.stderr, "server \"broken\" exited during start (exit status 3); it wrote:\n  fault: cannot open database") {
		t.Errorf("stderr does not say why: %q", out.stderr)
	}
	req := ollama.Requests()[0]
	if !hasTool(req, "good__echo") || hasTool(req, "broken__echo") {
		t.Errorf("tools offered: %d, want good's and not broken's", len(req.Tools))
	}
	e.noneLeft("broken", "good")
}

// TestFaultServerRestartsAfterFailedStarts: a server that exits at its
// first start is started again; its tools reach the model once it is up
// (the run waits for that second start within --server-wait; the model
// polls with another server's tool all the same). --debug tells the
// first failure. (A server that fails the same way twice is not retried:
// TestServerFailingTheSameWayTwiceIsNotRetried.)
func TestFaultServerRestartsAfterFailedStarts(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	e.config(
		e.server("flaky", "", "-exit-starts", "1", "-state", e.path("starts"), "-message", "fault: port in use"),
		e.server("good", ""),
	)
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Handle(func(req api.ChatRequest) ollamatest.Reply {
		last := lastMessage(req)
		switch {
		case last.Role == "tool" && last.ToolName == "flaky__echo":
			return ollamatest.Reply{Content: "flaky is back: " + last.Content}
		case hasTool(req, "flaky__echo"):
			return calls(ollamatest.Call("flaky__echo", map[string]any{"message": "hi"}))
		default:
			// Different arguments each time: the same call repeated is
			// stopped as a loop.
			return calls(ollamatest.Call("good__slow", map[string]any{"ms": 100 + len(req.Messages)}))
		}
	})
	out := e.run(ollama.URL, "--max-steps", "100", "--debug")
	noPanic(t, out)
	if out.code != 0 || out.stdout != "flaky is back: Echo: hi\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	if !strings.Contains(out.stderr, "fault: port in use") || !strings.Contains(out.stderr, "restarting server") {
		t.Errorf("--debug does not tell the failed first start: %q", out.stderr)
	}
	if n := len(e.pids("flaky")); n != 2 {
		t.Errorf("flaky started %d times, want 2", n)
	}
	e.noneLeft("flaky", "good")
}

// TestFaultServerExitsBetweenCalls: the server exits after answering a
// call; the next call waits for the restart and goes through. --debug
// says what happened.
func TestFaultServerExitsBetweenCalls(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	e.config(e.server("f", "", "-exit-after", "1"))
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	restarted := make(chan struct{})
	ollama.Enqueue(
		calls(ollamatest.Call("f__echo", map[string]any{"message": "one"})),
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("f__echo", map[string]any{"message": "two"})}, Hold: restarted},
		ollamatest.Reply{Content: "done"},
	)
	go func() {
		// Hold the second call until the server has been started again.
		defer close(restarted)
		deadline := time.Now().Add(30 * time.Second)
		for len(e.pids("f")) < 2 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}()
	out := e.run(ollama.URL, "--debug")
	noPanic(t, out)
	if out.code != 0 || out.stdout != "done\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	reqs := ollama.Requests()
	if got := told(reqs[:2]); len(got) != 1 || got[0] != "Echo: one" {
		t.Errorf("first result: %q", got)
	}
	if got := told(reqs); len(got) != 2 || got[1] != "Echo: two" {
		t.Errorf("second result: %q", got)
	}
	for _, want := range []string{"server ended", "exiting after 1 calls", "restarting server", "server ready"} {
		if !strings.Contains(out.stderr, want) {
			t.Errorf("--debug lacks %q", want)
		}
	}
	e.noneLeft("f")
}

// TestFaultServerCrashesDuringCall: the pending call becomes an error for
// the model saying how the server ended (its exit status), then quoting
// its last stderr lines (cleaned of escapes);
// the next call goes to the restarted server.
func TestFaultServerCrashesDuringCall(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	e.config(e.server("f", ""))
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		calls(ollamatest.Call("f__crash", map[string]any{"message": "fault: segfault in \x1b[31mhandler\x1b[0m"})),
		calls(ollamatest.Call("f__echo", map[string]any{"message": "after"})),
		ollamatest.Reply{Content: "recovered"},
	)
	out := e.run(ollama.URL)
	noPanic(t, out)
	if out.code != 0 || out.stdout != "recovered\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	reqs := ollama.Requests()
	if got := told(reqs[:2]); len(got) != 1 || got[0] != "Error: server \"f\" exited (exit status 3); its last stderr lines: fault: segfault in handler" {
		t.Errorf("model told %q", got)
	}
	if got := told(reqs); len(got) != 2 || got[1] != "Echo: after" {
		t.Errorf("after the restart the model got %q", got)
	}
	// The progress line previews the error: how the server ended comes first.
	if !strings.Contains(out.stderr, `server "f" exited (exit status 3); its last stderr lines: `) || rawTerminal(out.stderr) {
		t.Errorf("stderr: %q", out.stderr)
	}
	if n := len(e.pids("f")); n != 2 {
		t.Errorf("%d processes, want 2 (a restart)", n)
	}
	e.noneLeft("f")
}

// TestFaultParallelCallsAndACrash: three calls in one turn, two to a
// server that crashes during them, one to another server. Results come
// back in call order; the crash costs only its server's calls.
func TestFaultParallelCallsAndACrash(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	e.config(e.server("f", `"maxRestarts": 0`), e.server("g", ""))
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		calls(
			ollamatest.Call("f__hang", nil),
			ollamatest.Call("g__echo", map[string]any{"message": "fine"}),
			ollamatest.Call("f__crash", map[string]any{"message": "fault: boom"}),
		),
		ollamatest.Reply{Content: "done"},
	)
	out := e.run(ollama.URL)
	noPanic(t, out)
	if out.code != 0 || out.stdout != "done\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	crashed := "Error: server \"f\" exited (exit status 3); its last stderr lines: fault: boom"
	want := []string{crashed, "Echo: fine", crashed}
	if got := told(ollama.Requests()); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("model told %q, want %q", got, want)
	}
	e.noneLeft("f", "g")
}

func TestFaultInitializeHangs(t *testing.T) {
	// Not parallel: the stuck server must start and record its pid within its 1s timeout, which a loaded machine can miss.
	e := newFaultEnv(t)
	e.config(e.server("stuck", `"timeout": 1`, "-hang-init"), e.server("good", ""))
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	out := e.run(ollama.URL)
	noPanic(t, out)
	if out.code != 0 || out.stdout != "ok\n" || !strings.Contains(out.stderr, `server "stuck" did not start within 1s`) {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	if !hasTool(ollama.Requests()[0], "good__echo") {
		t.Error("the good server's tools were not offered")
	}
	e.noneLeft("stuck", "good")
}

// TestFaultToolHangs: a call that never answers times out after the
// server's toolTimeout; the server is told to cancel it and stays usable.
func TestFaultToolHangs(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"hang", "stubborn"} { // honours cancellation, ignores it
		t.Run(tool, func(t *testing.T) {
			e := newFaultEnv(t)
			e.config(e.server("f", `"toolTimeout": "1s"`))
			ollama := ollamatest.NewServer()
			defer ollama.Close()
			ollama.Enqueue(
				calls(ollamatest.Call("f__"+tool, nil)),
				calls(ollamatest.Call("f__echo", map[string]any{"message": "still there"})),
				ollamatest.Reply{Content: "done"},
			)
			out := e.run(ollama.URL)
			noPanic(t, out)
			if out.code != 0 || out.stdout != "done\n" {
				t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
			}
			want := []string{fmt.Sprintf(`Error: server "f": tool %q did not answer within 1s; the call was cancelled`, tool) +
				" (run with --debug to see the server's messages; a slow tool gets more time with \"toolTimeout\": \"5m\" in the entry of \"f\")", "Echo: still there"}
			if got := told(ollama.Requests()); strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("model told %q, want %q", got, want)
			}
			if tool == "hang" && !strings.Contains(e.trace("f"), "cancelled hang") {
				t.Errorf("the server never heard of the cancellation: %q", e.trace("f"))
			}
			if n := len(e.pids("f")); n != 1 {
				t.Errorf("%d processes: the timeout cost a restart", n)
			}
			e.noneLeft("f")
		})
	}
}

// TestFaultStdoutGarbage: banners and log lines on stdout are skipped and
// logged (--debug), never shown raw, and cost nothing.
func TestFaultStdoutGarbage(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	e.config(e.server("f", "", "-banner", "Fault server v1 ready \x1b[32m✓\x1b[0m"))
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(calls(ollamatest.Call("f__noise", nil)), ollamatest.Reply{Content: "done"})
	out := e.run(ollama.URL, "--debug")
	noPanic(t, out)
	if out.code != 0 || out.stdout != "done\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	if got := told(ollama.Requests()); len(got) != 1 || got[0] != "quiet again" {
		t.Errorf("model told %q", got)
	}
	for _, want := range []string{"server stdout is not JSON-RPC: skipped", "Fault server v1 ready", "a JSON log line, not JSON-RPC"} {
		if !strings.Contains(out.stderr, want) {
			t.Errorf("--debug lacks %q", want)
		}
	}
	if rawTerminal(out.stderr) {
		t.Errorf("raw control characters in stderr: %q", out.stderr)
	}
	e.noneLeft("f")
}

// TestFaultInvalidJSONResponse: a response that is not JSON fails its
// call at once (not at the timeout); the server stays usable.
func TestFaultInvalidJSONResponse(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	e.config(e.server("f", `"toolTimeout": 600`))
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		calls(ollamatest.Call("f__corrupt", nil)),
		calls(ollamatest.Call("f__echo", map[string]any{"message": "fine"})),
		ollamatest.Reply{Content: "done"},
	)
	out := e.run(ollama.URL)
	noPanic(t, out)
	if out.code != 0 || out.stdout != "done\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	want := []string{`Error: server "f": tool "corrupt" failed: the server sent a response that is not valid JSON`, "Echo: fine"}
	if got := told(ollama.Requests()); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("model told %q, want %q", got, want)
	}
	e.noneLeft("f")
}

// TestFaultOversizedResults: text over the server's maxResultBytes is cut
// with a note; a message over the 16 MiB transport bound fails its call
// alone.
func TestFaultOversizedResults(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	// 17 MB through the race detector can take over the default minute
	// of a tool call on a loaded machine: the limit is not the point here.
	e.config(e.server("f", `"maxResultBytes": 1000, "toolTimeout": "10m"`))
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		calls(ollamatest.Call("f__big", map[string]any{"size": 50_000})),
		calls(ollamatest.Call("f__big", map[string]any{"size": 17 << 20})),
		calls(ollamatest.Call("f__echo", map[string]any{"message": "fine"})),
		ollamatest.Reply{Content: "done"},
	)
	out := e.run(ollama.URL)
	noPanic(t, out)
	if out.code != 0 || out.stdout != "done\n" {
		t.Fatalf("exit %d, stdout %q, stderr %.500q", out.code, out.stdout, out.stderr)
	}
	got := told(ollama.Requests())
	if len(got) != 3 {
		t.Fatalf("model told %d results, want 3", len(got))
	}
	if !strings.HasPrefix(got[0], strings.Repeat("x", 1000)+"\n") || strings.Count(got[0], "x") != 1000 ||
		!strings.Contains(got[0], "[mcphost: the result was cut from 48.8 KB to 1000 bytes") {
		t.Errorf("cut result: %.100q… (%d bytes)", got[0], len(got[0]))
	}
	if !strings.HasPrefix(got[1], `Error: server "f": tool "big" failed: the server sent a response of 17.0 MB, over mcphost's limit of 16.0 MB`) {
		t.Errorf("oversized message: %.200q", got[1])
	}
	if got[2] != "Echo: fine" {
		t.Errorf("after the flood: %q", got[2])
	}
	e.noneLeft("f")
}

// TestFaultControlCharacters: terminal escapes in a tool's result never
// reach the terminal raw.
func TestFaultControlCharacters(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	e.config(e.server("f", ""))
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(calls(ollamatest.Call("f__ansi", nil)), ollamatest.Reply{Content: "done"})
	out := e.run(ollama.URL)
	noPanic(t, out)
	if out.code != 0 || out.stdout != "done\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	if rawTerminal(out.stderr) || !strings.Contains(out.stderr, "red") {
		t.Errorf("stderr: %q", out.stderr)
	}
	e.noneLeft("f")
}

// TestFaultShutdownSequence: a server that ignores its stdin closing and
// SIGTERM, with a grandchild that ignores SIGTERM, gets the whole
// sequence: stdin closed, SIGTERM a second later, SIGKILL two seconds
// after; nothing outlives mcphost.
func TestFaultShutdownSequence(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	e.config(e.server("stubborn", "", "-ignore-eof", "-ignore-term", "-grandchild"), e.server("polite", ""))
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	begin := time.Now()
	out := e.run(ollama.URL)
	took := time.Since(begin)
	noPanic(t, out)
	if out.code != 0 || out.stdout != "ok\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	if n := len(e.pids("stubborn")); n != 2 {
		t.Fatalf("stubborn recorded %d pids, want itself and its grandchild", n)
	}
	e.noneLeft("stubborn", "polite")
	trace := e.trace("stubborn")
	if i, j := strings.Index(trace, "stdin closed"), strings.Index(trace, "SIGTERM"); i < 0 || j < i {
		t.Errorf("stubborn's trace %q: want stdin closed, then SIGTERM", trace)
	}
	if took < 3*time.Second {
		t.Errorf("mcphost exited after %s: the SIGKILL came before stdin+1s+SIGTERM+2s", took)
	}
	// polite exits by itself once its stdin closes, before any SIGTERM
	// (which would end it without its "exit" line). On a loaded machine
	// the process may still be ending a second later and get the SIGTERM
	// after it chose to exit, which is no fault of the sequence.
	trace = e.trace("polite")
	closed, exit, term := strings.Index(trace, "stdin closed"), strings.Index(trace, "\nexit\n"), strings.Index(trace, "SIGTERM")
	if closed < 0 || exit < closed || (term >= 0 && term < exit) {
		t.Errorf("polite's trace %q: want stdin closed, then its own exit, with no SIGTERM before it", trace)
	}
}

// TestFaultSignals: Ctrl-C, SIGTERM or SIGHUP during a tool call: exit
// 130, the call cancelled, every server shut down.
func TestFaultSignals(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			e := newFaultEnv(t)
			e.config(e.server("f", ""), e.server("g", "", "-grandchild"))
			ollama := ollamatest.NewServer()
			defer ollama.Close()
			ollama.Enqueue(calls(ollamatest.Call("f__hang", nil)))
			cmd := invocation{args: faultArgs(), dir: e.dir, host: ollama.URL}.command(t)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitFor(t, func() bool { return strings.Contains(e.trace("f"), "hang started") })
			cmd.Process.Signal(sig)
			_ = cmd.Wait()
			if code := cmd.ProcessState.ExitCode(); code != 130 || !strings.Contains(stderr.String(), "interrupted") {
				t.Errorf("exit %d, stderr %q", code, stderr.String())
			}
			noPanic(t, outcome{stderr: stderr.String()})
			e.noneLeft("f", "g")
			if trace := e.trace("f"); !strings.Contains(trace, "cancelled hang") && !strings.Contains(trace, "stdin closed") {
				t.Errorf("f was not shut down gracefully: %q", trace)
			}
		})
	}
}

// TestFaultHTTPAuth: an HTTP server that refuses our credentials is an
// auth error naming the server and the config file, never the secret.
func TestFaultHTTPAuth(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "bad token", http.StatusUnauthorized)
	}))
	defer ts.Close()
	e := newFaultEnv(t)
	e.config(fmt.Sprintf(`"web": {"type": "http", "url": %q, "headers": {"Authorization": "Bearer ${WEB_TOKEN}"}}`, ts.URL), e.server("good", ""))
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	out := runBinary(t, invocation{args: faultArgs(), dir: e.dir, host: ollama.URL, env: []string{"WEB_TOKEN=tok-s3cret"}})
	noPanic(t, out)
	if out.code != 0 || out.stdout != "ok\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	want := fmt.Sprintf(`server "web": authentication failed (HTTP 401 Unauthorized) at %s: check the credentials in its headers in %s`, ts.URL, ".mcp.json")
	if !strings.Contains(out.stderr, want[:strings.Index(want, " in ")]) || !strings.Contains(out.stderr, ".mcp.json") {
		t.Errorf("stderr %q, want %q", out.stderr, want)
	}
	if strings.Contains(out.stderr, "s3cret") {
		t.Errorf("stderr shows the token: %q", out.stderr)
	}
	e.noneLeft("good")
}

// The scripted Ollama fails.

func TestFaultOllamaOverloadedThenAnswers(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{Status: http.StatusServiceUnavailable, Error: "server busy, please try again.  maximum pending requests exceeded"},
		ollamatest.Reply{Status: http.StatusInternalServerError, Error: "llama runner process has terminated: signal: killed"},
		ollamatest.Reply{Drop: true},
		ollamatest.Reply{Content: "answered at last"},
	)
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "hi", "--debug"}, host: ollama.URL})
	noPanic(t, out)
	if out.code != 0 || out.stdout != "answered at last\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	if n := ollama.RequestCount(); n != 4 {
		t.Errorf("%d requests, want 4", n)
	}
	if c := strings.Count(out.stderr, "model request failed: retrying"); c != 3 {
		t.Errorf("--debug shows %d retries, want 3:\n%s", c, out.stderr)
	}
}

func TestFaultOllamaKeepsFailing(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Handle(func(api.ChatRequest) ollamatest.Reply {
		return ollamatest.Reply{Status: http.StatusInternalServerError, Error: "model runner has unexpectedly stopped, this may be due to resource limitations"}
	})
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "hi"}, host: ollama.URL})
	noPanic(t, out)
	want := "mcphost: ollama: model runner has unexpectedly stopped, this may be due to resource limitations (tried 4 times)"
	if out.code != 3 || !strings.Contains(out.stderr, want) || out.stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 3 and %q", out.code, out.stdout, out.stderr, want)
	}
	if n := ollama.RequestCount(); n != 4 {
		t.Errorf("%d requests, want 4", n)
	}
}

func TestFaultOllamaNotRunning(t *testing.T) {
	t.Parallel()
	host := closedPort(t)
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "hi"}, host: host})
	noPanic(t, out)
	want := fmt.Sprintf(`cannot reach Ollama at %s (from OLLAMA_HOST): is "ollama serve" running? (tried 4 times)`, host)
	if out.code != 3 || !strings.Contains(out.stderr, want) {
		t.Errorf("exit %d, stderr %q, want %q", out.code, out.stderr, want)
	}
}

// TestFaultOllamaStreamCut: an answer cut off after some of it was shown
// is reported, and not retried (the user saw its start).
func TestFaultOllamaStreamCut(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Chunks: []string{"The answer ", "is forty", "-two."}, CutAfter: 2}, ollamatest.Reply{Content: "never"})
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "hi"}, host: ollama.URL})
	noPanic(t, out)
	if out.code != 3 || !strings.Contains(out.stderr, "the answer from Ollama was cut off mid-stream") {
		t.Errorf("exit %d, stderr %q", out.code, out.stderr)
	}
	if !strings.Contains(out.stdout, "The answer is forty") || strings.Contains(out.stdout, "never") {
		t.Errorf("stdout %q", out.stdout)
	}
	if n := ollama.RequestCount(); n != 1 {
		t.Errorf("%d requests: a shown answer was retried", n)
	}
}

func TestFaultOllamaErrorMidAnswer(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Chunks: []string{"Let me think"}, Error: "CUDA error: out of memory"})
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "hi"}, host: ollama.URL})
	noPanic(t, out)
	if out.code != 3 || !strings.Contains(out.stderr, "mcphost: ollama: CUDA error: out of memory") {
		t.Errorf("exit %d, stderr %q", out.code, out.stderr)
	}
}

func TestFaultOllamaSlowFirstToken(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "worth the wait", Delay: 1500 * time.Millisecond})
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "hi"}, host: ollama.URL})
	noPanic(t, out)
	if out.code != 0 || out.stdout != "worth the wait\n" || ollama.RequestCount() != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q, %d requests", out.code, out.stdout, out.stderr, ollama.RequestCount())
	}
}
