package e2e

// MCP beyond tools, through the binary: prompts, resources, attachments,
// the model's resource tools, sampling, progress, tasks, logs, roots and
// list changes, against server-everything (stdio and Streamable HTTP),
// server-filesystem and the fault server.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/ollamatest"
)

// everythingConfigs are .mcp.json files with server-everything named
// "everything", over stdio and over Streamable HTTP.
func everythingConfigs(t *testing.T) map[string]string {
	url := mcptest.StartEverything(t, "streamableHttp")
	return map[string]string{
		"stdio": everythingJSON(t),
		"http":  fmt.Sprintf(`{"mcpServers": {"everything": {"type": "http", "url": %q}}}`, url),
	}
}

// eachTransport runs test once per everything config, in a directory of
// its own holding it; the transports run in parallel, as they share
// nothing but the one HTTP server.
func eachTransport(t *testing.T, test func(t *testing.T, dir string)) {
	for name, cfg := range everythingConfigs(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeConfig(t, dir, ".mcp.json", cfg)
			test(t, dir)
		})
	}
}

// streamEvents parses --output stream-json.
func streamEvents(t *testing.T, stdout string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for i, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("line %d does not parse: %q", i+1, line)
		}
		out = append(out, ev)
	}
	return out
}

// toolMessages returns the tool results in the messages of a request.
func toolMessages(req api.ChatRequest) []string {
	var out []string
	for _, m := range req.Messages {
		if m.Role == "tool" {
			out = append(out, m.Content)
		}
	}
	return out
}

func TestPromptsAndResourcesWithoutAModel(t *testing.T) {
	t.Parallel()
	eachTransport(t, func(t *testing.T, dir string) {
		run := func(args ...string) outcome { return runBinary(t, invocation{args: args, dir: dir}) }

		out := run("prompts", "list", "--output", "json")
		var prompts struct {
			Prompts []struct {
				Name      string
				Arguments []struct {
					Name     string
					Required bool
				}
			}
		}
		if err := json.Unmarshal([]byte(out.stdout), &prompts); err != nil || out.code != 0 {
			t.Fatalf("prompts list: exit %d, %v, stdout %q, stderr %q", out.code, err, out.stdout, out.stderr)
		}
		var names []string
		for _, p := range prompts.Prompts {
			names = append(names, p.Name)
		}
		for _, want := range []string{"everything__simple-prompt", "everything__args-prompt", "everything__completable-prompt", "everything__resource-prompt"} {
			if !slices.Contains(names, want) {
				t.Errorf("prompts %q lack %s", names, want)
			}
		}

		cases := []struct {
			args []string
			code int
			want string
		}{
			{[]string{"prompts", "get", "everything__simple-prompt"}, 0, "[user]\nThis is a simple prompt without arguments."},
			{[]string{"prompts", "get", "args-prompt", "city=Paris", "state=Texas"}, 0, "What's weather in Paris, Texas?"},
			{[]string{"prompts", "get", "everything__completable-prompt", "department=Sales", "name=Eve"}, 0, "Please promote Eve to the head of the Sales team."},
			{[]string{"prompts", "get", "everything__resource-prompt", "resourceType=Text", "resourceId=7"}, 0, "(resource demo://resource/dynamic/text/7)\nResource 7: This is a plaintext resource"},
			{[]string{"prompts", "get", "everything__args-prompt"}, 2, "prompt everything__args-prompt needs city: give city=…"},
			{[]string{"prompts", "get", "nope"}, 2, `unknown prompt "nope"`},
			{[]string{"prompts", "get", "everything__args-prompt", "city"}, 2, `argument "city" must be NAME=VALUE`},
			{[]string{"resources", "read", "demo://resource/static/document/features.md"}, 0, "# Everything Server - Features"},
			{[]string{"resources", "read", "everything:demo://resource/dynamic/text/4"}, 0, "Resource 4: This is a plaintext resource"},
			// The blob holds the server's time of day ("9:59:01 PM" or
			// "10:00:01 PM"), so its size is not fixed.
			{[]string{"resources", "read", "demo://resource/dynamic/blob/2"}, 0, "[resource demo://resource/dynamic/blob/2, text/plain, 5"},
			{[]string{"resources", "list"}, 0, "everything:demo://resource/dynamic/text/{resourceId}"},
		}
		for _, c := range cases {
			out := run(c.args...)
			got := out.stdout + out.stderr
			if out.code != c.code || !strings.Contains(got, c.want) {
				t.Errorf("mcphost %s: exit %d (want %d), output %q, want it to hold %q", strings.Join(c.args, " "), out.code, c.code, got, c.want)
			}
		}

		out = run("resources", "list", "--output", "json")
		var listed struct {
			Resources []struct{ Server, URI, MIMEType string }
			Templates []struct{ URITemplate string }
		}
		if err := json.Unmarshal([]byte(out.stdout), &listed); err != nil || len(listed.Resources) == 0 || len(listed.Templates) != 2 {
			t.Errorf("resources list json: %v %q", err, out.stdout)
		}
		out = run("resources", "read", "demo://resource/dynamic/blob/1", "--output", "json")
		var read struct {
			Server   string
			Contents []struct{ URI, MIMEType, Blob string }
		}
		if err := json.Unmarshal([]byte(out.stdout), &read); err != nil || read.Server != "everything" || len(read.Contents) != 1 || read.Contents[0].Blob == "" {
			t.Errorf("resources read json: %v %q", err, out.stdout)
		}
	})
}

