package e2e

// End-to-end tests: the real mcphost binary, run as a user runs it, against
// the scripted Ollama server (ollamatest) and the real npm MCP servers.

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/internal/cli"
	"github.com/mcphost/mcphost/internal/faultserver"
	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/ollamatest"
)

// binary is mcphost: this test binary under the name TestMain links it
// to, which runs the command instead of the tests. So the race detector
// and coverage of the test run reach the command's wiring, and no test
// waits for a go build.
var binary string

// faultServerBin is the fault server (internal/faultserver): this test
// binary under a second name.
var faultServerBin string

func TestMain(m *testing.M) {
	// Dispatch on the name the process was started under, which every way
	// the tests start a program keeps (exec, a shell, tmux, a terminal,
	// $BROWSER, a script), before m.Run parses the testing flags. The
	// names come first: mcphost runs $BROWSER with its own environment.
	if faultserver.InvokedAs("mcphost") {
		os.Exit(cli.Main())
	}
	if faultserver.Invoked() {
		os.Exit(faultserver.Main())
	}
	if log := os.Getenv(fakeBrowserEnv); log != "" {
		// This test binary is the $BROWSER of an OAuth test.
		os.Exit(fakeBrowser(log, os.Args[len(os.Args)-1]))
	}
	os.Exit(runTests(m))
}

// runTests links this test binary as mcphost and as the fault server into
// a temporary folder, runs the tests from the module's root and removes
// the folder.
func runTests(m *testing.M) int {
	// The tests name the repository's files (testdata/, examples/) from
	// its root, as a user of the command would.
	// Under CI's load an npm server may take long to start: every run
	// waits for servers as long as it takes, unless a test says otherwise
	// (its own MCPHOST_SERVER_WAIT, or --server-wait).
	if os.Getenv("MCPHOST_SERVER_WAIT") == "" {
		os.Setenv("MCPHOST_SERVER_WAIT", "60s")
	}
	if err := chdirModuleRoot(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	dir, err := os.MkdirTemp("", "mcphost-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	if binary, err = faultserver.LinkSelf(dir, "mcphost"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if faultServerBin, err = faultserver.Link(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return m.Run()
}

// invocation is one run of the binary.
type invocation struct {
	args  []string
	stdin string // piped when not empty
	dir   string // working directory; a fresh temp dir when empty
	home  string // HOME; a fresh temp dir when empty
	env   []string
	host  string // OLLAMA_HOST
	// untrusted leaves project config files (./.mcp.json, ./.mcphost.*)
	// untrusted, as for a user who has not run mcphost trust; by default
	// the run trusts them (MCPHOST_TRUST_PROJECT=1), since most tests
	// write their config there.
	untrusted bool
}

type outcome struct {
	stdout, stderr string
	code           int
}

// command is the mcphost command of inv, not yet started, its output not
// yet connected.
func (inv invocation) command(t testing.TB) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(binary, inv.args...)
	cmd.Dir = inv.dir
	if cmd.Dir == "" {
		cmd.Dir = t.TempDir()
	}
	home := inv.home
	if home == "" {
		home = t.TempDir()
	}
	// The user's directories follow HOME, whatever the machine sets; the
	// project config files the tests write are trusted unless untrusted.
	cmd.Env = append(os.Environ(), "HOME="+home, "OLLAMA_HOST="+inv.host, "NO_COLOR=1", "MCPHOST_TRUST_PROJECT=1",
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"), "XDG_STATE_HOME="+filepath.Join(home, ".local", "state"),
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
	if inv.untrusted {
		cmd.Env = append(cmd.Env, "MCPHOST_TRUST_PROJECT=")
	}
	cmd.Env = append(cmd.Env, inv.env...)
	if inv.stdin != "" {
		cmd.Stdin = strings.NewReader(inv.stdin)
	}
	return cmd
}

func runBinary(t *testing.T, inv invocation) outcome {
	t.Helper()
	cmd := inv.command(t)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("running mcphost: %v", err)
		}
		code = exit.ExitCode()
	}
	return outcome{stdout: stdout.String(), stderr: stderr.String(), code: code}
}

