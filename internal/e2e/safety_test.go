package e2e

// End-to-end tests of the safety features: the built-in fs server as the
// default, approval in one-shot runs, the audit log and secret masking.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/ollamatest"
)

// toolResultsByName returns the tool messages the model was sent in req.
func toolResultsByName(req api.ChatRequest) map[string]string {
	out := map[string]string{}
	for _, m := range req.Messages {
		if m.Role == "tool" {
			out[m.ToolName] += m.Content
		}
	}
	return out
}

// TestNoConfigDefaultIsFSOnTheWorkingDirectory is the fresh machine: no
// config file anywhere, an empty HOME, and "what is in this folder?" works
// through the built-in fs server, which stays inside the folder.
func TestNoConfigDefaultIsFSOnTheWorkingDirectory(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{
			ollamatest.Call("fs__list_directory", map[string]any{"path": "."}),
			ollamatest.Call("fs__read_file", map[string]any{"path": "../outside.txt"}),
			ollamatest.Call("fs__write_file", map[string]any{"path": "new.txt", "content": "x"}),
		}},
		ollamatest.Reply{Content: "There is a README and a src folder."},
	)
	base := t.TempDir()
	dir := filepath.Join(base, "project")
	for _, d := range []string{dir, filepath.Join(dir, "src")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeConfig(t, dir, "README.md", "# hi\n")
	writeConfig(t, base, "outside.txt", "private")

	out := runBinary(t, invocation{args: []string{"-m", "ollama:qwen3:8b", "-p", "what is in this folder?"}, dir: dir, host: ollama.URL})
	if out.code != 0 || out.stdout != "There is a README and a src folder.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	reqs := ollama.Requests()
	if !hasTool(reqs[0], "fs__list_directory") || !hasTool(reqs[0], "fs__read_file") {
		t.Errorf("the built-in fs tools were not offered: %d tools", len(reqs[0].Tools))
	}
	results := toolResultsByName(reqs[1])
	if got := results["fs__list_directory"]; !strings.Contains(got, "[FILE] README.md") || !strings.Contains(got, "[DIR] src/") {
		t.Errorf("list_directory = %q", got)
	}
	if got := results["fs__read_file"]; !strings.Contains(got, "outside the allowed directories") || strings.Contains(got, "private") {
		t.Errorf("read outside = %q", got)
	}
	// Writing needs approval, and a one-shot run cannot ask.
	if got := results["fs__write_file"]; !strings.Contains(got, "no one can be asked") {
		t.Errorf("write_file = %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.txt")); err == nil {
		t.Error("fs__write_file ran without approval")
	}
	if !strings.Contains(out.stderr, "--allow-tool 'fs__write_file'") {
		t.Errorf("stderr does not say how to allow the write: %q", out.stderr)
	}
}

// TestOneShotApproval runs the same tool calls under several policies.
// toggle-simulated-logging does not declare readOnlyHint, so it is asked
// by default; echo declares it, so it is allowed.
func TestOneShotApproval(t *testing.T) {
	t.Parallel()
	bin := mcptest.NPMBin(t, "mcp-server-everything")
	const toggle = "everything__toggle-simulated-logging"
	tests := []struct {
		name     string
		args     []string
		config   string // extra top-level YAML
		ran      bool   // toggle ran
		echo     bool   // echo offered
		stderrIn string
	}{
		{name: "default refuses and says how to allow", echo: true, stderrIn: "--allow-tool '" + toggle + "' (or 'everything__*'"},
		{name: "--allow-tool", args: []string{"--allow-tool", "everything__*"}, ran: true, echo: true},
		{name: "config allow", config: "approval:\n  allow: [\"everything__toggle-*\"]\n", ran: true, echo: true},
		{name: "--yolo", args: []string{"--yolo"}, ran: true, echo: true},
		{name: "deny hides and refuses", args: []string{"--yolo", "--deny-tool", "everything__echo", "--deny-tool", toggle}},
		{name: "exact allow beats a glob deny", config: "approval:\n  deny: [\"everything__*\"]\n  allow: [\"" + toggle + "\"]\n", ran: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ollama := ollamatest.NewServer()
			defer ollama.Close()
			ollama.Enqueue(
				ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call(toggle, map[string]any{})}},
				ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call(toggle, map[string]any{})}},
				ollamatest.Reply{Content: "done"},
			)
			dir := t.TempDir()
			writeConfig(t, dir, ".mcphost.yml", fmt.Sprintf("mcpServers:\n  everything:\n    command: %q\n%s", bin, tt.config))
			out := runBinary(t, invocation{args: append([]string{"-m", "tiny", "-p", "toggle logging twice"}, tt.args...), dir: dir, host: ollama.URL})
			if out.code != 0 || out.stdout != "done\n" {
				t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
			}
			reqs := ollama.Requests()
			if got := hasTool(reqs[0], "everything__echo"); got != tt.echo {
				t.Errorf("echo offered = %v, want %v", got, tt.echo)
			}
			result := toolResultsByName(reqs[1])[toggle]
			if ran := strings.Contains(result, "Started simulated") || strings.Contains(result, "Stopped simulated"); ran != tt.ran {
				t.Errorf("tool result = %q, want ran=%v", result, tt.ran)
			}
			// A denied tool is not offered, so the runner already answers
			// that it does not exist.
			if !tt.ran && !strings.Contains(result, "Not run:") && !strings.Contains(result, "unknown tool") {
				t.Errorf("the model was not told the call was refused: %q", result)
			}
			if tt.stderrIn != "" {
				if !strings.Contains(out.stderr, tt.stderrIn) {
					t.Errorf("stderr lacks %q: %q", tt.stderrIn, out.stderr)
				}
				if n := strings.Count(out.stderr, "--allow-tool"); n != 1 {
					t.Errorf("the hint was printed %d times for two refused calls, want once: %q", n, out.stderr)
				}
			}
		})
	}
}

