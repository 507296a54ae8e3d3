package servers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/tool"
)

// resultText joins the text content of a tool result.
func resultText(t *testing.T, res *tool.Result) string {
	t.Helper()
	var b strings.Builder
	for _, c := range res.Content {
		if c.Kind == tool.Text {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// call calls a tool and returns its text, failing the test on any error.
func call(t *testing.T, m *Manager, name string, args map[string]any) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	res, err := m.Call(ctx, name, args)
	if err != nil {
		t.Fatalf("Call(%s): %v", name, err)
	}
	if res.IsError {
		t.Fatalf("Call(%s) reported an error: %s", name, resultText(t, res))
	}
	return resultText(t, res)
}

// TestManager starts one manager with every kind of server, working and
// broken, side by side, and checks them through subtests sharing it.
func TestManager(t *testing.T) {
	httpURL := mcptest.StartEverything(t, "streamableHttp")
	sseURL := mcptest.StartEverything(t, "sse")

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hi"), 0o644); err != nil {
		t.Fatal(err)
	}
	memFile := filepath.Join(t.TempDir(), "memory.jsonl")

	var gotKey sync.Map // the header the fake server saw
	authSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotKey.Store("key", r.Header.Get("X-Api-Key"))
		http.Error(w, "no", http.StatusUnauthorized)
	}))
	t.Cleanup(authSrv.Close)

	filtered := mcptest.EverythingSpec(t, "filtered")
	filtered.AllowedTools = []string{"echo", "get-sum", "get-env"}
	filtered.ExcludedTools = []string{"get-env"}

	specs := []config.ServerSpec{
		mcptest.EverythingSpec(t, "everything"),
		mcptest.FilesystemSpec(t, "fs", dir),
		mcptest.MemorySpec(t, "memory", memFile),
		{Name: "http", Transport: config.TransportHTTP, URL: httpURL},
		{Name: "sse", Transport: config.TransportSSE, URL: sseURL},
		filtered,
		{Name: "typo", Command: "npx-typo-does-not-exist"},
		{Name: "boom", Command: "sh", Args: []string{"-c", "echo starting >&2; echo boom >&2; exit 3"}, MaxRestarts: -1},
		{Name: "hang", Command: "sh", Args: []string{"-c", "sleep 300"}, StartTimeout: time.Second},
		{Name: "auth", Transport: config.TransportHTTP, URL: authSrv.URL, Headers: map[string]string{"X-Api-Key": "secret"}},
		{Name: "down", Transport: config.TransportHTTP, URL: "http://127.0.0.1:1/mcp", MaxRestarts: -1},
		{Name: "bad__name", Command: "sh"},
		{Name: "off", Command: "sh", Disabled: true},
	}
	m := NewManager(specs, Options{ClientName: "mcphost-test", ClientVersion: "0"})
	t.Cleanup(func() { _ = m.Close() })

	begin := time.Now()
	errs := m.Start(t.Context())
	took := time.Since(begin)
	t.Logf("Start took %s; errors: %q", took, errs)

	t.Run("start errors", func(t *testing.T) {
		want := map[string]string{
			"typo":      `server "typo" failed to start: command "npx-typo-does-not-exist" not found`,
			"boom":      "server \"boom\" exited during start (exit status 3); it wrote:\n  starting\n  boom",
			"hang":      `server "hang" did not start within 1s`,
			"auth":      `server "auth": authentication failed (HTTP 401 Unauthorized) at ` + authSrv.URL + ": check the credentials in its headers",
			"bad__name": `server "bad__name": a server name must not contain "__"`,
			"down":      `server "down": cannot connect to http://127.0.0.1:1/mcp: connection refused`,
		}
		if len(errs) != len(want) {
			t.Errorf("Start returned %d errors, want %d: %v", len(errs), len(want), errs)
		}
		for _, err := range errs {
			var se *StartError
			if !errors.As(err, &se) {
				t.Errorf("%v is a %T, not a *StartError", err, err)
				continue
			}
			w, ok := want[se.Server]
			if !ok || !strings.HasPrefix(se.Error(), w) {
				t.Errorf("error for %q = %q, want prefix %q", se.Server, se.Error(), w)
			}
		}
		if v, _ := gotKey.Load("key"); v != "secret" {
			t.Errorf("http server saw X-Api-Key %q, want %q", v, "secret")
		}
		for _, err := range errs {
			if strings.Contains(err.Error(), "secret") {
				t.Errorf("an error shows a header value: %v", err)
			}
		}
	})

	t.Run("parallel start", func(t *testing.T) {
		// Sequential starts would take at least the sum of the ready times
		// plus the hanging server's 1s timeout.
		sum := time.Second
		for _, st := range m.Status() {
			sum += st.Ready
		}
		if took >= sum {
			t.Errorf("Start took %s, not less than the sum of the starts %s", took, sum)
		}
	})

	t.Run("status", func(t *testing.T) {
		want := map[string]State{
			"everything": StateReady, "fs": StateReady, "memory": StateReady, "http": StateReady,
			"sse": StateReady, "filtered": StateReady, "typo": StateFailed, "boom": StateFailed,
			"hang": StateFailed, "auth": StateFailed, "down": StateFailed, "bad__name": StateFailed, "off": StateDisabled,
		}
		for _, st := range m.Status() {
			if st.State != want[st.Name] {
				t.Errorf("%s: state %s (%v), want %s", st.Name, st.State, st.Err, want[st.Name])
			}
			if st.State == StateReady && (st.ToolCount == 0 || st.Ready <= 0 || st.StartedAt.IsZero()) {
				t.Errorf("%s: ready with %+v", st.Name, st)
			}
			if st.State == StateReady && (st.Transport == config.TransportStdio) != (st.PID > 0) {
				t.Errorf("%s: transport %s with PID %d", st.Name, st.Transport, st.PID)
			}
			if st.State == StateFailed && st.Err == nil {
				t.Errorf("%s: failed without an error", st.Name)
			}
		}
	})

	t.Run("tools", func(t *testing.T) {
		var names []string
		for _, tool := range m.Tools() {
			names = append(names, tool.Name)
		}
		for _, n := range []string{"everything__echo", "fs__list_directory", "memory__create_entities", "http__get-sum", "sse__echo"} {
			if !strings.Contains(" "+strings.Join(names, " ")+" ", " "+n+" ") {
				t.Errorf("tool %s missing from %v", n, names)
			}
		}
		if names[0] != "everything__echo" {
			t.Errorf("first tool %s, want everything__echo (config order, then server order)", names[0])
		}
		server, tool, ok := m.Lookup("http__get-sum")
		if !ok || server != "http" || tool != "get-sum" {
			t.Errorf("Lookup(http__get-sum) = %q, %q, %v", server, tool, ok)
		}
	})

	t.Run("filters", func(t *testing.T) {
		var got []string
		for _, tool := range m.Tools() {
			if strings.HasPrefix(tool.Name, "filtered__") {
				got = append(got, tool.Name)
			}
		}
		if strings.Join(got, ",") != "filtered__echo,filtered__get-sum" {
			t.Errorf("filtered tools = %v, want echo and get-sum", got)
		}
		if _, err := m.Call(t.Context(), "filtered__get-env", nil); !errors.Is(err, ErrUnknownTool) {
			t.Errorf("excluded tool callable: %v", err)
		}
	})

	t.Run("echo over every transport", func(t *testing.T) {
		for _, name := range []string{"everything__echo", "http__echo", "sse__echo", "filtered__echo"} {
			if got := call(t, m, name, map[string]any{"message": "hello " + name}); !strings.Contains(got, "hello "+name) {
				t.Errorf("%s returned %q", name, got)
			}
		}
	})

	t.Run("filesystem keeps its directory", func(t *testing.T) {
		got := call(t, m, "fs__list_directory", map[string]any{"path": dir})
		if !strings.Contains(got, "hello.txt") {
			t.Errorf("list_directory(%s) = %q, want hello.txt in it", dir, got)
		}
	})

	t.Run("memory writes its file", func(t *testing.T) {
		call(t, m, "memory__create_entities", map[string]any{"entities": []any{
			map[string]any{"name": "Ada_Lovelace", "entityType": "person", "observations": []any{"wrote programs"}},
		}})
		data, err := os.ReadFile(memFile)
		if err != nil || !strings.Contains(string(data), "Ada_Lovelace") {
			t.Errorf("memory file %s = %q, %v; want the entity", memFile, data, err)
		}
	})

	t.Run("call errors", func(t *testing.T) {
		_, err := m.Call(t.Context(), "nope__x", nil)
		if !errors.Is(err, ErrUnknownTool) || err.Error() != `unknown tool "nope__x"` {
			t.Errorf("unknown tool: %v", err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if _, err := m.Call(ctx, "everything__echo", map[string]any{"message": "x"}); !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled call: %v, want context.Canceled", err)
		}
	})

	t.Run("concurrent calls", func(t *testing.T) {
		names := []string{"everything__get-sum", "http__get-sum", "sse__get-sum", "filtered__get-sum"}
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Go(func() {
				name := names[i%len(names)]
				ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
				defer cancel()
				res, err := m.Call(ctx, name, map[string]any{"a": i, "b": 1000})
				if err != nil {
					t.Errorf("%s: %v", name, err)
					return
				}
				if got := resultText(t, res); !strings.Contains(got, fmt.Sprint(i+1000)) {
					t.Errorf("%s(%d, 1000) = %q", name, i, got)
				}
			})
		}
		wg.Wait()
	})

	t.Run("logs", func(t *testing.T) {
		if got := m.Logs("boom"); len(got) != 2 || got[1] != "boom" {
			t.Errorf("Logs(boom) = %q", got)
		}
		if m.Logs("nope") != nil {
			t.Error("Logs of an unknown server is not nil")
		}
	})

	t.Run("close", func(t *testing.T) {
		begin := time.Now()
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(begin); d > 5*time.Second {
			t.Errorf("Close took %s", d)
		}
		if err := m.Close(); err != nil {
			t.Errorf("second Close: %v", err)
		}
		if _, err := m.Call(t.Context(), "everything__echo", nil); !errors.Is(err, ErrServerUnavailable) {
			t.Errorf("call after Close: %v", err)
		}
		if len(m.Tools()) != 0 {
			t.Errorf("tools after Close: %d", len(m.Tools()))
		}
	})
}

