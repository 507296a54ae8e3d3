//go:build linux

package e2e

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/servers"
	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/provider/ollama"
	"github.com/mcphost/mcphost/runner"
)

// cacheSlotLine is the real Ollama's debug line for each prompt it
// evaluates: how many tokens the prompt has, and how many of them were not
// in its prompt cache (remaining), which it evaluates.
var cacheSlotLine = regexp.MustCompile(`msg="loading cache slot".* prompt=(\d+) used=(\d+) remaining=(\d+)`)

// BenchmarkPromptCache measures what the engine's prompt cache saves on
// the real Ollama: a conversation of two turns, each a search for a tool,
// a call of the tool found and an answer (six model requests), over the
// 36 tools of three servers of which a tenth of an 8,192-token window
// holds only some. Per request: the prompt's tokens (what the engine
// evaluates when its cache holds nothing of the prompt) beside the tokens
// it evaluated, which is all of them from the first that changed.
func BenchmarkPromptCache(b *testing.B) {
	ollamaBin, gen, serve := ollamaTools(b)
	work := b.TempDir()
	addr := freeAddr(b)
	port := strings.TrimPrefix(addr, "127.0.0.1:")
	cmd := exec.Command("bash", serve, ollamaBin, gen, work, port, "tiny",
		"-call", `mcphost__search_tools={"query":"add two numbers"}`, "-call", `everything__get-sum={"a":2,"b":3}`, "-answer", "5.")
	cmd.Env = append(os.Environ(), "OLLAMA_DEBUG=1")
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("serve.sh: %v", err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	b.Cleanup(func() {
		children := childPIDs(pid)
		syscall.Kill(pid, syscall.SIGKILL)
		for _, c := range children {
			syscall.Kill(c, syscall.SIGKILL)
		}
	})

	ctx := context.Background()
	dir := b.TempDir()
	manager := servers.NewManager([]config.ServerSpec{
		mcptest.EverythingSpec(b, "everything"),
		mcptest.FilesystemSpec(b, "files", dir),
		mcptest.MemorySpec(b, "memory", filepath.Join(dir, "m.json")),
	}, servers.Options{ClientName: "bench"})
	defer manager.Close()
	if errs := manager.Start(ctx); len(errs) > 0 {
		b.Fatal(errs)
	}
	backend, err := ollama.New("http://"+addr, nil)
	if err != nil {
		b.Fatal(err)
	}
	info, err := backend.Show(ctx, "tiny")
	if err != nil {
		b.Fatal(err)
	}
	info.Name = "tiny"
	logFile := filepath.Join(work, "ollama.log")
	seen := len(cacheSlots(b, logFile))

	var prompt, evaluated, later, laterPrompt, requests, laterRequests int
	for b.Loop() {
		r := runner.New(backend, manager, runner.Options{Model: info, NumCtx: 8192, ToolShare: 0.1, SystemPrompt: "You are a careful assistant."})
		for _, q := range []string{"Remember that Alice works at Acme Corp, and tell me 2 and 3 together", "And now tell me 2 and 3 together again"} {
			res, err := r.Run(ctx, q, nil)
			if err != nil || res.Steps != 3 || len(res.ToolCalls) != 2 || res.ToolCalls[1].IsError {
				b.Fatalf("turn %q: %v after %d steps (calls %+v)", q, err, res.Steps, res.ToolCalls)
			}
		}
		slots := cacheSlots(b, logFile)
		if len(slots)-seen != 6 {
			b.Fatalf("the engine evaluated %d prompts, want 6", len(slots)-seen)
		}
		b.Logf("[prompt evaluated] per request: %v", slots[seen:])
		for i, s := range slots[seen:] {
			prompt += s[0]
			evaluated += s[1]
			requests++
			if i > 0 {
				later += s[1]
				laterPrompt += s[0]
				laterRequests++
			}
		}
		seen = len(slots)
	}
	b.ReportMetric(float64(prompt)/float64(requests), "prompt-tokens/request")
	b.ReportMetric(float64(evaluated)/float64(requests), "evaluated-tokens/request")
	b.ReportMetric(float64(laterPrompt)/float64(laterRequests), "prompt-tokens/later-request")
	b.ReportMetric(float64(later)/float64(laterRequests), "evaluated-tokens/later-request")
}

// cacheSlots reads, from the real Ollama's debug log, each evaluated
// prompt's size and the tokens of it evaluated.
func cacheSlots(b *testing.B, log string) [][2]int {
	f, err := os.Open(log)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var out [][2]int
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		if m := cacheSlotLine.FindStringSubmatch(sc.Text()); m != nil {
			p, _ := strconv.Atoi(m[1])
			r, _ := strconv.Atoi(m[3])
			out = append(out, [2]int{p, r})
		}
	}
	return out
}