// writeConfig writes a config file into dir and returns its path.
func writeConfig(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// everythingJSON is a Claude-format .mcp.json with server-everything over stdio.
func everythingJSON(t *testing.T) string {
	return fmt.Sprintf(`{"mcpServers": {"everything": {"command": %q}}}`, mcptest.NPMBin(t, "mcp-server-everything"))
}

func lastMessage(req api.ChatRequest) api.Message { return req.Messages[len(req.Messages)-1] }

func hasTool(req api.ChatRequest, name string) bool {
	for _, tool := range req.Tools {
		if tool.Function.Name == name {
			return true
		}
	}
	return false
}

func TestOneShotAnswersWithoutServers(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "Paris is the capital of France."})

	out := runBinary(t, invocation{args: []string{"-m", "ollama:qwen3:8b", "-p", "Capital of France?"}, host: ollama.URL})
	if out.code != 0 || out.stdout != "Paris is the capital of France.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	reqs := ollama.Requests()
	if len(reqs) != 1 || reqs[0].Model != "qwen3:8b" || lastMessage(reqs[0]).Content != "Capital of France?" {
		t.Errorf("model got %+v", reqs)
	}
	if got := reqs[0].Options["num_ctx"]; got != float64(8192) {
		t.Errorf("num_ctx = %v, want the 8192 cap (model max 32768)", got)
	}
}

func TestOneShotToolLoopWithServerEverything(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__echo", map[string]any{"message": "hello"})}},
		ollamatest.Reply{Content: "The server echoed hello."},
	)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))

	out := runBinary(t, invocation{args: []string{"-m", "ollama:tiny", "-p", "echo hello"}, dir: dir, host: ollama.URL})
	if out.code != 0 || out.stdout != "The server echoed hello.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	if !strings.Contains(out.stderr, "✓ everything › echo") {
		t.Errorf("stderr has no tool line: %q", out.stderr)
	}
	reqs := ollama.Requests()
	if len(reqs) != 2 {
		t.Fatalf("model called %d times, want 2", len(reqs))
	}
	if !hasTool(reqs[0], "everything__echo") || !hasTool(reqs[0], "everything__get-sum") {
		t.Errorf("server-everything's tools not offered: %d tools", len(reqs[0].Tools))
	}
	res := lastMessage(reqs[1])
	if res.Role != "tool" || res.ToolName != "everything__echo" || res.Content != "Echo: hello" {
		t.Errorf("tool result sent to the model = %+v", res)
	}
}

func TestPipedStdinIsThePromptOrItsContext(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()

	out := runBinary(t, invocation{args: []string{"-m", "tiny"}, stdin: "Summarise README.md\n", host: ollama.URL})
	if out.code != 0 || out.stdout != "ok\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	out = runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "Write a commit message for this diff"}, stdin: "+added line\n", host: ollama.URL})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	reqs := ollama.Requests()
	if got := lastMessage(reqs[0]).Content; got != "Summarise README.md" {
		t.Errorf("piped prompt = %q", got)
	}
	if got := lastMessage(reqs[1]).Content; got != "Write a commit message for this diff\n\n+added line" {
		t.Errorf("prompt with piped context = %q", got)
	}
}

