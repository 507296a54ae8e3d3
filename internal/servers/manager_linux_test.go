package servers

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/mcptest"
)

func TestCloseKillsProcessGroup(t *testing.T) {
	bin := mcptest.NPMBin(t, "mcp-server-everything")
	m := NewManager([]config.ServerSpec{{
		Name:    "wrapped",
		Command: "sh",
		// A grandchild that ignores stdin closing and SIGTERM alike.
		Args: []string{"-c", `trap "" TERM; sleep 300 & exec "$0"`, bin},
	}}, Options{})
	if errs := m.Start(t.Context()); len(errs) > 0 {
		t.Fatal(errs)
	}
	pgid := m.Status()[0].PID
	if !groupAlive(pgid) {
		t.Fatalf("group %d not running after Start", pgid)
	}
	begin := time.Now()
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("Close took %s", time.Since(begin))
	// Close waits for the SIGKILLed group to be gone (the signal is
	// delivered asynchronously), so nothing may be running now.
	if groupAlive(pgid) {
		t.Fatalf("process group %d still has live processes after Close", pgid)
	}
}

// TestServerExitAfterStart kills a real server between calls: the next
// call waits for the automatic restart and goes through.
func TestServerExitAfterStart(t *testing.T) {
	m := NewManager([]config.ServerSpec{mcptest.EverythingSpec(t, "ev")}, Options{})
	t.Cleanup(func() { _ = m.Close() })
	if errs := m.Start(t.Context()); len(errs) > 0 {
		t.Fatal(errs)
	}
	pid := m.Status()[0].PID
	if err := syscall.Kill(-pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// This call may still meet the dead process (the exit is noticed a
	// moment later), which must say so; the next one waits for the restart.
	if _, err := m.Call(t.Context(), "ev__echo", map[string]any{"message": "x"}); err != nil &&
		(!errors.Is(err, ErrServerUnavailable) || !strings.HasPrefix(err.Error(), `server "ev" was killed (signal: killed)`)) {
		t.Errorf("call to the dead server: %v", err)
	}
	if got := call(t, m, "ev__echo", map[string]any{"message": "again"}); got != "Echo: again" {
		t.Errorf("call after a restart = %q", got)
	}
	st := m.Status()[0]
	if st.State != StateReady || st.Restarts != 1 || st.PID == pid || st.PID == 0 {
		t.Errorf("after the restart: %+v (old pid %d)", st, pid)
	}
	if groupAlive(pid) {
		t.Errorf("the killed server's group %d is still alive", pid)
	}
}

// groupAlive reports whether a process of group pgid is still running
// (zombies do not count).
func groupAlive(pgid int) bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	want := strconv.Itoa(pgid)
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// After the parenthesised command: state, ppid, pgrp, ...
		s := string(stat)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) > 2 && fields[2] == want && fields[0] != "Z" {
			return true
		}
	}
	return false
}
