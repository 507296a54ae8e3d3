package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestHelpShowsTheChatAndEachCommand checks that --help tells how to open
// the chat, that "mcphost help [COMMAND]" prints what --help prints, and
// that an unknown command names the real ones.
func TestHelpShowsTheChatAndEachCommand(t *testing.T) {
	t.Parallel()
	full := runBinary(t, invocation{args: []string{"--help"}})
	for _, want := range []string{"without -p: a chat", "Ctrl-D quits", "/help lists the", "/model", "mcphost help [COMMAND]"} {
		if !strings.Contains(full.stdout, want) {
			t.Errorf("--help lacks %q", want)
		}
	}
	if out := runBinary(t, invocation{args: []string{"help"}}); out.code != 0 || out.stdout != full.stdout {
		t.Errorf("mcphost help: exit %d, stdout differs from --help:\n%s", out.code, out.stdout)
	}

	for _, cmd := range []string{"servers", "tools", "script", "auth", "doctor"} {
		help := runBinary(t, invocation{args: []string{"help", cmd}})
		flag := runBinary(t, invocation{args: []string{cmd, "--help"}})
		if help.code != 0 || flag.code != 0 || help.stdout != flag.stdout {
			t.Errorf("help %s (exit %d) and %s --help (exit %d) differ:\n%s\n---\n%s", cmd, help.code, cmd, flag.code, help.stdout, flag.stdout)
		}
		if !strings.Contains(help.stdout, "  mcphost "+cmd+" ") || strings.Contains(help.stdout, "Exit codes:") {
			t.Errorf("help %s is not that command's help:\n%s", cmd, help.stdout)
		}
	}

	out := runBinary(t, invocation{args: []string{"help", "frob"}})
	if out.code != 2 || !strings.Contains(out.stderr, `unknown command "frob": the commands are servers, tools, prompts, resources, script, trust, hooks, models, doctor, eval, auth, help`) {
		t.Errorf("help frob: exit %d, stderr %q", out.code, out.stderr)
	}
}

// TestReportCommandsRefuseStreamJSON: the commands whose output is one
// report (not a model run's events) refuse --output stream-json with exit
// 2, say to use --output json with that command, and print nothing else.
func TestReportCommandsRefuseStreamJSON(t *testing.T) {
	t.Parallel()
	tasks, err := filepath.Abs("examples/eval/everything.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for name, args := range map[string][]string{
		"servers": {"servers"}, "tools": {"tools", "list"}, "prompts": {"prompts", "list"},
		"resources": {"resources", "list"}, "models": {"models"}, "doctor": {"doctor"},
		"eval": {"eval", tasks, "-m", "tiny"}, "auth": {"auth", "status"},
	} {
		out := runBinary(t, invocation{args: append(args, "--output", "stream-json"), host: "http://127.0.0.1:1"})
		want := "mcphost: --output stream-json is for model runs; use --output json with " + name + "\n"
		if out.code != 2 || out.stderr != want || out.stdout != "" {
			t.Errorf("mcphost %s --output stream-json: exit %d, stdout %q, stderr %q; want exit 2 and %q",
				strings.Join(args, " "), out.code, out.stdout, out.stderr, want)
		}
	}
}
