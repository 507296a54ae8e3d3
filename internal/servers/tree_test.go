package servers

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/mcptest"
)

// helperEnv makes the test binary a helper process instead of running the
// tests (the pattern of go-sdk's cmd_test.go): it starts the fault server
// named by FAULT_BIN through a Manager, with the fault flags in FAULT_ARGS
// (one per line), and waits to be killed.
const helperEnv = "SERVERS_TEST_HELPER"

func runHelper() int {
	args := strings.Split(os.Getenv("FAULT_ARGS"), "\n")
	m := NewManager([]config.ServerSpec{{Name: "f", Command: os.Getenv("FAULT_BIN"), Args: args}}, Options{})
	if errs := m.Start(context.Background()); len(errs) > 0 {
		fmt.Fprintln(os.Stderr, errs)
		return 1
	}
	time.Sleep(time.Hour)
	return 0
}

// escapingGrandchild skips where a process that leaves its group is not
// tracked (see sysproc).
func escapingGrandchild(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "windows" {
		t.Skip("processes that leave their group are not tracked on " + runtime.GOOS)
	}
}

// TestEscapedGrandchildDies: a grandchild that left the server's process
// group (setsid, as a daemon does) dies when the server crashes and when
// the manager closes.
func TestEscapedGrandchildDies(t *testing.T) {
	escapingGrandchild(t)
	dir := t.TempDir()
	pidfile, trace := filepath.Join(dir, "pids"), filepath.Join(dir, "trace")
	m := startManager(t, Options{RestartDelay: 10 * time.Millisecond},
		faultSpec("f", "-pidfile", pidfile, "-trace", trace, "-grandchild", "-escape"))
	waitFile(t, trace, "grandchild")
	first := pids(t, pidfile)
	if len(first) != 2 || !mcptest.ProcessRunning(first[1]) {
		t.Fatalf("pids %v: want the server and its running grandchild", first)
	}
	if _, err := m.Call(t.Context(), "f__crash", nil); !errors.Is(err, ErrServerUnavailable) {
		t.Fatalf("the crash call: %v", err)
	}
	assertGone(t, first)

	// The restarted server has a new grandchild; Close ends it.
	if got := call(t, m, "f__echo", map[string]any{"message": "back"}); got != "Echo: back" {
		t.Fatalf("after the restart: %q", got)
	}
	all := pids(t, pidfile)
	if len(all) != 4 {
		t.Fatalf("pids %v: want two servers and two grandchildren", all)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	assertGone(t, all[2:])
}

// TestKilledHostTakesServerDown: when the process running the manager is
// killed outright (SIGKILL, TerminateProcess), the system ends its stdio
// server, which here ignores both its stdin closing and SIGTERM: Linux by
// the parent-death signal, Windows by closing the Job Object.
func TestKilledHostTakesServerDown(t *testing.T) {
	escapingGrandchild(t)
	dir := t.TempDir()
	pidfile, trace := filepath.Join(dir, "pids"), filepath.Join(dir, "trace")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	host := exec.Command(self)
	args := []string{"-pidfile", pidfile, "-trace", trace, "-ignore-eof", "-ignore-term"}
	host.Env = append(os.Environ(), helperEnv+"=1", "FAULT_BIN="+faultBin, "FAULT_ARGS="+strings.Join(args, "\n"))
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // on failure too: the helper would sleep for an hour
		_ = host.Process.Kill()
		_ = host.Wait()
	})
	waitFile(t, pidfile, "\n") // the server writes its pid after its first trace line
	server := pids(t, pidfile)
	if len(server) != 1 || !mcptest.ProcessRunning(server[0]) {
		t.Fatalf("pids %v: want the running server", server)
	}
	if err := host.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	assertGone(t, server)
}
