package servers

// Fault injection at the manager's level: servers that crash, hang, lie or
// flood, from internal/faultserver (a real process on the official SDK:
// this test binary under another name) and from in-process SDK servers
// over HTTP.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/faultserver"
	"github.com/mcphost/mcphost/mcptest"
)

// faultBin is the fault server: this test binary under the second name
// TestMain links it to.
var faultBin string

func TestMain(m *testing.M) {
	// The name first: a fault server started by a helper process inherits
	// the helper's environment.
	if faultserver.Invoked() {
		os.Exit(faultserver.Main())
	}
	if os.Getenv(helperEnv) != "" {
		os.Exit(runHelper())
	}
	dir, err := os.MkdirTemp("", "servers-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	faultBin, err = faultserver.Link(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// faultSpec starts the fault server with args.
func faultSpec(name string, args ...string) config.ServerSpec {
	return config.ServerSpec{Name: name, Command: faultBin, Args: args}
}

// startManager starts specs and fails the test on any start error.
func startManager(t *testing.T, opts Options, specs ...config.ServerSpec) *Manager {
	t.Helper()
	m := NewManager(specs, opts)
	t.Cleanup(func() { _ = m.Close() })
	if errs := m.Start(t.Context()); len(errs) > 0 {
		t.Fatal(errs)
	}
	return m
}

// status returns the status of one server.
func status(m *Manager, name string) ServerStatus {
	for _, st := range m.Status() {
		if st.Name == name {
			return st
		}
	}
	return ServerStatus{}
}

// waitStatus waits, on the manager's own change notifications, until the
// status of server name satisfies cond.
func waitStatus(t *testing.T, m *Manager, name string, cond func(ServerStatus) bool) ServerStatus {
	t.Helper()
	deadline := time.NewTimer(20 * time.Second)
	defer deadline.Stop()
	for {
		m.mu.RLock()
		changed := m.byName[name].changed
		m.mu.RUnlock()
		if st := status(m, name); cond(st) {
			return st
		}
		select {
		case <-changed:
		case <-deadline.C:
			t.Fatalf("server %s: status %+v never met the condition", name, status(m, name))
		}
	}
}

// waitFile polls a file another process writes until it contains want.
func waitFile(t *testing.T, path, want string) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		data, _ := os.ReadFile(path)
		if strings.Contains(string(data), want) {
			return string(data)
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never said %q; it holds %q", path, want, data)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// pids reads a pid file.
func pids(t *testing.T, path string) []int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, f := range strings.Fields(string(data)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("pid file %s: %v", path, err)
		}
		out = append(out, pid)
	}
	return out
}

// assertGone checks that no process in pids is alive, allowing the kernel
// a moment to finish those it was sent SIGKILL.
func assertGone(t *testing.T, pids []int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for _, pid := range pids {
		for mcptest.ProcessRunning(pid) {
			if time.Now().After(deadline) {
				t.Errorf("process %d is still alive", pid)
				mcptest.KillProcess(pid)
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func TestCrashDuringCallRestarts(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pids")
	m := startManager(t, Options{RestartDelay: 50 * time.Millisecond},
		faultSpec("f", "-pidfile", pidfile, "-message", "fault: \x1b[31mdisk on fire\x1b[0m"))
	first := status(m, "f").PID

	_, err := m.Call(t.Context(), "f__crash", nil)
	if !errors.Is(err, ErrServerUnavailable) || err.Error() != "server \"f\" exited (exit status 3); its last stderr lines: fault: disk on fire" {
		t.Errorf("call during which the server crashed: %v", err)
	}
	// The state is settled before the call learns of the exit.
	if st := status(m, "f"); st.State != StateRestarting || st.Err == nil || st.NextRestart.IsZero() || st.Restarts != 1 {
		t.Errorf("status right after the crash: %+v", st)
	}
	if n := len(m.Tools()); n == 0 {
		t.Error("a restarting server's tools are not listed")
	}
	// The next call waits for the restart.
	if got := call(t, m, "f__echo", map[string]any{"message": "back"}); got != "Echo: back" {
		t.Errorf("echo after the restart = %q", got)
	}
	st := status(m, "f")
	if st.State != StateReady || st.PID == first || st.Restarts != 1 || st.Err != nil {
		t.Errorf("status after the restart: %+v (first pid %d)", st, first)
	}
	if logs := strings.Join(m.Logs("f"), "\n"); strings.Contains(logs, "\x1b") {
		t.Errorf("logs keep terminal escapes: %q", logs)
	}
	_ = m.Close()
	assertGone(t, pids(t, pidfile))
}

// TestRestartBudget lets a server exit after every call until its
// restarts within a minute are used up: it then fails for good and its
// tools are withdrawn.
func TestRestartBudget(t *testing.T) {
	spec := faultSpec("f", "-exit-after", "1")
	spec.MaxRestarts = 2
	m := startManager(t, Options{RestartDelay: 20 * time.Millisecond}, spec)
	for i := range 3 {
		want := i // restarts so far
		waitStatus(t, m, "f", func(st ServerStatus) bool { return st.State == StateReady && st.Restarts == want })
		if got := call(t, m, "f__echo", map[string]any{"message": "x"}); got != "Echo: x" {
			t.Fatalf("call %d = %q", i, got) // marker
		}
	}
	st := waitStatus(t, m, "f", func(st ServerStatus) bool { return st.State == StateFailed })
	if st.Restarts != 2 || st.Err == nil || !strings.Contains(st.Err.Error(), "not restarted again: 2 restarts within a minute") ||
		!strings.Contains(st.Err.Error(), "exiting after 1 calls") {
		t.Errorf("status after the budget: %+v", st)
	}
	if len(m.Tools()) != 0 {
		t.Error("a failed server's tools are still offered")
	}
	_, err := m.Call(t.Context(), "f__echo", nil)
	if !errors.Is(err, ErrServerUnavailable) || !strings.Contains(err.Error(), "not restarted again") {
		t.Errorf("call to the failed server: %v", err)
	}
	// A restart on request is always allowed, and resets the budget.
	if err := m.Restart(t.Context(), "f"); err != nil {
		t.Fatal(err)
	}
	if got := call(t, m, "f__echo", map[string]any{"message": "y"}); got != "Echo: y" {
		t.Errorf("after Restart: %q", got)
	}
}

// TestExitAtStartIsRetried: a server that exits at its first start is
// started again, and Start waits for that second start: it is ready.
func TestExitAtStartIsRetried(t *testing.T) {
	state := filepath.Join(t.TempDir(), "starts")
	m := NewManager([]config.ServerSpec{faultSpec("f", "-exit-starts", "1", "-state", state, "-message", "fault: database locked")},
		Options{RestartDelay: 20 * time.Millisecond})
	t.Cleanup(func() { _ = m.Close() })
	if errs := m.Start(t.Context()); len(errs) != 0 {
		t.Errorf("start errors: %v", errs)
	}
	st := status(m, "f")
	if st.State != StateReady || st.Restarts != 1 {
		t.Errorf("after Start: %+v, want ready after 1 restart", st)
	}
	if len(m.Tools()) == 0 {
		t.Error("tools did not come back")
	}
}

// TestExitAtStartTheSameWayTwiceIsNotRetried: a server that exits at
// start twice with the same words is started no more; its one error says
// so and still ends with what it wrote.
func TestExitAtStartTheSameWayTwiceIsNotRetried(t *testing.T) {
	state := filepath.Join(t.TempDir(), "starts")
	m := NewManager([]config.ServerSpec{faultSpec("f", "-exit-starts", "5", "-state", state, "-message", "fault: database locked")},
		Options{RestartDelay: 20 * time.Millisecond})
	t.Cleanup(func() { _ = m.Close() })
	errs := m.Start(t.Context())
	const want = "server \"f\" exited during start (exit status 3); it wrote:\n  fault: database locked\n(it failed the same way twice, so it is not retried in this run)"
	if len(errs) != 1 || errs[0].Error() != want {
		t.Errorf("start errors: %v, want %q", errs, want)
	}
	if st := status(m, "f"); st.State != StateFailed || st.Restarts != 1 {
		t.Errorf("after Start: %+v, want failed after 1 restart", st)
	}
	if data, _ := os.ReadFile(state); strings.TrimSpace(string(data)) != "2" {
		t.Errorf("started %q times, want 2", data)
	}
}

func TestToolTimeout(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace")
	spec := faultSpec("f", "-trace", trace)
	spec.ToolTimeout = 300 * time.Millisecond
	m := startManager(t, Options{}, spec)

	for _, tool := range []string{"hang", "stubborn"} {
		begin := time.Now()
		_, err := m.Call(t.Context(), "f__"+tool, nil)
		want := fmt.Sprintf(`server "f": tool %q did not answer within 300ms; the call was cancelled`, tool) +
			" (run with --debug to see the server's messages; a slow tool gets more time with \"toolTimeout\": \"5m\" in the entry of \"f\")"
		if !errors.Is(err, ErrToolTimeout) || err.Error() != want {
			t.Errorf("%s: %v, want %q", tool, err, want)
		}
		if d := time.Since(begin); d > 5*time.Second {
			t.Errorf("%s: the timeout took %s", tool, d)
		}
		// The server stays usable, even with a call it never gave up.
		if got := call(t, m, "f__echo", map[string]any{"message": tool}); got != "Echo: "+tool {
			t.Errorf("after %s: %q", tool, got)
		}
	}
	// notifications/cancelled reached the server, which ended its handler.
	waitFile(t, trace, "cancelled hang")
	if st := status(m, "f"); st.State != StateReady || st.Restarts != 0 {
		t.Errorf("status after timeouts: %+v", st)
	}
}

func TestStdoutGarbage(t *testing.T) {
	spec := faultSpec("f", "-banner", "Welcome to the fault server v1 (not JSON-RPC)")
	spec.MaxResultBytes = 1000
	m := startManager(t, Options{MaxMessageBytes: 64 << 10}, spec)

	if got := call(t, m, "f__noise", nil); got != "quiet again" {
		t.Errorf("noise = %q", got)
	}
	logs := m.Logs("f")
	joined := strings.Join(logs, "\n")
	for _, want := range []string{
		"stdout: Welcome to the fault server v1",
		"stdout: Server listening...",
		`stdout: {"level":"info"`,
		`stdout: {"jsonrpc":"2.0","method":"notifications/message","params":`,
		"stdout: red \uFFFD",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("log lacks %q:\n%s", want, joined)
		}
	}

	begin := time.Now()
	_, err := m.Call(t.Context(), "f__corrupt", nil)
	if err == nil || err.Error() != `server "f": tool "corrupt" failed: the server sent a response that is not valid JSON` {
		t.Errorf("corrupt response: %v", err)
	}
	if d := time.Since(begin); d > 5*time.Second {
		t.Errorf("the corrupt response took %s to report: it waited for a timeout", d)
	}

	_, err = m.Call(t.Context(), "f__big", map[string]any{"size": 100_000})
	if err == nil || !strings.Contains(err.Error(), "over mcphost's limit of 64.0 KB") {
		t.Errorf("oversized response: %v", err)
	}

	got := call(t, m, "f__big", map[string]any{"size": 5000})
	if !strings.HasPrefix(got, strings.Repeat("x", 1000)+"\n[mcphost: the result was cut from 4.9 KB to 1000 bytes") || strings.Count(got, "x") != 1000 {
		t.Errorf("cut result = %.80q… (%d bytes)", got, len(got))
	}
	if got := call(t, m, "f__echo", map[string]any{"message": "still here"}); got != "Echo: still here" {
		t.Errorf("after the garbage: %q", got)
	}
	if st := status(m, "f"); st.Restarts != 0 || st.State != StateReady {
		t.Errorf("garbage cost a restart: %+v", st)
	}
}

// TestShutdownSequence checks the whole stdio shutdown on a server that
// ignores both its stdin closing and SIGTERM, and has a grandchild that
// ignores SIGTERM too: stdin closed, SIGTERM a second later, SIGKILL two
// seconds after that, and nothing left.
func TestShutdownSequence(t *testing.T) {
	dir := t.TempDir()
	trace, pidfile := filepath.Join(dir, "trace"), filepath.Join(dir, "pids")
	stubborn := faultSpec("stubborn", "-trace", trace, "-pidfile", pidfile, "-ignore-eof", "-ignore-term", "-grandchild")
	politeTrace := filepath.Join(dir, "polite")
	polite := faultSpec("polite", "-trace", politeTrace)
	m := startManager(t, Options{}, stubborn, polite)
	waitFile(t, trace, "grandchild")
	all := pids(t, pidfile)
	if len(all) != 2 {
		t.Fatalf("pids %v, want the server and its grandchild", all)
	}

	begin := time.Now()
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	took := time.Since(begin)
	assertGone(t, all)
	if took < stdinGrace+termGrace || took > stdinGrace+termGrace+killGrace+2*time.Second {
		t.Errorf("Close took %s, want the whole sequence (about %s)", took, stdinGrace+termGrace)
	}
	events := waitFile(t, trace, "SIGTERM")
	if i, j := strings.Index(events, "stdin closed"), strings.Index(events, "SIGTERM"); i < 0 || j < i {
		t.Errorf("trace %q: want stdin closed, then SIGTERM", events)
	}
	// The polite server exited on EOF, at once and in parallel.
	waitFile(t, politeTrace, "exit")
	if ev, _ := os.ReadFile(politeTrace); strings.Contains(string(ev), "SIGTERM") {
		t.Errorf("a server that exits on EOF got SIGTERM: %q", ev)
	}
}

// TestDisableEnableDuringCall disables a server while a call to it waits:
// the call ends at once saying why, the tools go at once, and Enable
// brings them back.
func TestDisableEnableDuringCall(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace")
	m := startManager(t, Options{}, faultSpec("f", "-trace", trace), faultSpec("other"))
	done := make(chan error)
	go func() {
		_, err := m.Call(context.Background(), "f__hang", nil)
		done <- err
	}()
	waitFile(t, trace, "hang started")
	if err := m.Disable("f"); err != nil {
		t.Fatal(err)
	}
	for _, tool := range m.Tools() {
		if strings.HasPrefix(tool.Name, "f__") {
			t.Errorf("tool %s still offered after Disable", tool.Name)
		}
	}
	if err := <-done; !errors.Is(err, ErrServerUnavailable) || err.Error() != `server "f" was disabled` {
		t.Errorf("call during Disable: %v", err)
	}
	if _, err := m.Call(t.Context(), "f__echo", nil); err == nil || err.Error() != `server "f" is disabled` {
		t.Errorf("call to a disabled server: %v", err)
	}
	if st := status(m, "f"); st.State != StateDisabled || st.ToolCount != 0 {
		t.Errorf("status of a disabled server: %+v", st)
	}
	if err := m.Restart(t.Context(), "f"); err == nil {
		t.Error("Restart started a disabled server")
	}
	if err := m.Enable(t.Context(), "f"); err != nil {
		t.Fatal(err)
	}
	if got := call(t, m, "f__echo", map[string]any{"message": "on"}); got != "Echo: on" {
		t.Errorf("after Enable: %q", got)
	}
	if got := call(t, m, "other__echo", map[string]any{"message": "untouched"}); got != "Echo: untouched" {
		t.Errorf("the other server: %q", got)
	}
	if err := m.Disable("nope"); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("Disable of an unknown server: %v", err)
	}
}

// TestConcurrentCallsRestartsAndDisable hammers one manager from several
// goroutines: calls to the same and to different servers, while one
// server is restarted, disabled and enabled again. Run under -race; every
// call must succeed or fail with a worded ErrServerUnavailable.
func TestConcurrentCallsRestartsAndDisable(t *testing.T) {
	m := startManager(t, Options{RestartDelay: 10 * time.Millisecond}, faultSpec("a"), faultSpec("b"))
	stop := make(chan struct{})
	var calls, failed atomic.Int64
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Go(func() {
			name := []string{"a__echo", "b__echo", "a__slow"}[i%3]
			for j := 0; ; j++ {
				select {
				case <-stop:
					return
				default:
				}
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				msg := fmt.Sprintf("%d-%d", i, j)
				args := map[string]any{"message": msg}
				if name == "a__slow" {
					args = map[string]any{"ms": 5}
				}
				res, err := m.Call(ctx, name, args)
				cancel()
				calls.Add(1)
				switch {
				case err == nil:
					text := resultText(t, res)
					if text != "Echo: "+msg && text != "slept 5 ms" {
						t.Errorf("%s returned %q", name, text)
					}
				case errors.Is(err, ErrServerUnavailable) && strings.HasPrefix(err.Error(), `server "a" `):
					failed.Add(1)
				default:
					t.Errorf("%s: %v", name, err)
				}
			}
		})
	}
	wg.Go(func() {
		for range 10 {
			if err := m.Restart(context.Background(), "a"); err != nil {
				t.Errorf("Restart: %v", err)
			}
			if err := m.Disable("a"); err != nil {
				t.Errorf("Disable: %v", err)
			}
			_ = m.Tools()
			_ = m.Status()
			if err := m.Enable(context.Background(), "a"); err != nil {
				t.Errorf("Enable: %v", err)
			}
		}
		close(stop)
	})
	wg.Wait()
	t.Logf("%d calls, %d failed while a was restarted or disabled", calls.Load(), failed.Load())
	if st := status(m, "a"); st.State != StateReady {
		t.Errorf("a ends %+v", st)
	}
	if st := status(m, "b"); st.State != StateReady || st.Restarts != 0 {
		t.Errorf("b was disturbed: %+v", st)
	}
}

// httpFaults is an in-process Streamable HTTP MCP server whose handler
// can be told to fail.
type httpFaults struct {
	mu      sync.Mutex
	fail    map[string][]int // JSON-RPC method → statuses to answer, in turn
	forget  bool             // answer the next request of a session with 404
	deny    bool             // answer everything with 401
	methods []string         // methods seen, in order
	inner   http.Handler
}

func newHTTPFaults(t *testing.T) (*httpFaults, string) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "httpfaults", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo"}, func(_ context.Context, _ *mcp.CallToolRequest, in struct {
		Message string `json:"message"`
	}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Echo: " + in.Message}}}, nil, nil
	})
	h := &httpFaults{fail: map[string][]int{}, inner: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return h, ts.URL
}