func TestMCPPromptAndAttachmentsInOneShotRuns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	ollama := ollamatest.NewServer()
	defer ollama.Close()

	ollama.Enqueue(ollamatest.Reply{Content: "Sunny."})
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "--mcp-prompt", "everything__args-prompt", "--prompt-arg", "city=Paris", "-p", "One word."}, dir: dir, host: ollama.URL})
	if out.code != 0 || out.stdout != "Sunny.\n" {
		t.Fatalf("--mcp-prompt: exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	msgs := ollama.Requests()[0].Messages
	if n := len(msgs); n < 2 || msgs[n-2].Content != "What's weather in Paris?" || msgs[n-1].Content != "One word." {
		t.Errorf("the model got %+v", msgs)
	}

	out = runBinary(t, invocation{args: []string{"-m", "tiny", "--mcp-prompt", "everything__args-prompt"}, dir: dir, host: ollama.URL})
	if out.code != 2 || !strings.Contains(out.stderr, "needs city: give city=…") {
		t.Errorf("--mcp-prompt without its argument: exit %d, stderr %q", out.code, out.stderr)
	}

	ollama.Reset()
	ollama.Enqueue(ollamatest.Reply{Content: "It lists features."})
	out = runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "Sum up @everything:demo://resource/static/document/features.md please."}, dir: dir, host: ollama.URL})
	if out.code != 0 {
		t.Fatalf("attachment: exit %d, stderr %q", out.code, out.stderr)
	}
	got := lastMessage(ollama.Requests()[0]).Content
	if !strings.HasPrefix(got, "Sum up @everything:demo://resource/static/document/features.md please.\n\n--- resource everything:demo://resource/static/document/features.md (text/markdown) ---\n# Everything Server - Features") {
		t.Errorf("the model got %q", got)
	}

	out = runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "Read @everything:demo://nothing/here"}, dir: dir, host: ollama.URL})
	if out.code == 0 || !strings.Contains(out.stderr, "attaching @everything:demo://nothing/here") {
		t.Errorf("a missing resource: exit %d, stderr %q", out.code, out.stderr)
	}
}

func TestTheModelReadsResourcesWithTheHostTools(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("mcphost__list_resources", nil)}},
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("mcphost__read_resource", map[string]any{"uri": "demo://resource/dynamic/text/5"})}},
		ollamatest.Reply{Content: "Read it."},
	)
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "what resources are there?"}, dir: dir, host: ollama.URL})
	if out.code != 0 || out.stdout != "Read it.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	reqs := ollama.Requests()
	if !hasTool(reqs[0], "mcphost__list_resources") || !hasTool(reqs[0], "mcphost__read_resource") {
		t.Errorf("the resource tools were not offered")
	}
	if got := toolMessages(reqs[1]); len(got) != 1 || !strings.Contains(got[0], "- demo://resource/static/document/features.md (server everything)") ||
		!strings.Contains(got[0], "demo://resource/dynamic/text/{resourceId} (server everything)") {
		t.Errorf("list_resources gave %q", got)
	}
	if got := toolMessages(reqs[2]); len(got) != 2 || !strings.HasPrefix(got[1], "[resource demo://resource/dynamic/text/5]\nResource 5: This is a plaintext resource") {
		t.Errorf("read_resource gave %q", got)
	}
	if !strings.Contains(out.stderr, "✓ mcphost › read_resource") {
		t.Errorf("stderr has no tool line for the read: %q", out.stderr)
	}

	// A server without resources: no resource tools.
	env := newFaultEnv(t)
	env.config(env.server("fault", ""))
	ollama.Reset()
	ollama.Enqueue(ollamatest.Reply{Content: "ok"})
	if out := env.run(ollama.URL); out.code != 0 || hasTool(ollama.Requests()[0], "mcphost__list_resources") {
		t.Errorf("exit %d; offered the resource tools without resources", out.code)
	}
}

