package e2e

// BenchmarkFirstRequest is what the tool-list cache and lazy start buy: a
// one-shot run with N configured servers whose model calls one tool of one
// of them, cold (no cache: every server starts before the model is asked)
// and warm (the model is asked at once; only the called server starts).

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/ollamatest"
)

// BenchmarkFirstRequest reports, per run, the time from start to the first
// model request, the wall time, and the CPU seconds of mcphost and every
// server it started (they are its reaped children), with 0, 5, 10 and 20
// server-everything instances, cold and warm.
func BenchmarkFirstRequest(b *testing.B) {
	mcphost := releaseBin(b)
	bin := mcptest.NPMBin(b, "mcp-server-everything")
	model := ollamatest.NewServer()
	defer model.Close()
	var (
		mu    sync.Mutex
		first time.Time // the first model request of the current run
	)
	model.Handle(func(req api.ChatRequest) ollamatest.Reply {
		for _, m := range req.Messages {
			if m.Role == "tool" {
				return ollamatest.Reply{Content: "ok"}
			}
		}
		mu.Lock()
		first = time.Now()
		mu.Unlock()
		if len(req.Tools) == 0 {
			return ollamatest.Reply{Content: "ok"}
		}
		return ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("s0__echo", map[string]any{"message": "hi"})}}
	})
	for _, n := range []int{0, 5, 10, 20} {
		for _, cache := range []string{"cold", "warm"} {
			b.Run(fmt.Sprintf("servers=%d/%s", n, cache), func(b *testing.B) {
				dir := b.TempDir()
				entries := make([]string, n)
				for i := range n {
					// Each server is its own cache entry, as different
					// servers are.
					entries[i] = fmt.Sprintf(`"s%d": {"command": %q, "env": {"INSTANCE": "%d"}}`, i, bin, i)
				}
				cfg := filepath.Join(dir, "servers.json")
				if err := os.WriteFile(cfg, []byte(`{"mcpServers": {`+strings.Join(entries, ",")+`}}`), 0o600); err != nil {
					b.Fatal(err)
				}
				run := func(cacheDir string) (toFirst, wall, cpu time.Duration) {
					cmd := exec.Command(mcphost, "-m", "tiny", "-p", "echo hi", "--config", cfg, "--allow-tool", "s0__echo")
					cmd.Dir = dir
					cmd.Env = append(os.Environ(), "HOME="+dir, "OLLAMA_HOST="+model.URL, "XDG_CACHE_HOME="+cacheDir)
					var out strings.Builder
					cmd.Stdout, cmd.Stderr = &out, &out
					start := time.Now()
					if err := cmd.Run(); err != nil || !strings.Contains(out.String(), "ok") {
						b.Fatalf("run failed: %v: %s", err, out.String())
					}
					wall = time.Since(start)
					mu.Lock()
					toFirst = first.Sub(start)
					mu.Unlock()
					return toFirst, wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
				}
				warmCache := filepath.Join(dir, "cache")
				if cache == "warm" {
					run(warmCache) // fills the cache
				}
				var toFirst, wall, cpu time.Duration
				for i := 0; b.Loop(); i++ {
					cacheDir := warmCache
					if cache == "cold" {
						cacheDir = filepath.Join(dir, fmt.Sprintf("cold%d", i))
					}
					f, w, c := run(cacheDir)
					toFirst, wall, cpu = toFirst+f, wall+w, cpu+c
				}
				per := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
				b.ReportMetric(per(toFirst), "ms-to-first-request")
				b.ReportMetric(per(wall), "ms/run")
				b.ReportMetric(per(cpu)/1000, "cpu-s/run")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}