func TestAFailingServerDoesNotStopTheOthers(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", fmt.Sprintf(`{"mcpServers": {
		"broken": {"command": "sh", "args": ["-c", "echo 'cannot open database' >&2; exit 3"]},
		"everything": {"command": %q}}}`, mcptest.NPMBin(t, "mcp-server-everything")))

	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "hi"}, dir: dir, host: ollama.URL})
	if out.code != 0 || out.stdout != "ok\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	if !strings.Contains(out.stderr, `warning: server "broken"`) || !strings.Contains(out.stderr, "cannot open database") {
		t.Errorf("stderr does not explain the broken server: %q", out.stderr)
	}
	if !hasTool(ollama.Requests()[0], "everything__echo") {
		t.Error("the working server's tools were not offered")
	}
}

func TestNoServerCouldStart(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", `{"mcpServers": {"gone": {"command": "definitely-not-a-command-mcphost"}}}`)

	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "hi"}, dir: dir, host: ollama.URL})
	if out.code != 5 || !strings.Contains(out.stderr, "no MCP server could start") || !strings.Contains(out.stderr, "definitely-not-a-command-mcphost") {
		t.Errorf("exit %d, stderr %q", out.code, out.stderr)
	}
	if ollama.RequestCount() != 0 {
		t.Error("the model was called although no server started")
	}
}

// TestConfigFormats runs the same tool call with the server configured in
// each accepted format and transport.
func TestConfigFormats(t *testing.T) {
	t.Parallel()
	bin := mcptest.NPMBin(t, "mcp-server-everything")
	httpURL := mcptest.StartEverything(t, "streamableHttp")
	sseURL := mcptest.StartEverything(t, "sse")
	tests := []struct {
		name, file, content string
		flag                bool // pass with --config instead of discovery
	}{
		{"claude json stdio", ".mcp.json", fmt.Sprintf(`{"mcpServers":{"everything":{"type":"stdio","command":%q,"args":[]}}}`, bin), false},
		{"claude json http", ".mcp.json", fmt.Sprintf(`{"mcpServers":{"everything":{"type":"http","url":%q}}}`, httpURL), false},
		{"claude json sse", ".mcp.json", fmt.Sprintf(`{"mcpServers":{"everything":{"type":"sse","url":%q}}}`, sseURL), false},
		{"mcphost yaml local", ".mcphost.yml", fmt.Sprintf("mcpServers:\n  everything:\n    type: local\n    command: [%q]\n    environment:\n      DEBUG: \"0\"\n", bin), false},
		{"mcphost yaml remote", ".mcphost.yaml", fmt.Sprintf("mcpServers:\n  everything:\n    type: remote\n    url: %q\n    headers: [\"X-Trace: 1\"]\n", httpURL), false},
		{"mcphost json via --config", "custom.json", fmt.Sprintf(`{"mcpServers":{"everything":{"type":"local","command":[%q]}}}`, bin), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ollama := ollamatest.NewServer()
			defer ollama.Close()
			ollama.Enqueue(
				ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__get-sum", map[string]any{"a": 2, "b": 3})}},
				ollamatest.Reply{Content: "5"},
			)
			dir := t.TempDir()
			path := writeConfig(t, dir, tt.file, tt.content)
			args := []string{"-m", "tiny", "-p", "2+3?"}
			if tt.flag {
				args = append(args, "--config", path)
			}
			out := runBinary(t, invocation{args: args, dir: dir, host: ollama.URL})
			if out.code != 0 || out.stdout != "5\n" {
				t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
			}
			reqs := ollama.Requests()
			if len(reqs) != 2 || !strings.Contains(lastMessage(reqs[1]).Content, "5") {
				t.Errorf("tool result not sent back: %+v", reqs)
			}
		})
	}
}

func TestEnvExpansionReachesTheServer(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	data := t.TempDir()
	if err := os.WriteFile(filepath.Join(data, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("files__list_directory", map[string]any{"path": data})}},
		ollamatest.Reply{Content: "One file."},
	)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", fmt.Sprintf(`{"mcpServers":{"files":{"command":%q,"args":["${DATA_DIR}"]}}}`, mcptest.NPMBin(t, "mcp-server-filesystem")))

	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "list"}, dir: dir, host: ollama.URL, env: []string{"DATA_DIR=" + data}})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	if got := lastMessage(ollama.Requests()[1]).Content; !strings.Contains(got, "notes.txt") {
		t.Errorf("list_directory result = %q, want notes.txt from the expanded directory", got)
	}

	// Unset, the variable fails its server (the only one here: exit 5),
	// naming the file, the server and the variable.
	out = runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "list"}, dir: dir, host: ollama.URL})
	if out.code != 5 || !strings.Contains(out.stderr, ".mcp.json") || !strings.Contains(out.stderr, `"files"`) || !strings.Contains(out.stderr, "DATA_DIR") {
		t.Errorf("unset variable: exit %d, stderr %q", out.code, out.stderr)
	}
}

func TestProviderErrors(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer(ollamatest.Model{Name: "qwen3:8b"})
	defer ollama.Close()
	closed := closedPort(t)
	tests := []struct {
		name, model, host string
		want              string
	}{
		{"missing model", "ollama:nope", ollama.URL, `model "nope" not found: run "ollama pull nope"`},
		{"unreachable", "ollama:qwen3:8b", closed, fmt.Sprintf(`cannot reach Ollama at %s (from OLLAMA_HOST): is "ollama serve" running?`, closed)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := runBinary(t, invocation{args: []string{"-m", tt.model, "-p", "hi"}, host: tt.host})
			if out.code != 3 || !strings.Contains(out.stderr, tt.want) {
				t.Errorf("exit %d, stderr %q, want exit 3 and %q", out.code, out.stderr, tt.want)
			}
			if strings.Contains(out.stderr, "goroutine") || strings.Contains(out.stderr, "dial tcp") {
				t.Errorf("raw Go error in %q", out.stderr)
			}
		})
	}
}

// closedPort returns the URL of a loopback port nothing listens on.
func closedPort(t *testing.T) string { return "http://" + freeAddr(t) }

// freeAddr returns a loopback host:port nothing listens on.
func freeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func TestModelWithoutToolsGetsAWarningAndNoTools(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer(ollamatest.Model{Name: "gemma", Capabilities: []string{"completion"}})
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "plain answer"})
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))

	out := runBinary(t, invocation{args: []string{"-m", "gemma", "-p", "hi"}, dir: dir, host: ollama.URL})
	if out.code != 0 || out.stdout != "plain answer\n" || !strings.Contains(out.stderr, `model "gemma" does not support tools`) {
		t.Errorf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	if n := len(ollama.Requests()[0].Tools); n != 0 {
		t.Errorf("%d tools sent to a model without tools", n)
	}
}

func TestMaxStepsStopsTheLoop(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Handle(func(req api.ChatRequest) ollamatest.Reply {
		if len(req.Tools) == 0 {
			return ollamatest.Reply{Content: "Echoed three times, then stopped."}
		}
		// Different arguments each time, so only --max-steps stops it.
		return ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__echo", map[string]any{"message": fmt.Sprint("again ", len(req.Messages))})}}
	})
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))

	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "loop", "--max-steps", "3"}, dir: dir, host: ollama.URL})
	if out.code != 4 || !strings.Contains(out.stderr, "--max-steps") {
		t.Errorf("exit %d, stderr %q", out.code, out.stderr)
	}
	// Three calls with tools, then one without for the final answer, which
	// is printed although the run stopped.
	if n := ollama.RequestCount(); n != 4 {
		t.Errorf("model called %d times, want 4", n)
	}
	if out.stdout != "Echoed three times, then stopped.\n" {
		t.Errorf("stdout %q, want the final answer", out.stdout)
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		args  []string
		files map[string]string
		want  string
	}{
		{"no prompt", []string{"-m", "tiny"}, nil, "no prompt"},
		{"no model", []string{"-p", "hi"}, nil, "no model"},
		{"unknown flag", []string{"--frobnicate"}, nil, "--frobnicate"},
		{"bad config", []string{"-m", "tiny", "-p", "hi"}, map[string]string{".mcp.json": `{"mcpServers": {"x": {"args": []}}}`}, `.mcp.json: server "x"`},
		{"broken json", []string{"-m", "tiny", "-p", "hi"}, map[string]string{".mcp.json": `{"mcpServers": `}, ".mcp.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tt.files {
				writeConfig(t, dir, name, content)
			}
			out := runBinary(t, invocation{args: tt.args, dir: dir, host: closedPort(t)})
			if out.code != 2 || !strings.Contains(out.stderr, tt.want) {
				t.Errorf("exit %d, stderr %q, want exit 2 and %q", out.code, out.stderr, tt.want)
			}
			if strings.Contains(out.stderr, "panic") || strings.Contains(out.stderr, "goroutine") {
				t.Errorf("stack trace on bad input: %q", out.stderr)
			}
		})
	}
}

func TestHelpListsExitCodes(t *testing.T) {
	t.Parallel()
	out := runBinary(t, invocation{args: []string{"--help"}})
	for _, want := range []string{"--model", "--prompt", "--max-steps", "Exit codes", "130"} {
		if !strings.Contains(out.stdout, want) {
			t.Errorf("--help lacks %q", want)
		}
	}
	if n := strings.Count(out.stdout, "Exit codes:"); n != 1 || out.code != 0 {
		t.Errorf("--help: exit %d, the help printed %d times", out.code, n)
	}
}

// TestNoChildOutlivesMcphost checks that a stdio server and a grandchild
// it spawned are gone once mcphost exits, normally and on SIGINT.
func TestNoChildOutlivesMcphost(t *testing.T) {
	t.Parallel()
	for _, interrupt := range []bool{false, true} {
		t.Run(fmt.Sprint("interrupt=", interrupt), func(t *testing.T) {
			ollama := ollamatest.NewServer()
			defer ollama.Close()
			hold := make(chan struct{})
			defer close(hold)
			if interrupt {
				ollama.Enqueue(ollamatest.Reply{Content: "never", Hold: hold})
			}
			dir := t.TempDir()
			pids := filepath.Join(dir, "pids")
			// The wrapper leaves a grandchild that ignores SIGTERM and stdin.
			script := fmt.Sprintf(`trap '' TERM; (trap '' TERM; sleep 300) & echo $$ $! > %s; exec %s`, pids, mcptest.NPMBin(t, "mcp-server-everything"))
			writeConfig(t, dir, ".mcp.json", fmt.Sprintf(`{"mcpServers":{"wrapped":{"command":"sh","args":["-c",%q]}}}`, script))

			cmd := invocation{args: []string{"-m", "tiny", "-p", "hi"}, dir: dir, host: ollama.URL}.command(t)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if interrupt {
				waitFor(t, func() bool { return ollama.RequestCount() == 1 })
				cmd.Process.Signal(syscall.SIGINT)
			}
			err := cmd.Wait()
			code := cmd.ProcessState.ExitCode()
			if interrupt && code != 130 {
				t.Errorf("exit %d after SIGINT, want 130 (err %v, stderr %q)", code, err, stderr.String())
			}
			if !interrupt && code != 0 {
				t.Errorf("exit %d, stderr %q", code, stderr.String())
			}
			assertNoLeftovers(t, pids)
		})
	}
}

// alive reports whether pid is a running (not zombie) process.
func alive(pid int) bool { return mcptest.ProcessRunning(pid) }

// assertNoLeftovers checks that none of the processes whose pids a server
// wrote to pidFile outlived mcphost, and kills those that did.
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
			mcptest.KillProcess(pid)
		}
	}
}

// waitFor polls cond: the condition lives in another process, so there is
// no channel to wait on.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	if !poll(10*time.Millisecond, cond) {
		t.Fatal("condition not met within 30s")
	}
}

// poll calls cond every interval until it holds, for at most 30 seconds,
// and reports whether it did.
func poll(interval time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(interval)
	}
	return true
}

// chdirModuleRoot makes the module's root, the folder of go.mod, the
// working directory.
func chdirModuleRoot() error {
	dir, err := os.Getwd()
	if err != nil {
		return err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return os.Chdir(dir)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return fmt.Errorf("no go.mod above the test's folder")
		}
		dir = parent
	}
}

// The exit codes README.md documents, as a script would test them.
const (
	exitNoServers  = 5
	exitReaderGone = 141
)

// An address that does not lead to Ollama (another server answers 404
// there) is named in the error, with where it came from: the variable,
// the flag or the config file.
func TestOllamaAddressErrorsSayWhereTheAddressCameFrom(t *testing.T) {
	t.Parallel()
	notOllama := httptest.NewServer(http.NotFoundHandler())
	defer notOllama.Close()
	dir := t.TempDir()
	writeConfig(t, dir, ".mcphost.yml", "ollama-host: "+notOllama.URL+"\n")
	for _, c := range []struct {
		name string
		inv  invocation
		from string
	}{
		{"variable", invocation{args: []string{"-m", "tiny", "-p", "hi"}, host: notOllama.URL}, "OLLAMA_HOST"},
		{"flag", invocation{args: []string{"-m", "tiny", "-p", "hi", "--ollama-host", notOllama.URL}, host: closedPort(t)}, "--ollama-host"},
		{"file", invocation{args: []string{"-m", "tiny", "-p", "hi"}, dir: dir, host: closedPort(t)}, `"ollama-host" in .mcphost.yml`},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := runBinary(t, c.inv)
			want := fmt.Sprintf("Ollama at %s (from %s) answered HTTP 404 Not Found (404 page not found): no Ollama API is there; check %s", notOllama.URL, c.from, c.from)
			if out.code == 0 || !strings.Contains(out.stderr, want) {
				t.Errorf("exit %d, stderr %q, want it to say %q", out.code, out.stderr, want)
			}
		})
	}
}

// wantAll reports each of wants that got (what: "stdout", "stderr", …)
// lacks.
func wantAll(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(got, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, got)
		}
	}
}

// runExit runs the binary as runBinary does and stops the test, showing
// both outputs, unless it exits with code.
func runExit(t *testing.T, inv invocation, code int) outcome {
	t.Helper()
	out := runBinary(t, inv)
	if out.code != code {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", out.code, code, out.stdout, out.stderr)
	}
	return out
}
