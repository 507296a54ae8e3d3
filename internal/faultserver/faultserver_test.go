package faultserver_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/internal/faultserver"
	"github.com/mcphost/mcphost/mcptest"
)

// server is the fault server: this test binary under a second name.
var server string

func TestMain(m *testing.M) {
	if faultserver.Invoked() {
		os.Exit(faultserver.Main())
	}
	dir, err := os.MkdirTemp("", "faultserver-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	server, err = faultserver.Link(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// TestLinkServes: the test binary, started under the link's name, is an
// MCP server that takes the fault server's flags (not the testing
// package's) and answers its tools.
func TestLinkServes(t *testing.T) {
	if filepath.Base(server) != "faultserver" && filepath.Base(server) != "faultserver.exe" {
		t.Errorf("Link made %s, want a file named faultserver", server)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	session, err := client.Connect(t.Context(), &mcp.CommandTransport{Command: exec.Command(server, "-id", "first")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	res, err := session.CallTool(t.Context(), &mcp.CallToolParams{Name: "whoami"})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != "first" {
		t.Errorf("whoami = %q, want the -id flag's first", got)
	}
}

// TestBadFlagExits: the testing package's flags are not the fault
// server's: one ends it with exit status 2, as a command's flag error
// does.
func TestBadFlagExits(t *testing.T) {
	out, err := exec.Command(server, "-test.run", "TestBadFlagExits").CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || strings.Contains(string(out), "PASS") {
		t.Errorf("err %v, output %q: want exit status 2 and no test run", err, out)
	}
}

// TestGrandchildSleeps: the grandchild of -grandchild is the test binary
// too, started under the fault server's name, so it sleeps (holding the
// server's stdout) after the server has gone, instead of failing at once.
// Through a symbolic link, the running executable is the test binary
// under its own name.
func TestGrandchildSleeps(t *testing.T) {
	t.Run("link", func(t *testing.T) { grandchildSleeps(t, server) })
	t.Run("symlink", func(t *testing.T) {
		self, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		symlink := filepath.Join(t.TempDir(), filepath.Base(server))
		if err := os.Symlink(self, symlink); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
		grandchildSleeps(t, symlink)
	})
}

func grandchildSleeps(t *testing.T, server string) {
	dir := t.TempDir()
	pidfile, trace := filepath.Join(dir, "pids"), filepath.Join(dir, "trace")
	cmd := exec.Command(server, "-grandchild", "-pidfile", pidfile, "-trace", trace)
	// Stdin at EOF: the server starts its grandchild, serves nothing and
	// exits.
	cmd.Stdin = strings.NewReader("")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the server: %v", err)
	}
	data, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal(err)
	}
	pids := strings.Fields(string(data))
	if len(pids) != 2 {
		t.Fatalf("pids %q: want the server's and its grandchild's", pids)
	}
	grandchild, err := strconv.Atoi(pids[1])
	if err != nil {
		t.Fatal(err)
	}
	defer mcptest.KillProcess(grandchild)
	// It says so in the trace once asleep, or dies trying.
	asleep := fmt.Sprintf("asleep %d", grandchild)
	for {
		events, _ := os.ReadFile(trace)
		if strings.Contains(string(events), asleep) {
			return
		}
		if !mcptest.ProcessRunning(grandchild) {
			events, _ = os.ReadFile(trace)
			if !strings.Contains(string(events), asleep) {
				t.Fatalf("the grandchild %d ended without falling asleep (trace %q)", grandchild, events)
			}
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}