func TestSamplingAllowedAndDenied(t *testing.T) {
	t.Parallel()
	eachTransport(t, func(t *testing.T, dir string) {
		ollama := ollamatest.NewServer()
		defer ollama.Close()
		sample := ollamatest.Call("everything__trigger-sampling-request", map[string]any{"prompt": "What is six times seven?", "maxTokens": 20})
		audit := filepath.Join(dir, "audit.jsonl")

		ollama.Enqueue(ollamatest.Reply{ToolCalls: []api.ToolCall{sample}}, ollamatest.Reply{Content: "forty-two"}, ollamatest.Reply{Content: "The model said 42."})
		out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "sample", "--allow-tool", "*", "--sampling", "allow", "--audit", audit}, dir: dir, host: ollama.URL})
		if out.code != 0 || out.stdout != "The model said 42.\n" {
			t.Fatalf("allowed: exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
		}
		reqs := ollama.Requests()
		if len(reqs) != 3 {
			t.Fatalf("the model got %d requests, want 3", len(reqs))
		}
		s := reqs[1]
		if len(s.Tools) != 0 || s.Messages[0].Role != "system" || s.Messages[0].Content != "You are a helpful test server." ||
			!strings.Contains(lastMessage(s).Content, "What is six times seven?") || s.Options["num_predict"] != float64(20) {
			t.Errorf("the sampling request was %+v", s)
		}
		if got := toolMessages(reqs[2]); len(got) != 1 || !strings.Contains(got[0], `"text": "forty-two"`) {
			t.Errorf("the tool's result was %q", got)
		}
		logged, _ := os.ReadFile(audit)
		if !strings.Contains(string(logged), `"tool":"sampling/createMessage"`) || !strings.Contains(string(logged), `"decision":"allowed"`) {
			t.Errorf("audit log = %s", logged)
		}

		ollama.Reset()
		ollama.Enqueue(ollamatest.Reply{ToolCalls: []api.ToolCall{sample}}, ollamatest.Reply{Content: "It was refused."})
		out = runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "sample", "--allow-tool", "*"}, dir: dir, host: ollama.URL})
		if out.code != 0 || !strings.Contains(out.stderr, `server "everything" asked the model for a completion ("Resource trigger-sampling-request context: What is six times seven?") and was refused: run with --sampling allow`) {
			t.Errorf("denied: exit %d, stderr %q", out.code, out.stderr)
		}
		if reqs := ollama.Requests(); len(reqs) != 2 || !strings.Contains(strings.Join(toolMessages(reqs[1]), ""), "sampling request refused") {
			t.Errorf("denied: the model got %d requests; tool results %q", len(reqs), toolMessages(reqs[len(reqs)-1]))
		}
	})
}

func TestProgressAndTasksInStreamJSON(t *testing.T) {
	t.Parallel()
	eachTransport(t, func(t *testing.T, dir string) {
		ollama := ollamatest.NewServer()
		defer ollama.Close()
		ollama.Enqueue(
			ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__trigger-long-running-operation", map[string]any{"duration": 0.6, "steps": 3})}},
			ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__simulate-research-query", map[string]any{"topic": "owls"})}},
			ollamatest.Reply{Content: "Done."},
		)
		out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "go", "--allow-tool", "*", "--output", "stream-json"}, dir: dir, host: ollama.URL})
		if out.code != 0 {
			t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
		}
		var seq []string
		for _, ev := range streamEvents(t, out.stdout) {
			switch ev["type"] {
			case "tool_call_start", "tool_call_end":
				seq = append(seq, ev["type"].(string))
			case "progress":
				if status, _ := ev["status"].(string); status != "" {
					seq = append(seq, "status "+status)
				} else {
					seq = append(seq, fmt.Sprintf("progress %v/%v", ev["progress"], ev["total"]))
				}
			}
		}
		joined := strings.Join(seq, ", ")
		if !strings.HasPrefix(joined, "tool_call_start, progress 1/3, progress 2/3") || !strings.Contains(joined, "tool_call_end, tool_call_start, status working") || !strings.HasSuffix(joined, "tool_call_end") {
			t.Errorf("events: %s", joined)
		}
		if got := toolMessages(ollama.Requests()[2]); len(got) != 2 || !strings.Contains(got[1], "# Research Report: owls") {
			t.Errorf("the task's result: %q", got)
		}
	})
}

