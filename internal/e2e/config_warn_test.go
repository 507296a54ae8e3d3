package e2e

import (
	"strings"
	"testing"

	"github.com/mcphost/mcphost/ollamatest"
)

// TestMisspeltConfigKeysAreWarned checks that a misspelt key, which the
// config ignores, is named on stderr with the key probably meant, in a
// one-shot run and in mcphost servers.
func TestMisspeltConfigKeysAreWarned(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeConfig(t, dir, ".mcphost.yml", `modle: ollama:other
mcpServers:
  files:
    type: builtin
    name: fs
    excludeTools: [write_file]
`)
	wantKey := `warning: .mcphost.yml: server "files": unknown key "excludeTools" is ignored: did you mean "excludedTools"?`
	wantTop := `warning: .mcphost.yml: unknown key "modle" is ignored: did you mean "model"?`

	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "done"})
	out := runBinary(t, invocation{args: []string{"-m", "ollama:qwen3:8b", "-p", "hi"}, dir: dir, host: ollama.URL})
	if out.code != 0 || !strings.Contains(out.stderr, wantKey+"\n") || !strings.Contains(out.stderr, wantTop+"\n") {
		t.Errorf("one-shot: exit %d, stderr %q, want the two warnings", out.code, out.stderr)
	}

	out = runBinary(t, invocation{args: []string{"servers"}, dir: dir})
	if out.code != 0 || !strings.Contains(out.stderr, wantKey+"\n") || !strings.Contains(out.stdout, "files") {
		t.Errorf("servers: exit %d, stdout %q, stderr %q, want the table and the warning", out.code, out.stdout, out.stderr)
	}
}

// TestHooksValidateNamesAMisspeltMatcher: a rule whose "matcher" is
// misspelt runs for every tool, so mcphost hooks validate says so.
func TestHooksValidateNamesAMisspeltMatcher(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeConfig(t, dir, ".mcphost.yml", "hooks:\n  PreToolUse:\n    - matchr: fs__write_file\n      hooks: [{type: command, command: \"true\"}]\n")
	out := runBinary(t, invocation{args: []string{"hooks", "validate"}, dir: dir})
	want := `warning: .mcphost.yml: hooks: PreToolUse entry 1: unknown key "matchr" is ignored: did you mean "matcher"?`
	if !strings.Contains(out.stderr, want+"\n") {
		t.Errorf("hooks validate: exit %d, stderr %q, want %q", out.code, out.stderr, want)
	}
}
