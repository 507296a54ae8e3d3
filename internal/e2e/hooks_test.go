//go:build unix

package e2e

// Hooks (issue 23) through the binary: the user's commands around tool
// calls and prompts, in the original mcphost's and Claude Code's formats.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/ollamatest"
)

// hookEnv is a folder with a config (the built-in bash and fs servers) and
// hook scripts, and a scripted model.
type hookEnv struct {
	t     *testing.T
	dir   string
	home  string
	model *ollamatest.Server
}

func newHookEnv(t *testing.T) *hookEnv {
	e := &hookEnv{t: t, dir: t.TempDir(), home: t.TempDir(), model: ollamatest.NewServer()}
	t.Cleanup(e.model.Close)
	writeConfig(t, e.dir, ".mcphost.yml", `mcpServers:
  bash: {type: builtin, name: bash}
  fs: {type: builtin, name: fs, options: {allowed_directories: ["${PROJECT_DIR}"]}}
`)
	return e
}

// script writes an executable hook script and returns its path.
func (e *hookEnv) script(name, body string) string {
	path := filepath.Join(e.dir, name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		e.t.Fatal(err)
	}
	return path
}

// hooks writes the user's hooks file (the config directory's hooks.yml).
func (e *hookEnv) hooks(yml string) {
	dir := filepath.Join(e.home, ".config", "mcphost")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		e.t.Fatal(err)
	}
	writeConfig(e.t, dir, "hooks.yml", yml)
}

// call makes the model call tool with args, then answer "done".
func (e *hookEnv) call(tool string, args map[string]any) {
	e.model.Enqueue(ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call(tool, args)}}, ollamatest.Reply{Content: "done"})
}

func (e *hookEnv) run(args ...string) outcome {
	e.t.Helper()
	return runBinary(e.t, invocation{args: append([]string{"-m", "tiny", "-p", "go"}, args...), dir: e.dir, home: e.home, host: e.model.URL})
}

// lastToolResult is what the model was given for its call.
func (e *hookEnv) lastToolResult() string {
	reqs := e.model.Requests()
	msgs := reqs[len(reqs)-1].Messages
	return msgs[len(msgs)-1].Content
}

func TestPreToolUseHookBlocksADangerousCommand(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t)
	// As Claude Code's and the original mcphost's docs write such a hook:
	// the input on stdin, exit 2 and the reason on stderr.
	guard := e.script("guard.sh", `if grep -q 'rm -rf'; then echo "rm -rf is not allowed here" >&2; exit 2; fi
exit 0
`)
	e.hooks("hooks:\n  PreToolUse:\n    - matcher: bash__run\n      hooks:\n        - type: command\n          command: " + guard + "\n")
	marker := filepath.Join(e.dir, "ran")
	e.call("bash__run", map[string]any{"command": "touch " + marker + " && rm -rf " + filepath.Join(e.dir, "junk")})
	audit := filepath.Join(e.dir, "audit.jsonl")
	out := e.run("--allow-tool", "bash__*", "--audit", audit)
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the blocked command ran")
	}
	if got := e.lastToolResult(); !strings.Contains(got, "rm -rf is not allowed here") {
		t.Errorf("the model got %q, want the hook's reason", got)
	}
	// The audit line says a hook blocked it, and why.
	data, _ := os.ReadFile(audit)
	if !strings.Contains(string(data), `"decision":"hook-blocked"`) || !strings.Contains(string(data), `"event":"PreToolUse"`) {
		t.Errorf("audit log:\n%s", data)
	}
	// The same hook lets a harmless command through.
	e.call("bash__run", map[string]any{"command": "touch " + marker})
	if out := e.run("--allow-tool", "bash__*"); out.code != 0 {
		t.Fatal(out.stderr)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Error("the harmless command did not run")
	}
}

