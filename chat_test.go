package main

// The chat as a user sees it: the real binary in a real terminal (tmux),
// against the scripted Ollama server and a real MCP server.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/ollamatest"
)

// terminal is a tmux session on a private server running mcphost.
type terminal struct {
	t      *testing.T
	socket string
}

// startTerminal runs mcphost with args in a 120x40 tmux window in dir.
func startTerminal(t *testing.T, dir string, env []string, args ...string) *terminal {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is not installed: the chat tests need it (scripts/test.sh installs it)")
	}
	term := &terminal{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock")}
	cmdline := []string{"env"}
	cmdline = append(cmdline, env...)
	cmdline = append(cmdline, binary)
	cmdline = append(cmdline, args...)
	term.tmux("new-session", "-d", "-x", "120", "-y", "40", "-c", dir, "--", strings.Join(quoteAll(cmdline), " "))
	term.tmux("set-option", "-g", "remain-on-exit", "on")
	t.Cleanup(func() { exec.Command("tmux", "-S", term.socket, "kill-server").Run() })
	return term
}

func quoteAll(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return out
}

func (term *terminal) tmux(args ...string) string {
	term.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", term.socket}, args...)...).CombinedOutput()
	if err != nil {
		term.t.Fatalf("tmux %v: %v: %s", args, err, out)
	}
	return string(out)
}

// keys sends tmux key names (Enter, C-c, C-d, Up…).
func (term *terminal) keys(keys ...string) { term.tmux(append([]string{"send-keys"}, keys...)...) }

// typeLine types text literally and presses Enter.
func (term *terminal) typeLine(text string) {
	term.tmux("send-keys", "-l", text)
	term.keys("Enter")
}

// screen is the visible window plus its scrollback.
func (term *terminal) screen() string {
	return term.tmux("capture-pane", "-p", "-J", "-S", "-2000")
}

