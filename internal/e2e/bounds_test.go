package e2e

// Bounds on what a remote party may make mcphost hold or wait for: a
// server's answer and its lists (issue 29, hole 7), a model call in all
// (hole 14), and a flood of list_changed notifications.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcphost/mcphost/ollamatest"
)

// runBounded runs inv like runBinary, but kills mcphost after limit: on
// the code without the bounds these runs would grow without end.
func runBounded(t *testing.T, inv invocation, limit time.Duration) outcome {
	t.Helper()
	cmd := inv.command(t)
	ctx, cancel := context.WithTimeout(t.Context(), limit)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stop := context.AfterFunc(ctx, func() { _ = cmd.Process.Kill() })
	defer stop()
	err := cmd.Wait()
	if ctx.Err() != nil {
		t.Fatalf("mcphost still ran after %s; stderr %q", limit, stderr.String())
	}
	code := 0
	if err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("running mcphost: %v", err)
		}
		code = exit.ExitCode()
	}
	return outcome{stdout: stdout.String(), stderr: stderr.String(), code: code}
}

// hugeServer is an MCP server over HTTP whose tools/list answer is size
// bytes of valid JSON, written as it goes (never held): as a JSON body, as
// one event of a Streamable HTTP event stream, or as one event of a legacy
// SSE stream. It counts what it managed to write.
type hugeServer struct {
	size    int
	mode    string // "json", "sse" (Streamable HTTP) or "legacy"
	written atomic.Int64
	events  chan func(io.Writer) // legacy: what the open GET stream sends next
}

func (h *hugeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.mode == "legacy" && r.Method == http.MethodGet {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "event: endpoint\ndata: /message\n\n")
		w.(http.Flusher).Flush()
		for {
			select {
			case send := <-h.events:
				send(w)
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			}
		}
	}
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.NewDecoder(r.Body).Decode(&msg) != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	var answer func(io.Writer)
	switch msg.Method {
	case "initialize":
		answer = func(w io.Writer) {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"huge","version":"1"}}}`, msg.ID)
		}
	case "tools/list":
		answer = func(w io.Writer) { h.writeTools(w, msg.ID) }
	default:
		if len(msg.ID) == 0 {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		answer = func(w io.Writer) {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no such method"}}`, msg.ID)
		}
	}
	switch h.mode {
	case "legacy":
		w.WriteHeader(http.StatusAccepted)
		h.events <- func(w io.Writer) {
			fmt.Fprint(w, "event: message\ndata: ")
			answer(w)
			fmt.Fprint(w, "\n\n")
		}
	case "sse":
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "event: message\ndata: ")
		answer(w)
		fmt.Fprint(w, "\n\n")
	default:
		w.Header().Set("Content-Type", "application/json")
		answer(w)
	}
}

// writeTools writes a tools/list result of about h.size bytes, stopping
// when the client hangs up.
func (h *hugeServer) writeTools(w io.Writer, id json.RawMessage) {
	bw := bufio.NewWriterSize(w, 64<<10)
	defer bw.Flush()
	count := func(n int, err error) bool {
		h.written.Add(int64(n))
		return err == nil
	}
	if !count(fmt.Fprintf(bw, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[`, id)) {
		return
	}
	pad := strings.Repeat("x", 1000)
	for i := 0; h.written.Load() < int64(h.size); i++ {
		if !count(fmt.Fprintf(bw, `{"name":"t%d","description":"%s","inputSchema":{"type":"object"}},`, i, pad)) {
			return
		}
	}
	count(fmt.Fprint(bw, `{"name":"last","inputSchema":{"type":"object"}}]}}`))
}

// TestAHugeAnswerOverHTTPIsRefused: a tools/list answer of 40 MB, over
// Streamable HTTP (a JSON body or an event stream) and legacy SSE, is
// refused past the 16 MiB message bound with an error naming the server,
// having read little more than the bound.
func TestAHugeAnswerOverHTTPIsRefused(t *testing.T) {
	// Not parallel: reading 16 MB under the race detector must fit in the
	// server's start timeout (45s, well above the 1-3 s it takes: a loaded
	// machine missed 20s).
	for _, mode := range []string{"json", "sse", "legacy"} {
		t.Run(mode, func(t *testing.T) {
			h := &hugeServer{size: 40 << 20, mode: mode, events: make(chan func(io.Writer), 4)}
			srv := httptest.NewServer(h)
			defer srv.Close()
			defer srv.CloseClientConnections()
			ollama := ollamatest.NewServer()
			defer ollama.Close()
			dir := t.TempDir()
			kind, url := "http", srv.URL
			if mode == "legacy" {
				kind, url = "sse", srv.URL+"/sse"
			}
			writeConfig(t, dir, ".mcp.json", fmt.Sprintf(`{"mcpServers": {"huge": {"type": %q, "url": %q, "timeout": "45s"}}}`, kind, url))
			out := runBounded(t, invocation{args: []string{"-m", "tiny", "-p", "hi", "--no-cache"}, dir: dir, host: ollama.URL}, 60*time.Second)
			want := `server "huge" sent a message of more than 16.0 MB, mcphost's limit for one message, so it was refused`
			if out.code != 5 || !strings.Contains(out.stderr, want) {
				t.Errorf("exit %d, stderr %q: want exit 5 and %q", out.code, out.stderr, want)
			}
			if n := h.written.Load(); n > 32<<20 {
				t.Errorf("the server wrote %d bytes before mcphost hung up", n)
			}
		})
	}
}

