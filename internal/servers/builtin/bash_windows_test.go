package builtin

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcphost/mcphost/mcptest"
)

// sleeperEnv makes the test binary sleep instead of running the tests: a
// process for commands to start that is sure to exist on any Windows.
const sleeperEnv = "BUILTIN_TEST_SLEEP"

func TestMain(m *testing.M) {
	if path := os.Getenv(sleeperEnv); path != "" {
		_ = os.WriteFile(path, []byte(strconv.Itoa(os.Getpid())), 0o644)
		time.Sleep(time.Hour)
		return
	}
	os.Exit(m.Run())
}

// TestBashWithCmd: with cmd as the shell, a command line runs as written,
// its exit status is reported, and on a timeout what it started is ended
// with it (the Job Object).
func TestBashWithCmd(t *testing.T) {
	dir := t.TempDir()
	srv, err := NewBash(BashOptions{WorkingDir: dir, Shell: "cmd"})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, srv)
	got := mustOK(t, cs, "run", map[string]any{"command": `echo "quoted & more"`})
	if !strings.HasPrefix(got, "\"quoted & more\"") {
		t.Errorf("output = %q", got)
	}
	mustFail(t, cs, "run", map[string]any{"command": "exit /b 3"}, "[exit status 3, ")

	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pidfile := filepath.Join(dir, "sleeper.pid")
	line := fmt.Sprintf(`set %s=%s&& "%s"`, sleeperEnv, pidfile, self)
	mustFail(t, cs, "run", map[string]any{"command": line, "timeout_seconds": 2}, "killed after the 2s timeout")
	data, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatalf("the sleeper never started: %v", err)
	}
	pid, _ := strconv.Atoi(string(data))
	if mcptest.ProcessRunning(pid) {
		mcptest.KillProcess(pid)
		t.Errorf("process %d outlived the timeout", pid)
	}
}
