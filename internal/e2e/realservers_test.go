package e2e

// What 22 third-party servers showed (issue 18): start failures that say
// why, no server outliving mcphost, one server's broken entry not stopping
// the others, one naming table, exit codes and JSON of "tools call", and
// tool definitions exactly as sent.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/ollamatest"
)

func TestStartFailureQuotesTheLinesThatExplainIt(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	// Like a kubernetes server: the cause on the first line, then usage
	// text; the last line alone explains nothing.
	stderr := "Error: no current context is set\nUsage:\n  server [flags]\n  --help     Print help\n  --version  Print version information and quit"
	e.config(e.server("kube", "", "-stderr", stderr, "-exit-at-start", "-message", "}"), e.server("good", ""))
	for _, args := range [][]string{{"servers"}, {"-m", "tiny", "-p", "go"}} {
		ollama := ollamatest.NewServer()
		out := runBinary(t, invocation{args: args, dir: e.dir, host: ollama.URL})
		ollama.Close()
		all := out.stdout + out.stderr
		if !strings.Contains(all, "no current context is set") || !strings.Contains(all, "Print version information and quit") {
			t.Errorf("%v: the cause is not quoted:\n%s", args, all)
		}
		if strings.Contains(all, "server [flags]") {
			t.Errorf("%v: quoted more than the telling lines:\n%s", args, all)
		}
	}
}

func TestStartTimeoutQuotesWhatTheServerWrote(t *testing.T) {
	// Not parallel: the server must start and write within its 1s timeout, which a loaded machine can miss.
	e := newFaultEnv(t)
	e.config(e.server("slow", `"timeout": "1s"`, "-stderr", "waiting for the database at db:5432", "-hang-init"))
	out := runBinary(t, invocation{args: []string{"servers"}, dir: e.dir})
	if out.code != 5 || !strings.Contains(out.stdout, "did not start within 1s") || !strings.Contains(out.stdout, "waiting for the database at db:5432") ||
		!strings.Contains(out.stdout, "--debug") || !strings.Contains(out.stdout, `"timeout"`) {
		t.Errorf("exit %d, stdout %q", out.code, out.stdout)
	}
	e.noneLeft("slow")
}

func TestClosedPipeShutsTheServersDown(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	// 400 more tools make the list far longer than a pipe holds, so
	// mcphost is still writing when the reader goes.
	e.config(e.server("a", "", "-grandchild", "-escape", "-many", "400"), e.server("b", ""))
	cmd := invocation{args: []string{"tools", "list"}, dir: e.dir}.command(t)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// As `| head -1`: read one line, then go away.
	if _, err := bufio.NewReader(stdout).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	stdout.Close()
	err = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != exitReaderGone {
		t.Errorf("exit %d (%v), want %d: shut down and exit quietly", code, err, exitReaderGone)
	}
	e.noneLeft("a", "b")
}

func TestKilledMcphostTakesItsServersDown(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	// A server that would live on: it ignores both stdin closing and SIGTERM.
	e.config(e.server("stubborn", "", "-ignore-eof", "-ignore-term"))
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	hold := make(chan struct{})
	defer close(hold)
	asked := make(chan struct{}, 1)
	ollama.Handle(func(api.ChatRequest) ollamatest.Reply {
		asked <- struct{}{}
		return ollamatest.Reply{Content: "never", Hold: hold}
	})
	cmd := invocation{args: faultArgs(), dir: e.dir, host: ollama.URL}.command(t)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	<-asked // servers are up, the model is thinking
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	// The kernel kills the server as its parent dies; it may take a
	// moment to be gone.
	pids := e.pids("stubborn")
	poll(20*time.Millisecond, func() bool {
		for _, pid := range pids {
			if alive(pid) {
				return false
			}
		}
		return true
	})
	e.noneLeft("stubborn")
}

func TestOneServersUnsetVariableStopsOnlyIt(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	e.config(e.server("a", ""), e.server("needs", `"env": {"TOKEN": "${MCPHOST_TEST_UNSET_TOKEN}"}`), e.server("c", ""))
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	out := e.run(ollama.URL)
	if out.code != 0 || !strings.Contains(out.stderr, `server "needs"`) || !strings.Contains(out.stderr, "${MCPHOST_TEST_UNSET_TOKEN}") {
		t.Errorf("one-shot: exit %d, stderr %q", out.code, out.stderr)
	}
	req := ollama.Requests()[0]
	if !hasTool(req, "a__echo") || !hasTool(req, "c__echo") || hasTool(req, "needs__echo") {
		t.Errorf("tools offered: %d", len(req.Tools))
	}
	out = runBinary(t, invocation{args: []string{"servers"}, dir: e.dir})
	if out.code != 5 || !strings.Contains(out.stdout, "MCPHOST_TEST_UNSET_TOKEN") {
		t.Errorf("servers: exit %d, stdout %q", out.code, out.stdout)
	}
	e.noneLeft("a", "c")
}