func TestCtrlCCancelsATask(t *testing.T) {
	// Not parallel: the stop is timed (5s).
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__simulate-research-query", map[string]any{"topic": "bats"})}})
	cmd := invocation{args: []string{"-m", "tiny", "-p", "go", "--allow-tool", "*", "--output", "stream-json", "--debug"}, dir: dir, host: ollama.URL}.command(t)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if strings.Contains(sc.Text(), `"type":"progress"`) && strings.Contains(sc.Text(), `"status":"working"`) {
			break // the task runs
		}
	}
	start := time.Now()
	_ = cmd.Process.Signal(syscall.SIGINT)
	for sc.Scan() {
	}
	err = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("exit %d (%v), want 130; stderr %q", code, err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "task cancelled") {
		t.Errorf("the server was not told to cancel the task: %q", stderr.String())
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("mcphost took %s to stop", d)
	}
}

func TestServerLogsAndLevels(t *testing.T) {
	t.Parallel()
	env := newFaultEnv(t)
	env.config(env.server("fault", ""))
	out := runBinary(t, invocation{args: []string{"tools", "call", "fault__log"}, dir: env.dir})
	if out.code != 0 || !strings.Contains(out.stderr, `server "fault" logged ERROR: a error message`) {
		t.Errorf("exit %d, stderr %q", out.code, out.stderr)
	}
	if strings.Contains(out.stderr, "a warning message") || strings.Contains(out.stderr, "a debug message") {
		t.Errorf("messages below error shown: %q", out.stderr)
	}
	out = runBinary(t, invocation{args: []string{"tools", "call", "fault__log", "--debug"}, dir: env.dir})
	if !strings.Contains(out.stderr, "a debug message") || !strings.Contains(out.stderr, "a warning message") {
		t.Errorf("--debug: the server was not asked for its debug messages: %q", out.stderr)
	}
}

func TestRootsOnlyWhenConfigured(t *testing.T) {
	t.Parallel()
	mine, given := t.TempDir(), t.TempDir()
	bin := mcptest.NPMBin(t, "mcp-server-filesystem")
	dir := t.TempDir()
	listDirs := func(roots string) string {
		writeConfig(t, dir, ".mcp.json", fmt.Sprintf(`{"mcpServers": {"fs": {"command": %q, "args": [%q]%s}}}`, bin, mine, roots))
		var last string
		// server-filesystem asks for the roots once initialized, while the
		// call may already be on its way: ask until it has settled.
		poll(50*time.Millisecond, func() bool {
			out := runBinary(t, invocation{args: []string{"tools", "call", "fs__list_allowed_directories"}, dir: dir})
			last = out.stdout
			return roots == "" || strings.Contains(last, given)
		})
		return last
	}
	if got := listDirs(""); !strings.Contains(got, mine) {
		t.Errorf("without roots, server-filesystem lost its directory: %q", got)
	}
	got := listDirs(fmt.Sprintf(`, "roots": [%q]`, given))
	if !strings.Contains(got, given) || strings.Contains(got, mine) {
		t.Errorf("with roots, server-filesystem allows %q", got)
	}
}

func TestToolListChangeReachesTheModel(t *testing.T) {
	t.Parallel()
	env := newFaultEnv(t)
	env.config(env.server("fault", ""))
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fault__grow", map[string]any{"name": "sprout"})}},
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fault__sprout", nil)}},
		ollamatest.Reply{Content: "It grew."},
	)
	out := env.run(ollama.URL)
	if out.code != 0 || out.stdout != "It grew.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	reqs := ollama.Requests()
	if hasTool(reqs[0], "fault__sprout") || !hasTool(reqs[1], "fault__sprout") {
		t.Errorf("the new tool was not offered at the next call")
	}
	if got := toolMessages(reqs[2]); len(got) != 2 || got[1] != "grown tool sprout ran" {
		t.Errorf("results %q", got)
	}
}

func TestURLElicitationIsDeclinedWithoutAChat(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	out := runBinary(t, invocation{args: []string{"tools", "call", "everything__trigger-url-elicitation", `{"url": "https://example.com/auth"}`}, dir: dir})
	if out.code != 0 || !strings.Contains(out.stdout, "User declined to open the URL") || !strings.Contains(out.stderr, "declined") {
		t.Errorf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
}

func TestStructuredContentIsCheckedAgainstItsSchema(t *testing.T) {
	t.Parallel()
	env := newFaultEnv(t)
	env.config(env.server("fault", ""))
	out := runBinary(t, invocation{args: []string{"tools", "call", "fault__weather"}, dir: env.dir})
	if out.code != 0 || !strings.Contains(out.stdout, `"temperature": "warm"`) ||
		!strings.Contains(out.stderr, `tool "weather" returned structured content that does not match its output schema`) {
		t.Errorf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	out = runBinary(t, invocation{args: []string{"tools", "call", "everything__get-structured-content", `{"location": "Chicago"}`}, dir: dir})
	if out.code != 0 || strings.Contains(out.stderr, "does not match") {
		t.Errorf("a valid result: exit %d, stderr %q", out.code, out.stderr)
	}
}