func TestStartCancelled(t *testing.T) {
	m := NewManager([]config.ServerSpec{{Name: "hang", Command: "sh", Args: []string{"-c", "sleep 300"}}}, Options{})
	t.Cleanup(func() { _ = m.Close() })
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	errs := m.Start(ctx)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "start cancelled") {
		t.Errorf("Start with a cancelled context: %v", errs)
	}
	if errs := m.Start(t.Context()); len(errs) != 1 {
		t.Errorf("second Start: %v", errs)
	}
}

func TestCloseDuringStart(t *testing.T) {
	starting := make(chan struct{})
	m := NewManager([]config.ServerSpec{{Name: "hang", Command: "sh", Args: []string{"-c", "sleep 300"}}}, Options{
		OnStart: func(n StartNews) {
			if n.Starting != nil {
				close(starting)
			}
		},
	})
	done := make(chan []error)
	go func() { done <- m.Start(t.Context()) }()
	// Close must not wait for the 30s start timeout.
	<-starting
	begin := time.Now()
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	errs := <-done
	if d := time.Since(begin); d > 5*time.Second {
		t.Errorf("Close during Start took %s", d)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "start cancelled") {
		t.Errorf("Start cut short by Close: %v", errs)
	}
}

// TestStdioEnvironment checks what a stdio server is started with, through
// servers that print it to stderr and exit.
func TestStdioEnvironment(t *testing.T) {
	t.Setenv("MCPHOST_TEST_OURS", "ours")
	t.Setenv("MCPHOST_TEST_BOTH", "ours")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "srv.sh"), []byte("#!/bin/sh\necho local script >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		spec config.ServerSpec
		want string
	}{
		{"env", config.ServerSpec{Command: "sh", Args: []string{"-c", `echo "$MCPHOST_TEST_OURS $MCPHOST_TEST_BOTH $MCPHOST_TEST_THEIRS" >&2`},
			Env: map[string]string{"MCPHOST_TEST_BOTH": "spec", "MCPHOST_TEST_THEIRS": "spec"}}, "ours spec spec"},
		{"dir", config.ServerSpec{Command: "sh", Args: []string{"-c", "pwd >&2"}, Dir: dir}, dir},
		{"relative command in dir", config.ServerSpec{Command: "./srv.sh", Dir: dir}, "local script"},
		{"no stderr", config.ServerSpec{Command: "sh", Args: []string{"-c", "exit 7"}}, "exit status 7"},
		{"relative command missing", config.ServerSpec{Command: "./nope.sh", Dir: dir}, `command "./nope.sh" not found`},
	}
	var specs []config.ServerSpec
	for _, tt := range tests {
		tt.spec.Name = tt.name
		specs = append(specs, tt.spec)
	}
	m := NewManager(specs, Options{})
	t.Cleanup(func() { _ = m.Close() })
	errs := m.Start(t.Context())
	for i, tt := range tests {
		st := m.Status()[i]
		// What the server wrote ends the failure, before the note of a
		// server not retried.
		if st.Err == nil || !strings.HasSuffix(strings.TrimSuffix(st.Err.Error(), notRetried("")), tt.want) {
			t.Errorf("%s: error %v, want what it wrote, %q, at its end", tt.name, st.Err, tt.want)
		}
	}
	if len(errs) != len(tests) {
		t.Errorf("%d errors for %d failing servers", len(errs), len(tests))
	}
}
