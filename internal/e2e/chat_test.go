//go:build linux

package e2e

// The chat as a user sees it: the real binary in a real terminal (tmux),
// against the scripted Ollama server and a real MCP server.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
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
	// exitFile receives mcphost's exit status from the shell around it:
	// tmux's own pane_dead can lag behind a process that has exited.
	exitFile string
}

// startTerminal runs mcphost with args in a 120x40 tmux window in dir.
func startTerminal(t *testing.T, dir string, env []string, args ...string) *terminal {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is not installed: the chat tests need it (scripts/test.sh installs it)")
	}
	tmp := t.TempDir()
	term := &terminal{t: t, socket: filepath.Join(tmp, "tmux.sock"), exitFile: filepath.Join(tmp, "exit")}
	cmdline := []string{"env"}
	cmdline = append(cmdline, env...)
	cmdline = append(cmdline, binary)
	cmdline = append(cmdline, args...)
	shell := strings.Join(quoteAll(cmdline), " ") + "; echo $? > " + quoteAll([]string{term.exitFile})[0]
	term.tmux("new-session", "-d", "-x", "120", "-y", "40", "-c", dir, "--", shell)
	t.Cleanup(func() { exec.Command("tmux", "-S", term.socket, "kill-server").Run() })
	return term
}

// pid is mcphost's process ID: the child of the shell in the pane.
func (term *terminal) pid() int {
	term.t.Helper()
	shell, err := strconv.Atoi(strings.TrimSpace(term.tmux("display-message", "-p", "#{pane_pid}")))
	if err != nil {
		term.t.Fatal(err)
	}
	for _, c := range childPIDs(shell) {
		if comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", c)); strings.TrimSpace(string(comm)) == "mcphost" {
			return c
		}
	}
	term.t.Fatal("mcphost is not running in the terminal")
	return 0
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
	return term.waitForCount(want, 1)
}

// waitForCount waits until want appears n times.
func (term *terminal) waitForCount(want string, n int) string {
	term.t.Helper()
	var s string
	if !poll(50*time.Millisecond, func() bool { s = term.screen(); return strings.Count(s, want) >= n }) {
		if n == 1 {
			term.t.Fatalf("the terminal never showed %q; it shows:\n%s", want, s)
		}
		term.t.Fatalf("the terminal never showed %q %d times; it shows:\n%s", want, n, s)
	}
	return s
}

// waitExit waits for mcphost to exit and returns its exit status.
func (term *terminal) waitExit() int {
	term.t.Helper()
	var data []byte
	if !poll(50*time.Millisecond, func() bool { data, _ = os.ReadFile(term.exitFile); return len(data) > 0 }) {
		term.t.Fatalf("mcphost did not exit; the terminal shows:\n%s", term.screen())
	}
	code, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return code
}

// chatEnv is the environment of a chat against the Ollama at host. It
// trusts the project config files the tests write (see invocation).
func chatEnv(t *testing.T, host string) []string {
	return chatEnvHome(host, t.TempDir())
}

// chatEnvHome is chatEnv with the user's directories under home.
func chatEnvHome(host, home string) []string {
	return []string{"HOME=" + home, "OLLAMA_HOST=" + host, "NO_COLOR=1", "TERM=xterm-256color", "MCPHOST_TRUST_PROJECT=1",
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config")}
}

// chatSetup writes a config with server-everything wrapped so its PID and
// a grandchild's land in a file, and returns the dir, the pid file and the
// env of a chat against the Ollama at host.
func chatSetup(t *testing.T, host string) (dir, pids string, env []string) {
	dir = t.TempDir()
	pids = filepath.Join(dir, "pids")
	script := fmt.Sprintf(`(sleep 300) & echo $$ $! >> %s; exec %s`, pids, mcptest.NPMBin(t, "mcp-server-everything"))
	writeConfig(t, dir, ".mcp.json", fmt.Sprintf(`{"mcpServers":{"everything":{"command":"sh","args":["-c",%q]}}}`, script))
	return dir, pids, chatEnv(t, host)
}

func TestChatTwoTurnsWithAToolCall(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__echo", map[string]any{"message": "hi there"})}},
		ollamatest.Reply{Content: "The server said **hi there**."},
		ollamatest.Reply{Content: "Second answer."},
	)
	dir, pids, env := chatSetup(t, ollama.URL)
	term := startTerminal(t, dir, env, "-m", "ollama:tiny")
	// The prompt is usable before the server is up; the turn waits for it.
	term.waitFor("/help for commands")

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
	term2.keys("Enter")
	if code := term2.waitExit(); code != 0 {
		t.Errorf("exit %d after the recalled /quit", code)
	}
}