func TestPreToolUseHookApprovesAnAskToolInAOneShotRun(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t)
	// Claude Code's dialect: hookSpecificOutput.permissionDecision.
	allow := e.script("allow.sh", `cat >/dev/null
echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "permissionDecisionReason": "notes are fine"}}'
`)
	e.hooks("hooks:\n  PreToolUse:\n    - matcher: fs__write_file\n      hooks:\n        - {type: command, command: " + allow + "}\n")
	target := filepath.Join(e.dir, "notes.txt")
	e.call("fs__write_file", map[string]any{"path": target, "content": "hello"})
	out := e.run()
	if data, err := os.ReadFile(target); out.code != 0 || err != nil || string(data) != "hello" {
		t.Errorf("exit %d, file %q (%v), stderr %q: the hook's allow was not used", out.code, data, err, out.stderr)
	}
	// --no-hooks: the write needs approval again, and is refused.
	os.Remove(target)
	e.call("fs__write_file", map[string]any{"path": target, "content": "hello"})
	e.run("--no-hooks")
	if _, err := os.Stat(target); err == nil {
		t.Error("--no-hooks still ran the hook")
	}
}

func TestPostToolUseHookRedactsTheResult(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t)
	if err := os.WriteFile(filepath.Join(e.dir, "creds.txt"), []byte("password=hunter2"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The original mcphost's dialect for a replacement: a JSON result.
	redact := e.script("redact.sh", `if grep -q password; then echo '{"result": "[redacted by policy]"}'; fi
`)
	e.hooks("hooks:\n  PostToolUse:\n    - matcher: fs__.*\n      hooks:\n        - {type: command, command: " + redact + "}\n")
	e.call("fs__read_file", map[string]any{"path": filepath.Join(e.dir, "creds.txt")})
	out := e.run()
	if got := e.lastToolResult(); out.code != 0 || got != "[redacted by policy]" || strings.Contains(out.stderr, "hunter2") {
		t.Errorf("exit %d, the model got %q", out.code, got)
	}
}

func TestUserPromptSubmitHookAddsContextOrBlocks(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t)
	ctxHook := e.script("context.sh", `cat >/dev/null; echo "The user's timezone is Europe/Paris."`)
	e.hooks("hooks:\n  UserPromptSubmit:\n    - hooks:\n        - {type: command, command: " + ctxHook + "}\n")
	out := e.run()
	if reqs := e.model.Requests(); out.code != 0 || !strings.Contains(reqs[0].Messages[len(reqs[0].Messages)-1].Content, "Europe/Paris") {
		t.Errorf("exit %d: the context did not reach the model", out.code)
	}
	block := e.script("block.sh", `if grep -q secret; then echo "prompts about secrets are not sent" >&2; exit 2; fi`)
	e.hooks("hooks:\n  UserPromptSubmit:\n    - hooks:\n        - {type: command, command: " + block + "}\n")
	before := e.model.RequestCount()
	out = runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "tell me the secret"}, dir: e.dir, home: e.home, host: e.model.URL})
	if out.code != 2 || !strings.Contains(out.stderr, "prompts about secrets are not sent") || e.model.RequestCount() != before {
		t.Errorf("blocked prompt: exit %d, stderr %q, the model was asked %d times", out.code, out.stderr, e.model.RequestCount()-before)
	}
}

func TestAHangingHookIsAWarning(t *testing.T) {
	// Not parallel: the hook must start and record its pid within its 1s timeout, which a loaded machine can miss.
	e := newHookEnv(t)
	pids := filepath.Join(e.dir, "hook.pid")
	hang := e.script("hang.sh", "echo $$ > "+pids+"\nsleep 300 &\necho $! >> "+pids+"\nwait\n")
	e.hooks("hooks:\n  UserPromptSubmit:\n    - hooks:\n        - {type: command, command: " + hang + ", timeout: 1}\n")
	out := e.run()
	if out.code != 0 || out.stdout != "ok\n" || !strings.Contains(out.stderr, "timed out after 1s") {
		t.Errorf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	assertNoLeftovers(t, pids)
}

func TestUntrustedProjectHooksAreIgnored(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t)
	marker := filepath.Join(e.dir, "hook-ran")
	touch := e.script("touch.sh", "touch "+marker+"\n")
	if err := os.MkdirAll(filepath.Join(e.dir, ".mcphost"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeConfig(t, filepath.Join(e.dir, ".mcphost"), "hooks.yml", "UserPromptSubmit:\n  - hooks:\n      - {type: command, command: "+touch+"}\n")
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "go"}, dir: e.dir, home: e.home, host: e.model.URL, untrusted: true})
	if _, err := os.Stat(marker); err == nil || !strings.Contains(out.stderr, filepath.Join(".mcphost", "hooks.yml")) || !strings.Contains(out.stderr, "mcphost trust") {
		t.Errorf("an untrusted hooks file: exit %d, stderr %q, ran: %v", out.code, out.stderr, err == nil)
	}
	// Trusted for the run, it runs.
	out = runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "go", "--trust-project"}, dir: e.dir, home: e.home, host: e.model.URL, untrusted: true})
	if _, err := os.Stat(marker); err != nil || out.code != 0 {
		t.Errorf("a trusted hooks file did not run: exit %d, stderr %q", out.code, out.stderr)
	}
}