// TestAuditLogAndDebugOutputMaskSecrets runs tool calls that see the
// config's secrets (server-everything's get-env returns its environment)
// with --audit and --debug, and finds none of the secrets in either.
func TestAuditLogAndDebugOutputMaskSecrets(t *testing.T) {
	t.Parallel()
	secrets := map[string]string{
		"envToken":    "env-token-7f3a9c2e1b",
		"envPassword": "pw-51ab",
		"envPlain":    "plain-but-long-value-42",
		"header":      "hdr-secret-0d8e4f6a",
		"apiKey":      "api-key-c0ffee-99",
	}
	httpURL := mcptest.StartEverything(t, "streamableHttp")
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{
			ollamatest.Call("everything__get-env", map[string]any{}),
			ollamatest.Call("remote__echo", map[string]any{"message": "Authorization: Bearer " + secrets["header"]}),
			ollamatest.Call("everything__toggle-simulated-logging", map[string]any{"api_key": "sk-model-made-up"}),
			ollamatest.Call("everything__echo", map[string]any{"message": "db " + secrets["envPassword"] + " " + secrets["envPlain"] + " key " + secrets["apiKey"]}),
		}},
		ollamatest.Reply{Content: "checked"},
	)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcphost.yml", fmt.Sprintf(`mcpServers:
  everything:
    command: %q
    env:
      SERVICE_TOKEN: %s
      DB_PASSWORD: %s
      SOME_SETTING: %s
  leaky:
    command: sh
    args: ["-c", "echo \"cannot log in with $SERVICE_TOKEN / $DB_PASSWORD / $SOME_SETTING\" >&2; exit 1"]
    env:
      SERVICE_TOKEN: %[2]s
      DB_PASSWORD: %[3]s
      SOME_SETTING: %[4]s
  remote:
    type: http
    url: %q
    headers:
      Authorization: Bearer %s
      X-Api-Key: %s
`, mcptest.NPMBin(t, "mcp-server-everything"), secrets["envToken"], secrets["envPassword"], secrets["envPlain"], httpURL, secrets["header"], secrets["apiKey"]))
	auditPath := filepath.Join(dir, "audit.jsonl")

	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "check", "--debug", "--audit", auditPath}, dir: dir, host: ollama.URL})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	// The secrets did reach the tools: masking is for what is printed and
	// written down, not for the calls themselves.
	if got := toolResultsByName(ollama.Requests()[1])["everything__get-env"]; !strings.Contains(got, secrets["envToken"]) {
		t.Fatalf("get-env did not see the configured env (so the test proves nothing): %q", got)
	}

	data, err := os.ReadFile(auditPath)
	if err != nil {
		t.Fatal(err)
	}
	type entry struct {
		Server, Tool, Decision string
		Arguments              map[string]any
		OK                     bool
		DurationMS             float64 `json:"duration_ms"`
		ResultBytes            int     `json:"result_bytes"`
	}
	byTool := map[string]entry{}
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for sc.Scan() {
		var e entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("audit line %q: %v", sc.Text(), err)
		}
		byTool[e.Server+"/"+e.Tool] = e
	}
	if len(byTool) != 4 {
		t.Fatalf("audit log has %d distinct calls, want 4:\n%s", len(byTool), data)
	}
	if e := byTool["everything/get-env"]; e.Decision != "allowed" || !e.OK || e.ResultBytes == 0 {
		t.Errorf("get-env entry = %+v", e)
	}
	if e := byTool["remote/echo"]; e.Decision != "allowed" || !strings.HasPrefix(fmt.Sprint(e.Arguments["message"]), "Authorization: ") || !strings.Contains(fmt.Sprint(e.Arguments["message"]), "***") {
		t.Errorf("echo entry = %+v", e)
	}
	if e := byTool["everything/toggle-simulated-logging"]; e.Decision != "policy" || e.OK || e.Arguments["api_key"] != "***" {
		t.Errorf("refused entry = %+v", e)
	}
	for name, s := range secrets {
		if strings.Contains(string(data), s) {
			t.Errorf("the audit log holds the %s secret %q", name, s)
		}
		if strings.Contains(out.stderr, s) {
			t.Errorf("stderr (--debug and tool lines) holds the %s secret %q", name, s)
		}
	}
	// The failing server's last words are quoted, masked.
	if !strings.Contains(out.stderr, `warning: server "leaky"`) || !strings.Contains(out.stderr, "cannot log in with ***") {
		t.Errorf("the leaky server's failure is not shown masked: %q", out.stderr)
	}
	if !strings.Contains(out.stderr, "level=DEBUG") {
		t.Errorf("no debug output was checked: %q", out.stderr)
	}
}

func TestBuiltinConfigErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ content, want string }{
		{"mcpServers:\n  mine:\n    type: builtin\n    name: nope\n", `.mcphost.yml: server "mine": there is no built-in server "nope"`},
		{"mcpServers:\n  mine:\n    type: builtin\n    name: fs\n    options: {allowed_directories: [/definitely/missing]}\n", `server "mine": allowed directory "/definitely/missing" does not exist`},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		writeConfig(t, dir, ".mcphost.yml", tt.content)
		out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "hi"}, dir: dir, host: closedPort(t)})
		if out.code != 2 || !strings.Contains(out.stderr, tt.want) {
			t.Errorf("exit %d, stderr %q, want exit 2 and %q", out.code, out.stderr, tt.want)
		}
	}
}