// TestEndlessPaginationIsStopped: a stdio server whose tools/list pages
// never end, or list more tools than mcphost's bound, fails to start with
// an error naming it and the bound; the run ends instead of growing.
func TestEndlessPaginationIsStopped(t *testing.T) {
	// Not parallel: the server must list its pages within its start
	// timeout (30s, well above the second it takes: a loaded machine
	// missed 5s).
	for _, c := range []struct {
		name, size, want string
	}{
		{"pages", "1", `server "endless" failed to start: its list of tools goes on past 100 pages, mcphost's limit`},
		{"items", "1000", `server "endless" failed to start: it lists more than 10000 tools, mcphost's limit; ask its maintainer to offer fewer`},
	} {
		t.Run(c.name, func(t *testing.T) {
			ollama := ollamatest.NewServer()
			defer ollama.Close()
			dir := t.TempDir()
			writeConfig(t, dir, ".mcp.json", fmt.Sprintf(`{"mcpServers": {"endless": {"command": %q, "args": ["-endless-tools", %q], "timeout": "30s"}}}`, faultServerBin, c.size))
			out := runBounded(t, invocation{args: []string{"-m", "tiny", "-p", "hi", "--no-cache"}, dir: dir, host: ollama.URL}, 60*time.Second)
			if out.code != 5 || !strings.Contains(out.stderr, c.want) {
				t.Errorf("exit %d, stderr %q: want exit 5 and %q", out.code, out.stderr, c.want)
			}
			if n := ollama.RequestCount(); n != 0 {
				t.Errorf("the model was called %d times although no server started", n)
			}
		})
	}
}

// TestATricklingModelIsStopped: a model that sends a piece now and then,
// never silent for --model-idle-timeout, still ends at --model-timeout,
// with exit 3 and an error naming the flag, and is not asked again.
func TestATricklingModelIsStopped(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	const n = 2000
	reply := ollamatest.Reply{Chunks: make([]string, n), HoldBefore: map[int]<-chan struct{}{}}
	gates := make([]chan struct{}, n)
	for i := range n {
		reply.Chunks[i] = "."
		gates[i] = make(chan struct{})
		reply.HoldBefore[i] = gates[i]
	}
	ollama.Enqueue(reply)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		// A piece every 50ms: never idle for 2s, yet 100s in all.
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for _, g := range gates {
			select {
			case <-tick.C:
				close(g)
			case <-stop:
				return
			}
		}
	}()
	out := runBounded(t, invocation{args: []string{"-m", "tiny", "-p", "hello?", "--model-idle-timeout", "2s", "--model-timeout", "1s", "--output", "json"}, host: ollama.URL}, 60*time.Second)
	var final struct {
		Error    string
		ExitCode int `json:"exit_code"`
	}
	if err := json.Unmarshal([]byte(out.stdout), &final); err != nil {
		t.Fatalf("stdout %q, stderr %q: %v", out.stdout, out.stderr, err)
	}
	if out.code != 3 || final.ExitCode != 3 || !strings.Contains(final.Error, "the model's call took longer than 1s in all, so it was stopped") || !strings.Contains(final.Error, "--model-timeout") {
		t.Errorf("exit %d, final %+v, stderr %q", out.code, final, out.stderr)
	}
	if n := ollama.RequestCount(); n != 1 {
		t.Errorf("%d model requests, want 1", n)
	}
}