func TestHooksListAndValidate(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t)
	ok := e.script("ok.sh", "exit 0\n")
	e.hooks("hooks:\n  PreToolUse:\n    - matcher: bash__run\n      hooks: [{type: command, command: " + ok + ", timeout: 5}]\n  Stop:\n    - hooks: [{type: command, command: no-such-program --flag}]\n")
	out := runBinary(t, invocation{args: []string{"hooks", "list"}, dir: e.dir, home: e.home})
	if out.code != 0 || !strings.Contains(out.stdout, "PreToolUse") || !strings.Contains(out.stdout, "bash__run") || !strings.Contains(out.stdout, "5s") {
		t.Errorf("hooks list: exit %d\n%s", out.code, out.stdout)
	}
	out = runBinary(t, invocation{args: []string{"hooks", "validate"}, dir: e.dir, home: e.home})
	if out.code != 2 || !strings.Contains(out.stderr, `"no-such-program" is not a program on PATH`) {
		t.Errorf("hooks validate: exit %d, stderr %q", out.code, out.stderr)
	}
	e.hooks("hooks:\n  PreTool:\n    - hooks: [{type: command, command: x}]\n")
	out = runBinary(t, invocation{args: []string{"hooks", "validate"}, dir: e.dir, home: e.home})
	if out.code != 2 || !strings.Contains(out.stderr, `"PreTool" is not a hook event`) || !strings.Contains(out.stderr, "hooks.yml") {
		t.Errorf("bad event: exit %d, stderr %q", out.code, out.stderr)
	}
}

// A misspelt event stops a run (hooks meant to guard must not silently
// go), naming the event meant; --no-hooks always runs, whatever is wrong
// in the hooks files, even one that does not parse.
func TestMisspeltHookEventSaysWhatWasMeantAndNoHooksRuns(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t)
	e.hooks("hooks:\n  PostToolUs:\n    - hooks: [{type: command, command: \"true\"}]\n")
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "hi"}, dir: e.dir, home: e.home, host: e.model.URL})
	if out.code != 2 || !strings.Contains(out.stderr, `"PostToolUs" is not a hook event: did you mean "PostToolUse"?`) {
		t.Errorf("misspelt event: exit %d, stderr %q", out.code, out.stderr)
	}
	for _, hooks := range []string{"hooks:\n  PostToolUs:\n    - hooks: [{type: command, command: \"true\"}]\n", "hooks:\n  PostToolUse: [\n"} {
		e.hooks(hooks)
		for _, inv := range []invocation{
			{args: []string{"--no-hooks", "-m", "tiny", "-p", "hi"}},
			{args: []string{"-m", "tiny", "-p", "hi"}, env: []string{"MCPHOST_NO_HOOKS=1"}},
			{args: []string{"--no-hooks", "servers"}},
		} {
			inv.dir, inv.home, inv.host = e.dir, e.home, e.model.URL
			e.model.Enqueue(ollamatest.Reply{Content: "fine"})
			out := runBinary(t, inv)
			if out.code != 0 {
				t.Errorf("%v %v with hooks file %q: exit %d, stderr %q", inv.env, inv.args, hooks, out.code, out.stderr)
			}
		}
	}
}
