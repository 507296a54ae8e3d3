package e2e

// Session files under concurrency and crashes: runs that share a --session
// file take turns, and nothing they write is lost.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/internal/session"
	"github.com/mcphost/mcphost/ollamatest"
)

// sessionModel answers every prompt with a tool call, then with an answer
// naming the prompt: four messages per run.
func sessionModel(t *testing.T) *ollamatest.Server {
	model := ollamatest.NewServer()
	t.Cleanup(model.Close)
	model.Handle(func(req api.ChatRequest) ollamatest.Reply {
		var prompt string
		for _, m := range req.Messages {
			if m.Role == "user" {
				prompt = m.Content
			}
		}
		if last := req.Messages[len(req.Messages)-1]; last.Role == "user" {
			return ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fs__list_allowed_directories", nil)}}
		}
		return ollamatest.Reply{Content: "answer to " + prompt}
	})
	return model
}

func TestConcurrentRunsOnOneSessionKeepEveryTurn(t *testing.T) {
	t.Parallel()
	model := sessionModel(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	const runs = 20
	var wg sync.WaitGroup
	outs := make([]outcome, runs)
	for i := range runs {
		wg.Go(func() {
			outs[i] = runBinary(t, invocation{args: []string{"-m", "tiny", "--session", path, "-p", fmt.Sprint("run ", i)}, dir: dir, host: model.URL})
		})
	}
	wg.Wait()
	for i, out := range outs {
		if out.code != 0 {
			t.Fatalf("run %d: exit %d, stderr %q", i, out.code, out.stderr)
		}
	}
	f, err := session.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Messages) != 4*runs {
		t.Fatalf("the session holds %d messages, want %d", len(f.Messages), 4*runs)
	}
	// Each run's turn is whole: user, call, result, answer, in a row.
	seen := map[string]bool{}
	for i := 0; i < len(f.Messages); i += 4 {
		turn := f.Messages[i : i+4]
		prompt := turn[0].Content
		if turn[0].Role != "user" || len(turn[1].ToolCalls) != 1 || turn[2].Role != "tool" || turn[3].Content != "answer to "+prompt {
			t.Fatalf("turn at message %d is not whole: %+v", i, turn)
		}
		if seen[prompt] {
			t.Fatalf("%q was saved twice", prompt)
		}
		seen[prompt] = true
	}
	// Each run continued from all the runs before it: the n-th run to get
	// the file sent the model the 4(n-1) messages before its prompt.
	counts := map[int]bool{}
	for _, req := range model.Requests() {
		if last := req.Messages[len(req.Messages)-1]; last.Role == "user" {
			counts[len(req.Messages)-1] = true
		}
	}
	for n := range runs {
		if !counts[4*n] {
			t.Errorf("no run started from %d earlier messages: the runs did not take turns", 4*n)
		}
	}
}

func TestSessionWaitZeroGivesUpAndChangesNothing(t *testing.T) {
	t.Parallel()
	model := sessionModel(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	if out := runBinary(t, invocation{args: []string{"-m", "tiny", "--session", path, "-p", "first"}, dir: dir, host: model.URL}); out.code != 0 {
		t.Fatalf("first run: %d %s", out.code, out.stderr)
	}
	before, _ := os.ReadFile(path)
	// Another run holds the file (the lock is the same one every run takes).
	held, err := session.Acquire(context.Background(), path, session.LockOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	requests := model.RequestCount()
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "--session", path, "--session-wait", "0", "-p", "second"}, dir: dir, host: model.URL})
	if out.code != 2 || !strings.Contains(out.stderr, fmt.Sprintf("held by process %d", os.Getpid())) || !strings.Contains(out.stderr, "--session-wait") {
		t.Errorf("exit %d, stderr %q; want 2 naming the holder", out.code, out.stderr)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) || model.RequestCount() != requests {
		t.Error("a run that gave up changed the session or asked the model")
	}
	// A bounded wait says once that it waits, then gives up the same way.
	out = runBinary(t, invocation{args: []string{"-m", "tiny", "--session", path, "--session-wait", "200ms", "-p", "third"}, dir: dir, host: model.URL})
	if out.code != 2 || strings.Count(out.stderr, "waiting for it") != 1 {
		t.Errorf("bounded wait: exit %d, stderr %q", out.code, out.stderr)
	}
}

func TestKilledRunReleasesTheSession(t *testing.T) {
	t.Parallel()
	model := ollamatest.NewServer()
	defer model.Close()
	hold := make(chan struct{})
	defer close(hold)
	asked := make(chan struct{}, 1)
	model.Handle(func(req api.ChatRequest) ollamatest.Reply {
		if req.Messages[len(req.Messages)-1].Content == "stuck" {
			asked <- struct{}{}
			return ollamatest.Reply{Content: "never", Hold: hold}
		}
		return ollamatest.Reply{Content: "fine"}
	})
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	cmd := invocation{args: []string{"-m", "tiny", "--session", path, "-p", "stuck"}, dir: dir, host: model.URL}.command(t)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	<-asked // the run holds the session and waits for the model
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "--session", path, "--session-wait", "10s", "-p", "next"}, dir: dir, host: model.URL})
	if out.code != 0 || out.stdout != "fine\n" {
		t.Fatalf("the run after the killed one: exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	var f session.File
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &f); err != nil || len(f.Messages) != 2 || f.Messages[0].Content != "next" {
		t.Errorf("session after the kill: %s", data)
	}
}
