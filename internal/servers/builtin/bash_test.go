//go:build unix

// The bash server's tests run POSIX shell command lines.

package builtin

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestBashRunsInItsDirectory(t *testing.T) {
	dir := t.TempDir()
	srv, err := NewBash(BashOptions{WorkingDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, srv)
	got := mustOK(t, cs, "run", map[string]any{"command": "pwd; echo err >&2"})
	real, _ := filepath.EvalSymlinks(dir)
	if !strings.HasPrefix(got, real+"\nerr\n[exit status 0, ") {
		t.Errorf("output = %q, want the directory, stderr, then the status", got)
	}
	got = mustFail(t, cs, "run", map[string]any{"command": "echo partial; exit 3"}, "[exit status 3, ")
	if !strings.HasPrefix(got, "partial\n") {
		t.Errorf("a failing command lost its output: %q", got)
	}
}

func TestBashCapsOutput(t *testing.T) {
	srv, err := NewBash(BashOptions{MaxOutput: 100})
	if err != nil {
		t.Fatal(err)
	}
	got := mustOK(t, connect(t, srv), "run", map[string]any{"command": "head -c 5000 /dev/zero | tr '\\0' x"})
	if !strings.HasPrefix(got, strings.Repeat("x", 100)+"\n[output truncated: 5000 bytes in all, the first 100 shown]") {
		t.Errorf("output = %q", got)
	}
}

// TestBashTimeoutKillsTheGroup runs a command that leaves a background
// process; on timeout both are gone.
func TestBashTimeoutKillsTheGroup(t *testing.T) {
	dir := t.TempDir()
	srv, err := NewBash(BashOptions{WorkingDir: dir, Timeout: Duration(time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, srv)
	start := time.Now()
	got := mustFail(t, cs, "run", map[string]any{"command": "sleep 300 & echo $! > bg.pid; echo started; sleep 300", "timeout_seconds": 1}, "killed after the 1s timeout")
	if !strings.HasPrefix(got, "started\n") {
		t.Errorf("output before the timeout was lost: %q", got)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the call took %s", d)
	}
	data, err := os.ReadFile(filepath.Join(dir, "bg.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if err := syscall.Kill(pid, 0); err == nil && !zombie(pid) {
		t.Errorf("background process %d outlived the timeout", pid)
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// zombie reports whether pid has exited but is not yet reaped.
func zombie(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && i+2 < len(s) && s[i+2] == 'Z'
}

// TestBashCancel interrupts a running command (Ctrl-C in mcphost cancels
// the call's context): the command and what it started are killed.
func TestBashCancel(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "started")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
	srv, err := NewBash(BashOptions{WorkingDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, srv)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{
			"command": "sleep 300 & echo $! > bg.pid; echo go > started; wait"}})
		done <- err
	}()
	// Reading the FIFO waits until the command has started its child.
	if _, err := os.ReadFile(pipe); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-done; err == nil {
		t.Error("a cancelled call returned no error")
	}
	data, err := os.ReadFile(filepath.Join(dir, "bg.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	// The server kills the group when its handler sees the cancellation,
	// which arrives as a notification after the client gave up.
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(pid, 0) == nil && !zombie(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("process %d outlived the cancelled call", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestBashOptionErrors(t *testing.T) {
	if _, err := NewBash(BashOptions{WorkingDir: "/definitely/not/here"}); err == nil || !strings.Contains(err.Error(), "not an existing directory") {
		t.Errorf("missing working_dir: %v", err)
	}
	if _, err := NewBash(BashOptions{Shell: "definitely-not-a-shell"}); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("missing shell: %v", err)
	}
}
