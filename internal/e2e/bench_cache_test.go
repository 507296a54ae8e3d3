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

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/ollamatest"
)

// BenchmarkFirstRequest reports, per run, the time from start to the first
// model request, the wall time, and the CPU seconds of mcphost and every
// server it started (they are its reaped children), with 0, 5, 10 and 20
// server-everything instances, cold and warm; and with 5 warm ones beside
// a server that never answers initialize, which holds the first request
// for --server-wait (2s here), not for its start timeout (60s).
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
	type setup struct {
		n     int
		cache string
		// hung adds a server that never answers initialize, with
		// --server-wait hungWait: the run is held that long, not its
		// start timeout.
		hung bool
	}
	var setups []setup
	for _, n := range []int{0, 5, 10, 20} {
		for _, cache := range []string{"cold", "warm"} {
			setups = append(setups, setup{n, cache, false})
		}
	}
	setups = append(setups, setup{5, "warm", true})
	const hungWait = "2s"
	for _, su := range setups {
		n, cache := su.n, su.cache
		name := fmt.Sprintf("servers=%d/%s", n, cache)
		if su.hung {
			name = fmt.Sprintf("servers=%d+hung/%s/server-wait=%s", n, cache, hungWait)
		}
		{
			b.Run(name, func(b *testing.B) {
				dir := b.TempDir()
				entries := make([]string, n)
				for i := range n {
					// Each server is its own cache entry, as different
					// servers are.
					entries[i] = fmt.Sprintf(`"s%d": {"command": %q, "env": {"INSTANCE": "%d"}}`, i, bin, i)
				}
				if su.hung {
					entries = append(entries, fmt.Sprintf(`"hung": {"command": %q, "args": ["-hang-init"]}`, faultServerBin))
				}
				cfg := filepath.Join(dir, "servers.json")
				if err := os.WriteFile(cfg, []byte(`{"mcpServers": {`+strings.Join(entries, ",")+`}}`), 0o600); err != nil {
					b.Fatal(err)
				}
				run := func(cacheDir string) (toFirst, wall, cpu time.Duration) {
					cmd := exec.Command(mcphost, "-m", "tiny", "-p", "echo hi", "--config", cfg, "--allow-tool", "s0__echo")
					cmd.Dir = dir
					// The default wait, not the long one TestMain gives the
					// tests.
					wait := "MCPHOST_SERVER_WAIT=" + config.DefaultServerWait.String()
					if su.hung {
						wait = "MCPHOST_SERVER_WAIT=" + hungWait
					}
					cmd.Env = append(os.Environ(), "HOME="+dir, "OLLAMA_HOST="+model.URL, "XDG_CACHE_HOME="+cacheDir, wait)
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
