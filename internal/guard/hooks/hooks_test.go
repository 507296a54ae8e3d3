//go:build unix

package hooks

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/guard/approval"
	"github.com/mcphost/mcphost/tool"
)

// runner runs cmd for event on every tool, and collects the warnings.
func runner(t *testing.T, event, cmd string) (*Runner, *[]string) {
	t.Helper()
	var mu sync.Mutex
	var warnings []string
	r := New(config.Hooks{event: {{Commands: []config.HookCommand{{Command: cmd, Timeout: 5 * time.Second}}}}},
		Options{Dir: t.TempDir(), Warn: func(s string) { mu.Lock(); warnings = append(warnings, s); mu.Unlock() }})
	return r, &warnings
}

func TestPreToolUseDialects(t *testing.T) {
	tests := map[string]struct{ decision, reason string }{
		`echo '{"decision": "block", "reason": "no"}'`: {approval.HookBlock, "no"},
		`echo '{"decision": "approve"}'`:               {approval.HookAllow, ""},
		`echo '{"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "x"}}'`: {approval.HookBlock, "x"},
		`echo '{"hookSpecificOutput": {"permissionDecision": "ask"}}'`:                                   {approval.HookAsk, ""},
		`echo '{"continue": false, "stopReason": "stop"}'`:                                               {approval.HookBlock, "stop"},
		`echo "why" >&2; exit 2`: {approval.HookBlock, "why"},
		`exit 0`:                 {"", ""},
	}
	for cmd, want := range tests {
		r, warnings := runner(t, config.HookPreToolUse, cmd)
		v := r.PreToolUse(context.Background(), ask.CallRequest{Name: "s__t", Arguments: map[string]any{"a": 1}})
		if v.Decision != want.decision || v.Reason != want.reason || len(v.Runs) != 1 || len(*warnings) != 0 {
			t.Errorf("%s: %+v, warnings %q; want %+v", cmd, v, *warnings, want)
		}
	}
}

func TestProblemsAreWarningsWithoutEffect(t *testing.T) {
	for cmd, want := range map[string]string{
		`echo '{not json'`: "not a JSON object",
		`exit 7`:           "failed (exit 7)",
		`sleep 30`:         "timed out",
	} {
		r := New(config.Hooks{config.HookPreToolUse: {{Commands: []config.HookCommand{{Command: cmd, Timeout: 300 * time.Millisecond}}}}},
			Options{Dir: t.TempDir()})
		var warned []string
		r.opts.Warn = func(s string) { warned = append(warned, s) }
		v := r.PreToolUse(context.Background(), ask.CallRequest{Name: "s__t"})
		if v.Decision != "" || len(warned) != 1 || !strings.Contains(warned[0], want) || v.Runs[0].Problem == "" {
			t.Errorf("%s: %+v, warnings %q", cmd, v, warned)
		}
	}
}

func TestPostToolUseReplacesTheResult(t *testing.T) {
	res := &tool.Result{Content: []tool.Content{{Kind: tool.Text, Text: "password=hunter2"}}}
	for cmd, want := range map[string]string{
		`echo '{"result": "[redacted]"}'`:            "[redacted]",
		`echo '{"modifyOutput": "{\"result\": 1}"}'`: `{"result": 1}`,
		`echo '{"result": {"n": 1}}'`:                `{"n": 1}`,
		`cat >/dev/null`:                             "password=hunter2",
	} {
		r, _ := runner(t, config.HookPostToolUse, cmd)
		got, runs := r.PostToolUse(context.Background(), approval.Record{Name: "s__t"}, res)
		if got.Text() != want || len(runs) != 1 {
			t.Errorf("%s: result %q, want %q", cmd, got.Text(), want)
		}
	}
}

func TestInputCarriesTheCall(t *testing.T) {
	r, _ := runner(t, config.HookPreToolUse, `cat; exit 0`)
	outs := r.run(context.Background(), config.HookPreToolUse, "s__t", input{ToolName: "s__t", ToolInput: map[string]any{"path": "a"}})
	for _, want := range []string{`"hook_event_name":"PreToolUse"`, `"tool_name":"s__t"`, `"tool_input":{"path":"a"}`, `"cwd":"`, `"session_id"`} {
		if !strings.Contains(outs[0].stdout, want) {
			t.Errorf("stdin lacks %s: %s", want, outs[0].stdout)
		}
	}
}

// TestProjectHooksCannotApprove: a project's hook (issue 29, hole 8) may
// block a call or ask about it, but its approve leaves the call to the
// user's policy; the user's own hook still approves.
func TestProjectHooksCannotApprove(t *testing.T) {
	for _, tt := range []struct {
		cmd     string
		project bool
		want    string
	}{
		{`echo '{"decision": "approve"}'`, true, ""},
		{`echo '{"hookSpecificOutput": {"permissionDecision": "allow"}}'`, true, ""},
		{`echo '{"decision": "approve"}'`, false, approval.HookAllow},
		{`echo '{"decision": "block", "reason": "no"}'`, true, approval.HookBlock},
		{`echo '{"hookSpecificOutput": {"permissionDecision": "ask"}}'`, true, approval.HookAsk},
	} {
		rule := config.HookRule{Project: tt.project, Commands: []config.HookCommand{{Command: tt.cmd, Timeout: 5 * time.Second}}}
		r := New(config.Hooks{config.HookPreToolUse: {rule}}, Options{Dir: t.TempDir()})
		v := r.PreToolUse(context.Background(), ask.CallRequest{Name: "s__t"})
		if v.Decision != tt.want {
			t.Errorf("%s (project %v): decision %q, want %q", tt.cmd, tt.project, v.Decision, tt.want)
		}
		if tt.project && tt.want == "" && (len(v.Runs) != 1 || !strings.Contains(v.Runs[0].Problem, "cannot")) {
			t.Errorf("%s: the ignored approve is not in the hook's record: %+v", tt.cmd, v.Runs)
		}
	}
}

// TestAProjectHookWhoseScriptChangedDoesNotRun: a project rule's script
// rewritten after it was trusted (during the run) is not run.
func TestAProjectHookWhoseScriptChangedDoesNotRun(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "guard.sh")
	if err := os.WriteFile(script, []byte("echo '{\"decision\": \"block\", \"reason\": \"guarded\"}'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, _ := fileHash(script)
	rule := config.HookRule{Project: true, Scripts: map[string]string{script: sum},
		Commands: []config.HookCommand{{Command: "sh " + script, Timeout: 5 * time.Second}}}
	var warned []string
	r := New(config.Hooks{config.HookPreToolUse: {rule}}, Options{Dir: dir, Warn: func(s string) { warned = append(warned, s) }})
	if v := r.PreToolUse(context.Background(), ask.CallRequest{Name: "s__t"}); v.Decision != approval.HookBlock {
		t.Fatalf("the trusted script: %+v", v)
	}
	marker := filepath.Join(dir, "ran")
	if err := os.WriteFile(script, []byte("touch "+marker+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	v := r.PreToolUse(context.Background(), ask.CallRequest{Name: "s__t"})
	if _, err := os.Stat(marker); err == nil || v.Decision != "" {
		t.Errorf("the changed script ran: %+v", v)
	}
	if len(warned) != 1 || !strings.Contains(warned[0], script) || !strings.Contains(warned[0], "mcphost trust") {
		t.Errorf("warnings %q", warned)
	}
}