// waitFor polls the screen until it shows want (the terminal gives no
// event to wait on) and returns it.
func (term *terminal) waitFor(want string) string {
	term.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		s := term.screen()
		if strings.Contains(s, want) {
			return s
		}
		if time.Now().After(deadline) {
			term.t.Fatalf("the terminal never showed %q; it shows:\n%s", want, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitForCount waits until want appears n times.
func (term *terminal) waitForCount(want string, n int) string {
	term.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		s := term.screen()
		if strings.Count(s, want) >= n {
			return s
		}
		if time.Now().After(deadline) {
			term.t.Fatalf("the terminal never showed %q %d times; it shows:\n%s", want, n, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// exited reports whether mcphost has exited, and its status.
func (term *terminal) exited() (bool, int) {
	out := strings.Fields(term.tmux("display-message", "-p", "#{pane_dead} #{pane_dead_status}"))
	if len(out) < 2 || out[0] != "1" {
		return false, 0
	}
	code, _ := strconv.Atoi(out[1])
	return true, code
}

func (term *terminal) waitExit() int {
	term.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if dead, code := term.exited(); dead {
			return code
		}
		if time.Now().After(deadline) {
			term.t.Fatalf("mcphost did not exit; the terminal shows:\n%s", term.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// chatSetup writes a config with server-everything wrapped so its PID and
// a grandchild's land in a file, and returns the dir and the env.
func chatSetup(t *testing.T, ollama *ollamatest.Server) (dir, pids string, env []string) {
	dir = t.TempDir()
	pids = filepath.Join(dir, "pids")
	script := fmt.Sprintf(`(sleep 300) & echo $$ $! >> %s; exec %s`, pids, mcptest.NPMBin(t, "mcp-server-everything"))
	writeConfig(t, dir, ".mcp.json", fmt.Sprintf(`{"mcpServers":{"everything":{"command":"sh","args":["-c",%q]}}}`, script))
	env = []string{"HOME=" + t.TempDir(), "OLLAMA_HOST=" + ollama.URL, "NO_COLOR=1", "TERM=xterm-256color"}
	return dir, pids, env
}

func assertNoLeftovers(t *testing.T, pidFile string) {
	t.Helper()
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the server never started: %v", err)
	}
	for _, field := range strings.Fields(string(data)) {
		pid, _ := strconv.Atoi(field)
		if alive(pid) {
			t.Errorf("process %d outlived mcphost", pid)
		}
	}
}

func TestChatTwoTurnsWithAToolCall(t *testing.T) {
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__echo", map[string]any{"message": "hi there"})}},
		ollamatest.Reply{Content: "The server said **hi there**."},
		ollamatest.Reply{Content: "Second answer."},
	)
	dir, pids, env := chatSetup(t, ollama)
	term := startTerminal(t, dir, env, "-m", "ollama:tiny")
	term.waitFor("1/1 servers ready")

	term.typeLine("please echo hi there")
	s := term.waitFor("The server said hi there.")
	if !strings.Contains(s, "> please echo hi there") || !strings.Contains(s, "✓ everything › echo") {
		t.Errorf("first turn is not shown as asked and answered:\n%s", s)
	}
	term.typeLine("and again")
	term.waitFor("Second answer.")
	reqs := ollama.Requests()
	if len(reqs) != 3 || len(reqs[2].Messages) != 5 {
		t.Fatalf("the second turn did not carry the history: %d requests", len(reqs))
	}
	if got := reqs[2].Messages[2]; got.Role != "tool" || got.Content != "Echo: hi there" {
		t.Errorf("history sent back = %+v", reqs[2].Messages)
	}

	term.typeLine("/servers")
	s = term.waitFor("● ready")
	if !strings.Contains(s, "everything") || !strings.Contains(s, "stdio") {
		t.Errorf("/servers:\n%s", s)
	}

	term.typeLine("/quit")
	if code := term.waitExit(); code != 0 {
		t.Errorf("exit %d after /quit", code)
	}
	assertNoLeftovers(t, pids)

	// Up arrow in a new session recalls the input of the last one.
	term2 := startTerminal(t, dir, env, "-m", "ollama:tiny")
	term2.waitFor("servers ready")
	term2.keys("Up")
	term2.waitFor("> /quit")
	term2.keys("C-d")
	term2.waitExit()
}

func TestChatDisableHidesTools(t *testing.T) {
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	dir, _, env := chatSetup(t, ollama)
	term := startTerminal(t, dir, env, "-m", "tiny")
	term.waitFor("servers ready")

	term.typeLine("/mcp disable everything")
	term.waitFor("everything disabled")
	term.typeLine("/tools")
	term.waitFor("○ everything (disabled")
	term.typeLine("hello")
	term.waitForCount("ok", 1)
	reqs := ollama.Requests()
	if n := len(reqs[len(reqs)-1].Tools); n != 0 {
		t.Errorf("the model still saw %d tools after /mcp disable", n)
	}
	term.keys("C-d")
	term.waitExit()
}

func TestChatCtrlCCancelsASlowToolCall(t *testing.T) {
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__trigger-long-running-operation", map[string]any{"duration": 60, "steps": 60})}},
		ollamatest.Reply{Content: "Still here."},
	)
	dir, pids, env := chatSetup(t, ollama)
	term := startTerminal(t, dir, env, "-m", "tiny")
	term.waitFor("servers ready")

	term.typeLine("run the long operation")
	waitFor(t, func() bool { return ollama.RequestCount() == 1 })
	term.waitFor("running everything › trigger-long-running-operation")
	start := time.Now()
	term.keys("C-c")
	s := term.waitFor("(cancelled: the conversation goes on)")
	if !strings.Contains(s, "✗ everything › trigger-long-running-operation") {
		t.Errorf("the cancelled call is not marked:\n%s", s)
	}
	if time.Since(start) > 20*time.Second {
		t.Errorf("cancelling took %v: the call was not cancelled", time.Since(start))
	}

	term.typeLine("are you there?")
	term.waitFor("Still here.")
	reqs := ollama.Requests()
	last := reqs[len(reqs)-1].Messages
	if got := last[len(last)-2]; got.Role != "tool" || !strings.Contains(got.Content, "cancelled") {
		t.Errorf("the model was not told the call was cancelled: %+v", got)
	}

	term.typeLine("/quit")
	if code := term.waitExit(); code != 0 {
		t.Errorf("exit %d", code)
	}
	assertNoLeftovers(t, pids)
}