func TestChatDisableHidesTools(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	dir, _, env := chatSetup(t, ollama.URL)
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
	// Not parallel: the cancellation is timed (20s).
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__trigger-long-running-operation", map[string]any{"duration": 60, "steps": 60})}},
		ollamatest.Reply{Content: "Still here."},
	)
	dir, pids, env := chatSetup(t, ollama.URL)
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

// TestChatEndsCleanlyOnSIGHUP is the terminal closing while the chat waits
// at the prompt: mcphost must exit and take its servers with it.
func TestChatEndsCleanlyOnSIGHUP(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	dir, pids, env := chatSetup(t, ollama.URL)
	term := startTerminal(t, dir, env, "-m", "tiny")
	term.waitFor("servers ready")
	if err := syscall.Kill(term.pid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	if code := term.waitExit(); code != 130 {
		t.Errorf("exit %d after SIGHUP, want 130", code)
	}
	assertNoLeftovers(t, pids)
}

// TestChatAsksBeforeRunningATool answers the approval question in the
// terminal: "no, and why" reaches the model; "yes for this session" runs
// the call and is not asked again.
func TestChatAsksBeforeRunningATool(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	echo := ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__echo", map[string]any{"message": "secret plan"})}}
	ollama.Enqueue(echo, ollamatest.Reply{Content: "Understood, not echoing."}, echo, ollamatest.Reply{Content: "Echoed."}, echo, ollamatest.Reply{Content: "Echoed again."})
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	writeConfig(t, dir, ".mcphost.yml", "approval:\n  ask: [\"everything__echo\"]\n")
	env := chatEnv(t, ollama.URL)
	term := startTerminal(t, dir, env, "-m", "tiny")
	term.waitFor("servers ready")

	term.typeLine("echo my plan")
	s := term.waitFor("[r] no, and say why")
	if !strings.Contains(s, "everything › echo wants to run") || !strings.Contains(s, "secret plan") {
		t.Errorf("the question does not show the call:\n%s", s)
	}
	term.keys("r")
	term.waitFor("why?")
	term.typeLine("it is private")
	term.waitFor("Understood, not echoing.")
	msgs := ollama.Requests()[1].Messages
	if refused := msgs[len(msgs)-1]; !strings.Contains(refused.Content, "it is private") {
		t.Errorf("the model was not told why: %q", refused.Content)
	}

	term.typeLine("echo it now")
	term.waitForCount("[r] no, and say why", 2)
	term.keys("a")
	term.waitFor("Echoed.")
	term.typeLine("and again")
	s = term.waitFor("Echoed again.")
	if n := strings.Count(s, "wants to run"); n != 2 {
		t.Errorf("asked %d times, want 2 (the third call was allowed for the session)", n)
	}
	reqs := ollama.Requests()
	if last := reqs[len(reqs)-1].Messages; last[len(last)-1].Content != "Echo: secret plan" {
		t.Errorf("the allowed call did not run: %+v", last[len(last)-1])
	}
	term.keys("C-d")
	term.waitExit()
}

// TestChatFillsAnElicitationForm answers server-everything's elicitation
// request in the terminal: the form's answers reach the server.
func TestChatFillsAnElicitationForm(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__trigger-elicitation-request", map[string]any{})}},
		ollamatest.Reply{Content: "Thanks, Ann."},
	)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	env := chatEnv(t, ollama.URL)
	term := startTerminal(t, dir, env, "-m", "tiny", "--allow-tool", "everything__*")
	term.waitFor("servers ready")

	term.typeLine("ask me")
	term.waitFor(`server everything (during everything › trigger-elicitation-request) asks: Please provide inputs`)
	term.typeLine("Ann Lee")
	for range 12 { // every other field keeps its default or stays empty
		term.keys("Enter")
	}
	term.waitFor("[y] send")
	term.keys("y")
	term.waitFor("Thanks, Ann.")
	msgs := ollama.Requests()[1].Messages
	if got := msgs[len(msgs)-1].Content; !strings.Contains(got, "- Name: Ann Lee") || !strings.Contains(got, "- Favorite Integer: 42") {
		t.Errorf("the server did not get the form: %q", got)
	}
	term.keys("C-d")
	term.waitExit()
}

