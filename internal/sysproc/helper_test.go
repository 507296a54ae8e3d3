package sysproc

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// helperEnv names the helper a re-executed test binary plays instead of
// running the tests (the pattern of go-sdk's cmd_test.go).
const helperEnv = "SYSPROC_TEST_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(runHelper(mode))
	}
	os.Exit(m.Run())
}

// runHelper plays one helper:
//
//	sleep         sleep for an hour
//	spawn         start a "sleep" child the ordinary way, append its pid to
//	              $PIDFILE, then sleep, or exit with THEN=exit
//	parent-death  start a Tree of a "sleep" child, append its pid, sleep
//	platform      (per OS, see runPlatformHelper)
func runHelper(mode string) int {
	switch mode {
	case "sleep":
		time.Sleep(time.Hour)
		return 0
	case "spawn":
		child := helperCmd("sleep")
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		appendPid(child.Process.Pid)
		if os.Getenv("THEN") == "exit" {
			return 0
		}
		time.Sleep(time.Hour)
		return 0
	case "parent-death":
		tr, err := Start(helperCmd("sleep"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		appendPid(tr.Pid())
		time.Sleep(time.Hour)
		return 0
	}
	return runPlatformHelper(mode)
}

// helperCmd is this test binary run as helper mode.
func helperCmd(mode string, env ...string) *exec.Cmd {
	self, err := os.Executable()
	if err != nil {
		panic(err)
	}
	cmd := exec.Command(self)
	cmd.Env = append(append(os.Environ(), helperEnv+"="+mode), env...)
	return cmd
}

func appendPid(pid int) {
	f, err := os.OpenFile(os.Getenv("PIDFILE"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	defer f.Close()
	fmt.Fprintln(f, pid)
}

// readPids reads the pids appended to path.
func readPids(path string) ([]int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("pid file %s: %q", path, data)
		}
		pids = append(pids, pid)
	}
	return pids, nil
}

// waitPids waits until path holds n pids and returns them.
func waitPids(t *testing.T, path string, n int) []int {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		pids, _ := readPids(path)
		if len(pids) >= n {
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited 20s for %d pids in %s, have %v", n, path, pids)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitDead waits until pid no longer runs, failing the test after a while,
// and kills it then so that a failure leaves nothing behind.
func waitDead(t *testing.T, pid int, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for processRunning(pid) {
		if time.Now().After(deadline) {
			killPid(pid)
			t.Errorf("%s (pid %d) is still running", what, pid)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// endTree ends tr for the test's cleanup, whatever the test did.
func endTree(t *testing.T, tr *Tree) {
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		tr.End(ctx)
	})
}
