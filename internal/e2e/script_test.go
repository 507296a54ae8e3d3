package e2e

// Script files, through the real binary: front matter, variables from
// --args, the environment and defaults, precedence, and the shebang form.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/ollamatest"
)

// jobScript has its own server, settings and a prompt with every kind of
// variable.
func jobScript(t *testing.T, shebang string) string {
	return shebang + fmt.Sprintf(`---
model: ollama:script-model
max-steps: 3
system-prompt: You are ${role:-a helper}.
mcpServers:
  tools:
    command: %q
---
Say ${greeting:-Hello} to ${name} from ${env://TEAM}.
`, mcptest.NPMBin(t, "mcp-server-everything"))
}

func TestScriptRunsWithFrontMatterAndVariables(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("tools__echo", map[string]any{"message": "hi"})}},
		ollamatest.Reply{Content: "Hello, Ann."},
	)
	dir := t.TempDir()
	// The config's own server must not be used: the script has its own.
	writeConfig(t, dir, ".mcp.json", `{"mcpServers": {"cfg": {"command": "definitely-not-a-command-mcphost"}}}`)
	path := writeConfig(t, dir, "job.sh", jobScript(t, ""))

	out := runBinary(t, invocation{args: []string{"script", path, "--args:name", "Ann", "--args:role=a poet"}, dir: dir,
		host: ollama.URL, env: []string{"TEAM=ops"}})
	if out.code != 0 || out.stdout != "Hello, Ann.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	req := ollama.Requests()[0]
	if req.Model != "script-model" || req.Messages[0].Role != "system" || req.Messages[0].Content != "You are a poet." {
		t.Errorf("model %q, first message %+v", req.Model, req.Messages[0])
	}
	if got := lastMessage(req).Content; got != "Say Hello to Ann from ops." {
		t.Errorf("prompt = %q", got)
	}
	if !hasTool(req, "tools__echo") || hasTool(req, "cfg__echo") {
		t.Errorf("tools offered: %d, want the script's server's", len(req.Tools))
	}
	if got := lastMessage(ollama.Requests()[1]).Content; got != "Echo: hi" {
		t.Errorf("tool result = %q", got)
	}
}

func TestScriptFlagsWinAndConfigServersStay(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	path := writeConfig(t, dir, "ask.md", "---\nmodel: script-model\nprompt: from the script\n---\n")

	out := runBinary(t, invocation{args: []string{"script", path, "-m", "flag-model"}, dir: dir, host: ollama.URL})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	out = runBinary(t, invocation{args: []string{"script", path, "-p", "from the flag"}, dir: dir, host: ollama.URL})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	reqs := ollama.Requests()
	if reqs[0].Model != "flag-model" || lastMessage(reqs[0]).Content != "from the script" {
		t.Errorf("with -m: model %q, prompt %q", reqs[0].Model, lastMessage(reqs[0]).Content)
	}
	if reqs[1].Model != "script-model" || lastMessage(reqs[1]).Content != "from the flag" {
		t.Errorf("with -p: model %q, prompt %q", reqs[1].Model, lastMessage(reqs[1]).Content)
	}
	if !hasTool(reqs[0], "everything__echo") {
		t.Error("a script without mcpServers did not get the config's servers")
	}
}

func TestScriptErrors(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	dir := t.TempDir()
	job := writeConfig(t, dir, "job.sh", jobScript(t, ""))
	empty := writeConfig(t, dir, "empty.sh", "---\nmodel: tiny\n---\n")
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"missing variables", []string{"script", job}, []string{"job.sh", "${name}", "${env://TEAM}", "--args:name VALUE", "export TEAM"}},
		{"misspelt argument", []string{"script", job, "--args:nmae", "Ann"}, []string{"--args:nmae is not used", "greeting, name, role"}},
		{"no file", []string{"script"}, []string{"script needs a file"}},
		{"missing file", []string{"script", filepath.Join(dir, "nope.sh")}, []string{"nope.sh", "cannot read the script"}},
		{"extra argument", []string{"script", job, "Ann"}, []string{`unexpected argument "Ann"`, "--args:NAME VALUE"}},
		{"empty prompt without a terminal", []string{"script", empty}, []string{"empty.sh has no prompt"}},
		{"args without a script", []string{"-m", "tiny", "-p", "hi", "--args:x", "1"}, []string{"--args:NAME goes with mcphost script"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := runBinary(t, invocation{args: tt.args, dir: dir, host: ollama.URL})
			if out.code != 2 {
				t.Errorf("exit %d, want 2 (stderr %q)", out.code, out.stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(out.stderr, w) {
					t.Errorf("stderr %q lacks %q", out.stderr, w)
				}
			}
		})
	}
	if n := ollama.RequestCount(); n != 0 {
		t.Errorf("the model was called %d times by scripts that should not run", n)
	}
}

// TestScriptShebang runs a script file as a program: the kernel runs
// "/usr/bin/env -S mcphost script FILE ARGS...", finding mcphost on PATH.
func TestScriptShebang(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/usr/bin/env"); err != nil {
		t.Fatalf("the shebang form needs /usr/bin/env: %v", err)
	}
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "Hello, Bo."})
	dir := t.TempDir()
	path := filepath.Join(dir, "greet")
	if err := os.WriteFile(path, []byte(jobScript(t, "#!/usr/bin/env -S mcphost script\n")), 0o755); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(path, "--args:name=Bo", "--args:greeting", "Hi")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(binary)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HOME="+t.TempDir(), "OLLAMA_HOST="+ollama.URL, "TEAM=dev")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	if err != nil || stdout.String() != "Hello, Bo.\n" {
		t.Fatalf("%v, stdout %q, stderr %q", err, stdout.String(), stderr.String())
	}
	if got := lastMessage(ollama.Requests()[0]).Content; got != "Say Hi to Bo from dev." {
		t.Errorf("prompt = %q", got)
	}
}

// TestUnexpectedErrorExitsOne: a failure that is no one's input, model or
// server (here the session file cannot be written after the answer) is
// exit 1, with the answer still printed.
func TestUnexpectedErrorExitsOne(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "answer"})
	file := filepath.Join(t.TempDir(), "gone", "s.json")

	// The session cannot be held (its directory is gone): the run fails
	// before it asks the model anything, so no answer is lost.
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "hi", "--session", file}, host: ollama.URL})
	if out.code != 1 || out.stdout != "" || !strings.Contains(out.stderr, "session "+file) || ollama.RequestCount() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %q, %d model requests", out.code, out.stdout, out.stderr, ollama.RequestCount())
	}
}