func (h *httpFaults) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	method := r.Method
	if r.Method == http.MethodPost {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			Method string `json:"method"`
		}
		_ = json.Unmarshal(body, &msg)
		method = msg.Method
	}
	h.mu.Lock()
	h.methods = append(h.methods, method)
	var status int
	switch {
	case h.deny:
		status = http.StatusUnauthorized
	case h.forget && r.Header.Get("Mcp-Session-Id") != "":
		h.forget = false
		status = http.StatusNotFound
	case len(h.fail[method]) > 0:
		status = h.fail[method][0]
		h.fail[method] = h.fail[method][1:]
	}
	h.mu.Unlock()
	if status != 0 {
		http.Error(w, http.StatusText(status), status)
		return
	}
	h.inner.ServeHTTP(w, r)
}

func (h *httpFaults) count(method string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, m := range h.methods {
		if m == method {
			n++
		}
	}
	return n
}

func TestHTTPFaults(t *testing.T) {
	h, url := newHTTPFaults(t)
	h.fail["initialize"] = []int{http.StatusBadGateway}
	h.fail["tools/list"] = []int{http.StatusInternalServerError}
	m := startManager(t, Options{RestartDelay: 20 * time.Millisecond},
		config.ServerSpec{Name: "web", Transport: config.TransportHTTP, URL: url, Headers: map[string]string{"Authorization": "Bearer s3cret"}})
	if h.count("initialize") != 2 || h.count("tools/list") != 2 {
		t.Errorf("start saw initialize %d, tools/list %d times; want each retried once", h.count("initialize"), h.count("tools/list"))
	}

	t.Run("503 is retried", func(t *testing.T) {
		h.mu.Lock()
		h.fail["tools/call"] = []int{http.StatusServiceUnavailable}
		h.mu.Unlock()
		before := h.count("tools/call")
		if got := call(t, m, "web__echo", map[string]any{"message": "a"}); got != "Echo: a" {
			t.Errorf("echo = %q", got)
		}
		if n := h.count("tools/call") - before; n != 2 {
			t.Errorf("tools/call sent %d times, want 2", n)
		}
	})

	t.Run("500 on a call is not retried", func(t *testing.T) {
		h.mu.Lock()
		h.fail["tools/call"] = []int{http.StatusInternalServerError}
		h.mu.Unlock()
		before := h.count("tools/call")
		if _, err := m.Call(t.Context(), "web__echo", map[string]any{"message": "b"}); err == nil || !strings.HasPrefix(err.Error(), `server "web"`) {
			t.Errorf("call answered 500: %v", err)
		}
		if n := h.count("tools/call") - before; n != 1 {
			t.Errorf("tools/call sent %d times, want 1 (a tool must not act twice)", n)
		}
		if got := call(t, m, "web__echo", map[string]any{"message": "c"}); got != "Echo: c" {
			t.Errorf("after the 500: %q", got)
		}
	})

	t.Run("lost session initialises again", func(t *testing.T) {
		inits := h.count("initialize")
		h.mu.Lock()
		h.forget = true
		h.mu.Unlock()
		if got := call(t, m, "web__echo", map[string]any{"message": "d"}); got != "Echo: d" {
			t.Errorf("call after the session was lost = %q", got)
		}
		if h.count("initialize") != inits+1 {
			t.Errorf("initialize sent %d more times, want 1", h.count("initialize")-inits)
		}
	})

	t.Run("401 is an auth error", func(t *testing.T) {
		restarts := status(m, "web").Restarts
		h.mu.Lock()
		h.deny = true
		h.mu.Unlock()
		_, err := m.Call(t.Context(), "web__echo", map[string]any{"message": "e"})
		if !errors.Is(err, ErrAuth) || !strings.HasPrefix(err.Error(), `server "web": authentication failed (HTTP 401 Unauthorized)`) {
			t.Errorf("call refused with 401: %v", err)
		}
		if err != nil && strings.Contains(err.Error(), "s3cret") {
			t.Errorf("the error shows the header value: %v", err)
		}
		st := waitStatus(t, m, "web", func(st ServerStatus) bool { return st.State == StateFailed })
		if !errors.Is(st.Err, ErrAuth) || st.Restarts != restarts || st.ToolCount != 0 {
			t.Errorf("after a 401: %+v; want failed without restarts", st)
		}
	})
}

