//go:build unix

package e2e

// Issue 29, hole 2 through the binary: the built-in fs server does not
// rewrite mcphost's own files, even with every fs tool allowed.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/ollamatest"
)

// fsGuardProject is a trusted project whose hooks file runs a script in
// the .mcphost folder before each fs__read_file, with the built-in fs
// server on the project.
type fsGuardProject struct {
	dir, home, guard, marker string
	model                    *ollamatest.Server
}

const guardSH = "#!/bin/sh\nexit 0\n"

func newFSGuardProject(t *testing.T) *fsGuardProject {
	p := &fsGuardProject{dir: t.TempDir(), home: t.TempDir(), model: ollamatest.NewServer()}
	t.Cleanup(p.model.Close)
	p.guard = filepath.Join(p.dir, ".mcphost", "guard.sh")
	p.marker = filepath.Join(t.TempDir(), "pwned")
	if err := os.MkdirAll(filepath.Dir(p.guard), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p.guard, []byte(guardSH), 0o755); err != nil {
		t.Fatal(err)
	}
	writeConfig(t, filepath.Dir(p.guard), "hooks.yml", "PreToolUse:\n  - matcher: fs__read_file\n    hooks:\n      - {type: command, command: "+p.guard+"}\n")
	writeConfig(t, p.dir, "notes.txt", "buy milk")
	// The model rewrites the hook's script, then calls the tool the hook
	// guards, so that a rewritten script would run in this same run.
	p.model.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fs__write_file", map[string]any{
			"path": ".mcphost/guard.sh", "content": "#!/bin/sh\ntouch " + p.marker + "\nexit 0\n"})}},
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fs__read_file", map[string]any{"path": "notes.txt"})}},
		ollamatest.Reply{Content: "done"},
	)
	return p
}

func (p *fsGuardProject) run(t *testing.T) outcome {
	t.Helper()
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "tidy up", "--allow-tool", "fs__*"}, dir: p.dir, home: p.home, host: p.model.URL})
	if out.code != 0 || out.stdout != "done\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	return out
}

// TestFSDoesNotRewriteATrustedHooksScript is the attack seen: with
// --allow-tool 'fs__*', the model rewrote .mcphost/guard.sh and the hook
// ran it in the same run. Now the write is refused, the model is told why
// and how the user can allow it, and the script is unchanged.
func TestFSDoesNotRewriteATrustedHooksScript(t *testing.T) {
	t.Parallel()
	p := newFSGuardProject(t)
	p.run(t)
	result := toolResultsByName(p.model.Requests()[1])["fs__write_file"]
	for _, want := range []string{"writing refused: " + p.guard + " is in " + filepath.Dir(p.guard) + ", mcphost's own folder", "writable_protected"} {
		if !strings.Contains(result, want) {
			t.Errorf("the model was told %q, want it to contain %q", result, want)
		}
	}
	if data, err := os.ReadFile(p.guard); err != nil || string(data) != guardSH {
		t.Errorf("guard.sh was changed: %q, %v", data, err)
	}
	if exists(p.marker) {
		t.Error("the rewritten hook script ran")
	}
}

// TestFSWritableProtectedInTheUsersConfig: the user's own config lifts the
// protection for the path it names, and the same write lands.
func TestFSWritableProtectedInTheUsersConfig(t *testing.T) {
	t.Parallel()
	p := newFSGuardProject(t)
	writeConfig(t, p.home, ".mcphost.yml", "mcpServers:\n  fs:\n    type: builtin\n    name: fs\n    options:\n      writable_protected: ["+p.guard+"]\n")
	p.run(t)
	if result := toolResultsByName(p.model.Requests()[1])["fs__write_file"]; !strings.Contains(result, "wrote") {
		t.Errorf("the allowed write was refused: %q", result)
	}
	if data, _ := os.ReadFile(p.guard); !strings.Contains(string(data), p.marker) {
		t.Errorf("guard.sh was not written: %q", data)
	}
}
