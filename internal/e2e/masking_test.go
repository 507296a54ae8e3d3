package e2e

// End-to-end tests of what secret masking keeps and what it hides: the
// log shows what ran (an expansion such as token=$(cat key) is not a
// secret, nor is the word after "passwd:" in a sentence), a literal
// secret is masked in every output, tools call included; and the files
// mcphost writes are not written through a symbolic link planted in
// their place. docs/security.md states the rules.

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

// TestAuditLogShowsWhatRan has the model run a command that reads a key
// into a variable: the audit log, the tool line and the result show the
// command as it ran, while a literal password in another call and the
// config's own secret are masked everywhere.
func TestAuditLogShowsWhatRan(t *testing.T) {
	t.Parallel()
	const envSecret, literal = "env-token-a41c7e09", "lit-pass-8d1e55"
	command := `token=$(cat key) && test -n "$token" && echo "passwd: no such resource"`
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{
			ollamatest.Call("bash__run", map[string]any{"command": command}),
			ollamatest.Call("bash__run", map[string]any{"command": "echo password=" + literal + " " + envSecret}),
		}},
		ollamatest.Reply{Content: "done"},
	)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcphost.yml", fmt.Sprintf(`mcpServers:
  bash: {type: builtin, name: bash}
  vault:
    command: vault-mcp
    disabled: true
    env:
      SERVICE_TOKEN: %s
`, envSecret))
	writeConfig(t, dir, "key", "key-from-file-0b3d\n")
	auditPath := filepath.Join(dir, "audit.jsonl")
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "run it", "--allow-tool", "bash__*", "--audit", auditPath}, dir: dir, host: ollama.URL})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	data, err := os.ReadFile(auditPath)
	if err != nil {
		t.Fatal(err)
	}
	type entry struct {
		Arguments map[string]any
		Result    string
		OK        bool
	}
	var entries []entry
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for sc.Scan() {
		var e entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("audit line %q: %v", sc.Text(), err)
		}
		entries = append(entries, e)
	}
	if len(entries) != 2 {
		t.Fatalf("audit log has %d lines, want 2:\n%s", len(entries), data)
	}
	// The two calls ran at once: the one that read the key is the one
	// whose result says so.
	if strings.Contains(entries[0].Result, "password") {
		entries[0], entries[1] = entries[1], entries[0]
	}
	ran := entries[0]
	if !ran.OK || ran.Arguments["command"] != command || !strings.Contains(ran.Result, "passwd: no such resource") {
		t.Errorf("the audit log does not show what ran:\n got %q, result %q\nwant %q, result with \"passwd: no such resource\"", ran.Arguments["command"], ran.Result, command)
	}
	if !strings.Contains(out.stderr, "token=$(cat key)") {
		t.Errorf("the tool line does not show the command that ran: %q", out.stderr)
	}
	masked := entries[1]
	if got := fmt.Sprint(masked.Arguments["command"]); got != "echo password=*** ***" {
		t.Errorf("the literal password and the config's secret are not masked in the arguments: %q", got)
	}
	for name, s := range map[string]string{"literal password": literal, "config secret": envSecret} {
		if strings.Contains(string(data), s) || strings.Contains(out.stderr, s) || strings.Contains(out.stdout, s) {
			t.Errorf("the %s %q is in the output:\naudit %s\nstderr %s", name, s, data, out.stderr)
		}
	}
}

// TestToolsCallMasksWhatAServerEchoes calls a tool that answers with its
// environment, which holds the config's secret, and one that echoes a
// sentence with "passwd:" in it: the secret is masked in both the text
// and the JSON output, as in every other output, and the sentence is
// printed whole. prompts get, which also prints what a server sends, is
// masked too.
func TestToolsCallMasksWhatAServerEchoes(t *testing.T) {
	t.Parallel()
	const envSecret, plain = "env-token-5e0f2a9d", "plain-but-long-value-77"
	dir := t.TempDir()
	writeConfig(t, dir, ".mcphost.yml", fmt.Sprintf(`mcpServers:
  everything:
    command: %q
    env:
      SERVICE_TOKEN: %s
      SOME_SETTING: %s
