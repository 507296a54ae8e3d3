package e2e

// Benchmarks behind ./scripts/bench.sh: start-up with 0, 1 and 5 stdio
// servers, and the host's own time per agent step over a 50-step tool loop.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/servers"
	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/ollamatest"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/provider/ollama"
	"github.com/mcphost/mcphost/runner"
	"github.com/mcphost/mcphost/tool"
)

// releaseBinary is mcphost built as a user builds it (go build: no test
// code, no race detector), once, into the folder TestMain removes. The
// benchmarks measure the command's own start-up, memory and time, which
// the test binary re-run as mcphost inflates (3 to 4 MB more peak RSS).
var releaseBinary = sync.OnceValues(func() (string, error) {
	bin := filepath.Join(filepath.Dir(binary), "release", filepath.Base(binary))
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		return "", fmt.Errorf("building mcphost for the benchmarks: %v\n%s", err, out)
	}
	return bin, nil
})

// releaseBin returns the path of releaseBinary, building it the first
// time: call it before the benchmark's timer starts.
func releaseBin(b *testing.B) string {
	b.Helper()
	bin, err := releaseBinary()
	if err != nil {
		b.Fatal(err)
	}
	return bin
}

// runAs makes cmd, a run of mcphost, run the program bin instead.
func runAs(bin string, cmd *exec.Cmd) *exec.Cmd {
	cmd.Path, cmd.Args[0] = bin, bin
	return cmd
}

// BenchmarkStartup is the wall time of a one-shot run, start to answer,
// with N server-everything instances over stdio and a model that answers at
// once. Five servers should cost about what one costs: they start in
// parallel. It also reports mcphost's own peak RSS.
func BenchmarkStartup(b *testing.B) {
	mcphost := releaseBin(b)
	bin := mcptest.NPMBin(b, "mcp-server-everything")
	model := ollamatest.NewServer()
	defer model.Close()
	for _, n := range []int{0, 1, 5} {
		b.Run(fmt.Sprintf("servers=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			var entries []string
			for i := range n {
				entries = append(entries, fmt.Sprintf(`"s%d": {"command": %q}`, i, bin))
			}
			if err := os.WriteFile(dir+"/.mcp.json", []byte(`{"mcpServers": {`+strings.Join(entries, ",")+`}}`), 0o644); err != nil {
				b.Fatal(err)
			}
			var peakKB int64
			var slowest, sum time.Duration
			b.ResetTimer()
			for b.Loop() {
				cmd := exec.Command(mcphost, "-m", "tiny", "-p", "hi", "--debug")
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "HOME="+dir, "OLLAMA_HOST="+model.URL)
				var stdout, stderr strings.Builder
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Run(); err != nil || stdout.String() != "ok\n" {
					b.Fatalf("run failed: %v: %s%s", err, stdout.String(), stderr.String())
				}
				// mcphost logs each server's start time and its own peak
				// RSS (the rusage a parent sees includes reaped servers).
				var runSlowest time.Duration
				for _, d := range debugValues(stderr.String(), "server ready", "after") {
					dur, _ := time.ParseDuration(d)
					runSlowest = max(runSlowest, dur)
					sum += dur
				}
				slowest += runSlowest
				for _, v := range debugValues(stderr.String(), "exiting", "peak_rss_kb") {
					kb, _ := strconv.ParseInt(v, 10, 64)
					peakKB = max(peakKB, kb)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/run")
			b.ReportMetric(float64(slowest.Milliseconds())/float64(b.N), "slowest-server-ms")
			b.ReportMetric(float64(sum.Milliseconds())/float64(b.N), "sum-of-servers-ms")
			b.ReportMetric(float64(peakKB)/1024, "mcphost-peak-RSS-MB")
		})
	}
}

// debugValues returns the value of key on each --debug log line whose
// message is msg.
func debugValues(log, msg, key string) []string {
	var vals []string
	for _, line := range strings.Split(log, "\n") {
		if !strings.Contains(line, "msg=\""+msg+"\"") && !strings.Contains(line, "msg="+msg+" ") {
			continue
		}
		for _, f := range strings.Fields(line) {
			if v, ok := strings.CutPrefix(f, key+"="); ok {
				vals = append(vals, v)
			}
		}
	}
	return vals
}

// timedProvider and timedTools measure the time spent waiting on the model
// and on the MCP server, so what is left of a step is the host's own time.
type timedProvider struct {
	provider.Provider
	spent atomic.Int64
}

func (p *timedProvider) Chat(ctx context.Context, req provider.Request, onDelta func(provider.Delta)) (provider.Response, error) {
	start := time.Now()
	defer func() { p.spent.Add(int64(time.Since(start))) }()
	return p.Provider.Chat(ctx, req, onDelta)
}

type timedTools struct {
	*servers.Manager
	spent atomic.Int64
}

func (t *timedTools) Call(ctx context.Context, name string, args map[string]any) (*tool.Result, error) {
	start := time.Now()
	defer func() { t.spent.Add(int64(time.Since(start))) }()
	return t.Manager.Call(ctx, name, args)
}

// BenchmarkAgentStep runs a 50-step tool loop (scripted model calling
// server-everything's echo) and splits each step's time into the model
// round trip (HTTP to the scripted server, encoding and decoding), the MCP
// call, and the host's own work (the runner: history, dispatch, results).
func BenchmarkAgentStep(b *testing.B) {
	const steps = 50
	ctx := context.Background()
	model := ollamatest.NewServer()
	defer model.Close()
	model.Handle(func(req api.ChatRequest) ollamatest.Reply {
		calls := 0
		for _, m := range req.Messages {
			if m.Role == "tool" {
				calls++
			}
		}
		if calls < steps-1 {
			return ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__echo", map[string]any{"message": fmt.Sprint("step ", calls)})}}
		}
		return ollamatest.Reply{Content: "done"}
	})
	backend, err := ollama.New(model.URL, nil)
	if err != nil {
		b.Fatal(err)
	}
	manager := servers.NewManager([]config.ServerSpec{mcptest.EverythingSpec(b, "everything")}, servers.Options{ClientName: "bench"})
	defer manager.Close()
	if errs := manager.Start(ctx); len(errs) > 0 {
		b.Fatal(errs)
	}
	info, err := backend.Show(ctx, "tiny")
	if err != nil {
		b.Fatal(err)
	}
	var total, host, chat, tools time.Duration
	for b.Loop() {
		p := &timedProvider{Provider: backend}
		tb := &timedTools{Manager: manager}
		r := runner.New(p, tb, runner.Options{Model: info, MaxSteps: steps})
		start := time.Now()
		res, err := r.Run(ctx, "loop", func(runner.Event) {})
		elapsed := time.Since(start)
		if err != nil || res.Steps != steps {
			b.Fatalf("run: %v after %d steps", err, res.Steps)
		}
		total += elapsed
		chat += time.Duration(p.spent.Load())
		tools += time.Duration(tb.spent.Load())
		host += elapsed - time.Duration(p.spent.Load()) - time.Duration(tb.spent.Load())
	}
	per := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N*steps) }
	b.ReportMetric(per(total), "ms/step")
	b.ReportMetric(per(host), "host-ms/step")
	b.ReportMetric(per(chat), "model-roundtrip-ms/step")
	b.ReportMetric(per(tools), "mcp-call-ms/step")
}