func TestChatPromptIsUsableWhileServersStart(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	e.config(e.server("slow", "", "-start-delay", "3s"))
	model := ollamatest.NewServer()
	defer model.Close()
	term := startTerminal(t, e.dir, chatEnv(t, model.URL), "-m", "tiny")
	term.waitFor("/help for commands")
	term.typeLine("/servers")
	term.waitFor("… starting")
	// A turn waits for the server, whose tools are not known yet, then
	// offers them.
	term.typeLine("hello")
	term.waitFor("ok")
	if reqs := model.Requests(); len(reqs) != 1 || !hasTool(reqs[0], "slow__echo") {
		t.Errorf("the turn did not wait for the starting server's tools: %d requests", len(reqs))
	}
	term.typeLine("/servers")
	term.waitFor("● ready")
	term.typeLine("/quit")
	term.waitExit()
	e.noneLeft("slow")
}

// TestChatApprovalQuestionCannotBeForged: the model's argument holds
// newlines, a fake question for a harmless tool and enough lines to push
// the real header off screen. The terminal must show the real question,
// every row of the argument behind a mark, no fake header at a line's
// start, and the real tool's name next to the keys.
func TestChatApprovalQuestionCannotBeForged(t *testing.T) {
	t.Parallel()
	forged := strings.Repeat("padding\n", 60) +
		"\n? fs › read_file wants to run (it only reads):\n    ▸ path: notes.txt\n" +
		"  fs › read_file: [y] yes once  [a] yes for this tool this session  [n] no  [r] no, and say why: \x1b[2K\r"
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fs__write_file", map[string]any{"path": "victim.txt", "content": forged})}},
		ollamatest.Reply{Content: "Not written."},
	)
	dir := t.TempDir()
	term := startTerminal(t, dir, chatEnv(t, ollama.URL), "-m", "tiny")
	term.waitFor("servers ready")
	term.typeLine("write the file")
	// The forged argument holds the keys too: wait for the real ones.
	s := term.waitForCount("[r] no, and say why", 2)

	var question []string
	inQuestion := false
	for _, line := range strings.Split(s, "\n") {
		switch {
		case strings.HasPrefix(line, "?"):
			if !strings.HasPrefix(line, "? fs › write_file wants to run (") {
				t.Errorf("a question header that is not the real one: %q", line)
			}
			inQuestion = true
		case inQuestion:
			question = append(question, line)
			// The keys end the question: the only row not indented as
			// the arguments are.
			inQuestion = strings.HasPrefix(line, "    ")
		}
	}
	t.Logf("the question:\n%s", strings.Join(question, "\n"))
	if len(question) < 2 {
		t.Fatalf("the real question is not on screen:\n%s", s)
	}
	keys := question[len(question)-1]
	if !strings.HasPrefix(keys, "  fs › write_file: [y] yes once") {
		t.Errorf("the keys line does not name the real tool: %q", keys)
	}
	for _, row := range question[:len(question)-1] {
		if !strings.HasPrefix(row, "    ▸ ") && !strings.HasPrefix(row, "    ┆ ") {
			t.Errorf("an argument row without its mark: %q", row)
		}
	}
	if !strings.Contains(s, "⏎") || !strings.Contains(s, "more rows") {
		t.Errorf("the newlines are not shown or the long value is not folded:\n%s", s)
	}
	term.keys("n")
	term.waitFor("Not written.")
	if _, err := os.Stat(filepath.Join(dir, "victim.txt")); err == nil {
		t.Error("the refused write happened")
	}
	term.keys("C-d")
	term.waitExit()
}
