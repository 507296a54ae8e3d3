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

	"github.com/mcphost/mcphost/mcptest"
)

// escapeCommand leaves two sleeps outside the command's process group, one
// by setsid and one by a double fork with setsid, and waits until both have
// left it (each writes its pid once setsid is done).
const escapeCommand = `(setsid sh -c 'echo $$ > a.pid; exec sleep 1000' &)
setsid sh -c 'echo $$ > b.pid; exec sleep 1000' &
until [ -s a.pid ] && [ -s b.pid ]; do sleep 0.01; done
`

// TestBashKillsEscapedDescendants: what a command starts dies with it even
// when it left the process group, whether the command ends by itself,
// times out or is cancelled.
func TestBashKillsEscapedDescendants(t *testing.T) {
	for _, how := range []string{"ends", "times out", "is cancelled"} {
		t.Run(how, func(t *testing.T) {
			dir := t.TempDir()
			srv, err := NewBash(BashOptions{WorkingDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			cs := connect(t, srv)
			args := map[string]any{"command": escapeCommand}
			switch how {
			case "ends":
				mustOK(t, cs, "run", args)
			case "times out":
				args["command"] = escapeCommand + "sleep 300"
				args["timeout_seconds"] = 1
				mustFail(t, cs, "run", args, "killed after the 1s timeout")
			case "is cancelled":
				pipe := filepath.Join(dir, "started")
				if err := syscall.Mkfifo(pipe, 0o644); err != nil {
					t.Fatalf("cannot make a FIFO: %v", err)
				}
				args["command"] = escapeCommand + "echo go > started; sleep 300"
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan error, 1)
				go func() {
					_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: args})
					done <- err
				}()
				// Reading the FIFO waits until the sleeps have left the group.
				if _, err := os.ReadFile(pipe); err != nil {
					t.Fatal(err)
				}
				cancel()
				if err := <-done; err == nil {
					t.Error("a cancelled call returned no error")
				}
			}
			for _, name := range []string{"a.pid", "b.pid"} {
				data, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
				if err != nil {
					t.Fatalf("%s: %q", name, data)
				}
				// A cancelled call is killed when the server sees the
				// cancellation, a moment after the client gave up.
				deadline := time.Now().Add(10 * time.Second)
				for mcptest.ProcessRunning(pid) {
					if time.Now().After(deadline) {
						mcptest.KillProcess(pid)
						t.Fatalf("process %d, which left the group, outlived the command", pid)
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
		})
	}
}