func TestRetryTransportDialErrors(t *testing.T) {
	// Nothing listens on port 1: every try is refused, and every kind of
	// request is retried, since none reached a server.
	var tries atomic.Int32
	rt := &retryTransport{base: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		tries.Add(1)
		return http.DefaultTransport.RoundTrip(r)
	}), retries: 2, delay: time.Millisecond, log: slog.New(slog.DiscardHandler)}
	req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1:1/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`))
	if _, err := rt.RoundTrip(req); err == nil || netCause(err) != "connection refused" {
		t.Errorf("err = %v", err)
	}
	if tries.Load() != 3 {
		t.Errorf("%d tries, want 3", tries.Load())
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestHTTPCloseEndsTheSession checks that Close ends an HTTP session with
// DELETE, and a 5xx at start is retried.
func TestHTTPCloseEndsTheSession(t *testing.T) {
	h, url := newHTTPFaults(t)
	h.fail["initialize"] = []int{http.StatusServiceUnavailable, http.StatusBadGateway}
	m := NewManager([]config.ServerSpec{{Name: "web", Transport: config.TransportHTTP, URL: url}}, Options{})
	if errs := m.Start(t.Context()); len(errs) > 0 {
		t.Fatal(errs)
	}
	if n := h.count("initialize"); n != 3 {
		t.Errorf("initialize sent %d times, want 3", n)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if n := h.count(http.MethodDelete); n != 1 {
		t.Errorf("%d DELETEs after Close, want 1", n)
	}
}