`, mcptest.NPMBin(t, "mcp-server-everything"), envSecret, plain))

	for _, output := range []string{"text", "json"} {
		t.Run(output, func(t *testing.T) {
			out := runBinary(t, invocation{args: []string{"tools", "call", "everything__get-env", "--output", output}, dir: dir})
			if out.code != 0 || !strings.Contains(out.stdout, "SERVICE_TOKEN") {
				t.Fatalf("get-env: exit %d, stderr %q: the environment is not shown, so the test proves nothing", out.code, out.stderr)
			}
			for _, s := range []string{envSecret, plain} {
				// (The output is the machine's environment: not quoted.)
				if strings.Contains(out.stdout, s) || strings.Contains(out.stderr, s) {
					t.Errorf("tools call --output %s prints the config's secret %q", output, s)
				}
			}
			if output == "json" && !json.Valid([]byte(out.stdout)) {
				t.Errorf("the masked JSON output is not JSON: %q", out.stdout)
			}

			sentence := "passwd: no such resource; token=$(cat key)"
			args, _ := json.Marshal(map[string]string{"message": sentence})
			out = runBinary(t, invocation{args: []string{"tools", "call", "everything__echo", string(args), "--output", output}, dir: dir})
			want := sentence
			if output == "json" {
				b, _ := json.Marshal(sentence)
				want = strings.Trim(string(b), `"`)
			}
			if out.code != 0 || !strings.Contains(out.stdout, want) {
				t.Errorf("echo: exit %d, stdout %q, want it to hold %q unmasked", out.code, out.stdout, want)
			}

			// A prompt filled in with the secret echoes it too.
			out = runBinary(t, invocation{args: []string{"prompts", "get", "everything__args-prompt", "city=" + envSecret, "state=Texas", "--output", output}, dir: dir})
			if out.code != 0 || !strings.Contains(out.stdout, "What's weather in ***, Texas?") || strings.Contains(out.stdout, envSecret) {
				t.Errorf("prompts get: exit %d, stdout %q, want the secret masked", out.code, out.stdout)
			}
		})
	}
}

// TestALinkAsTheSessionLockIsRefused plants a symbolic link as the
// --session file's FILE.lock, pointing at a file of the user's: the run
// stops with an error naming the lock file and what to do, and the file
// the link points at keeps its content.
func TestALinkAsTheSessionLockIsRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	target := writeConfig(t, dir, "precious.txt", "keep me\n")
	session := filepath.Join(dir, "s.json")
	if err := os.Symlink(target, session+".lock"); err != nil {
		t.Skipf("cannot make a symbolic link here: %v", err)
	}
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "hello"})
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "hi", "--session", session}, dir: dir, host: ollama.URL})
	if out.code == 0 || !strings.Contains(out.stderr, session+".lock") || !strings.Contains(out.stderr, "symbolic link") || !strings.Contains(out.stderr, "delete the link") {
		t.Errorf("exit %d, stderr %q; want a failure naming %s.lock as a link and what to do", out.code, out.stderr, session)
	}
	if data, _ := os.ReadFile(target); string(data) != "keep me\n" {
		t.Errorf("the link's target was overwritten: %q", data)
	}
}

// TestALinkAsTheAuditLogIsRefused: the audit log's lines are not
// appended to the file a symbolic link in its place points at.
func TestALinkAsTheAuditLogIsRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	target := writeConfig(t, dir, "bashrc", "keep me\n")
	audit := filepath.Join(dir, "audit.jsonl")
	if err := os.Symlink(target, audit); err != nil {
		t.Skipf("cannot make a symbolic link here: %v", err)
	}
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "hello"})
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "hi", "--audit", audit}, dir: dir, host: ollama.URL})
	if out.code == 0 || !strings.Contains(out.stderr, audit) || !strings.Contains(out.stderr, "symbolic link") {
		t.Errorf("exit %d, stderr %q; want a failure naming %s as a link", out.code, out.stderr, audit)
	}
	if data, _ := os.ReadFile(target); string(data) != "keep me\n" {
		t.Errorf("the link's target was written: %q", data)
	}
}