func TestCollidingNamesAreTheSameEverywhere(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	e.config(e.server("hello_world", "", "-id", "underscore"), e.server("hello.world", "", "-id", "dot"))
	out := runBinary(t, invocation{args: []string{"tools", "list", "--output", "json"}, dir: e.dir})
	var listing struct {
		Tools []struct{ Name, Server string }
	}
	if err := json.Unmarshal([]byte(out.stdout), &listing); err != nil {
		t.Fatalf("tools list: %v: %q", err, out.stdout)
	}
	names := map[string]string{}
	for _, tool := range listing.Tools {
		if strings.Contains(tool.Name, "whoami") {
			names[tool.Server] = tool.Name
		}
	}
	// The config is sorted by name: "hello.world" comes first.
	if names["hello.world"] != "hello_world__whoami" || names["hello_world"] != "hello_world__whoami_2" {
		t.Fatalf("names %v", names)
	}
	for server, id := range map[string]string{"hello.world": "dot", "hello_world": "underscore"} {
		out := runBinary(t, invocation{args: []string{"tools", "call", names[server]}, dir: e.dir})
		if out.code != 0 || strings.TrimSpace(out.stdout) != id {
			t.Errorf("tools call %s reached %q (exit %d, stderr %q), want %s", names[server], out.stdout, out.code, out.stderr, server)
		}
	}
	// The error for a near miss names the tools as they are listed.
	out = runBinary(t, invocation{args: []string{"tools", "call", "hello_world__whoamii"}, dir: e.dir})
	if out.code != 2 || !strings.Contains(out.stderr, `"hello_world__whoami"`) || !strings.Contains(out.stderr, `"hello_world__whoami_2"`) {
		t.Errorf("near miss: exit %d, stderr %q", out.code, out.stderr)
	}
}

func TestToolsCallFailuresInEachOutputMode(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	e.config(e.server("f", ""))
	out := runBinary(t, invocation{args: []string{"tools", "call", "f__crash", `{"message": "segfault in the driver"}`}, dir: e.dir})
	if out.code != 6 || !strings.Contains(out.stderr, "segfault in the driver") {
		t.Errorf("text: exit %d, stderr %q", out.code, out.stderr)
	}
	out = runBinary(t, invocation{args: []string{"tools", "call", "--output", "json", "f__crash", `{"message": "segfault in the driver"}`}, dir: e.dir})
	var res struct {
		Error    string `json:"error"`
		ExitCode int    `json:"exit_code"`
	}
	if err := json.Unmarshal([]byte(out.stdout), &res); err != nil || out.code != 6 || res.ExitCode != 6 || !strings.Contains(res.Error, "segfault in the driver") {
		t.Errorf("json: exit %d, stdout %q (%v)", out.code, out.stdout, err)
	}
	// A failure before the call prints its object too.
	out = runBinary(t, invocation{args: []string{"tools", "call", "--output", "json", "f__nope"}, dir: e.dir})
	if err := json.Unmarshal([]byte(out.stdout), &res); err != nil || out.code != 2 || res.ExitCode != 2 || res.Error == "" {
		t.Errorf("json, unknown tool: exit %d, stdout %q", out.code, out.stdout)
	}
	e.noneLeft("f")
}

func TestToolDefinitionsAsTheServerSentThem(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	e.config(e.server("f", ""), fmt.Sprintf(`"everything": {"command": %q}`, mcptest.NPMBin(t, "mcp-server-everything")))
	out := runBinary(t, invocation{args: []string{"tools", "list", "--output", "json"}, dir: e.dir})
	var listing struct {
		Tools []struct {
			Name string
			Tool map[string]any
		}
	}
	if err := json.Unmarshal([]byte(out.stdout), &listing); err != nil {
		t.Fatal(err)
	}
	byName := map[string]map[string]any{}
	for _, tool := range listing.Tools {
		byName[tool.Name] = tool.Tool
	}
	// A field this SDK does not know survives.
	if exec, _ := byName["everything__echo"]["execution"].(map[string]any); exec["taskSupport"] != "forbidden" {
		t.Errorf("everything__echo lost its execution: %v", byName["everything__echo"])
	}
	// Union types are kept as they were written.
	schema, _ := json.Marshal(byName["f__union"]["inputSchema"])
	if !strings.Contains(string(schema), `"type":["boolean","string"]`) || !strings.Contains(string(schema), `"anyOf"`) {
		t.Errorf("f__union's schema: %s", schema)
	}
	// The same over Streamable HTTP, where the definitions are read from
	// the HTTP answer.
	url := mcptest.StartEverything(t, "streamableHttp")
	out = runBinary(t, invocation{args: []string{"tools", "list", "--url", url, "--output", "json"}})
	if !strings.Contains(out.stdout, `"taskSupport": "forbidden"`) {
		t.Errorf("over HTTP, the definitions lost their execution:\n%s", out.stdout)
	}
	text := runBinary(t, invocation{args: []string{"tools", "list", "f"}, dir: e.dir})
	if !strings.Contains(text.stdout, "flag   boolean|string, required") || !strings.Contains(text.stdout, "level  integer|string") {
		t.Errorf("the text listing does not show the unions:\n%s", text.stdout)
	}
}
