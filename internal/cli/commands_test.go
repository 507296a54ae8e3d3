package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs the command in-process with args, stdin empty, and returns
// its exit code and what it wrote on stdout and stderr.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	dir := t.TempDir()
	in, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	outPath, errPath := filepath.Join(dir, "stdout"), filepath.Join(dir, "stderr")
	out, err := os.Create(outPath)
	if err != nil {
		t.Fatal(err)
	}
	errf, err := os.Create(errPath)
	if err != nil {
		t.Fatal(err)
	}
	code = run(args, in, out, errf)
	out.Close()
	errf.Close()
	o, _ := os.ReadFile(outPath)
	e, _ := os.ReadFile(errPath)
	return code, string(o), string(e)
}

// TestEveryCommandHasItsHelp checks each row of the table: its usage says
// how it is called and what it does, and "mcphost help NAME" and "mcphost
// NAME --help" both print it, without the rest of --help.
func TestEveryCommandHasItsHelp(t *testing.T) {
	table := commands()
	if len(table) == 0 {
		t.Fatal("the command table is empty")
	}
	for _, c := range table {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "" || strings.ContainsAny(c.name, " \t") || c.parse == nil || len(c.usage) == 0 {
				t.Fatalf("incomplete row: name %q, %d usage lines, parse set: %v", c.name, len(c.usage), c.parse != nil)
			}
			code, help, stderr := runCLI(t, "help", c.name)
			if code != exitOK || stderr != "" {
				t.Fatalf("help %s: exit %d, stderr %q", c.name, code, stderr)
			}
			checkUsage(t, c, help)
			if c.name != "help" && (strings.Contains(help, "Exit codes:") || !strings.HasPrefix(help, "Usage:\n")) {
				t.Errorf("help %s is not that command's help:\n%s", c.name, help)
			}
			code, flag, _ := runCLI(t, c.name, "--help")
			if code != exitOK || flag != help {
				t.Errorf("%s --help (exit %d) differs from help %s:\n%s\n---\n%s", c.name, code, c.name, flag, help)
			}
		})
	}
}

// checkUsage checks that c's usage lines are forms of c that say what
// they do, and that its help shows them.
func checkUsage(t *testing.T, c command, help string) {
	t.Helper()
	for _, u := range c.usage {
		if u.synopsis != "mcphost "+c.name && !strings.HasPrefix(u.synopsis, "mcphost "+c.name+" ") {
			t.Errorf("usage %q is not a form of mcphost %s", u.synopsis, c.name)
		}
		if strings.TrimSpace(u.summary) == "" {
			t.Errorf("usage %q says nothing about what it does", u.synopsis)
		}
		for _, want := range append([]string{u.synopsis}, strings.Split(u.summary, "\n")...) {
			if !strings.Contains(help, want) {
				t.Errorf("help %s lacks %q:\n%s", c.name, want, help)
			}
		}
	}
}

// TestHelpListsTheTable checks that --help's Commands section is the
// table: every form of every command, in the table's order, and that
// "mcphost help" prints the same.
func TestHelpListsTheTable(t *testing.T) {
	code, full, _ := runCLI(t, "--help")
	if code != exitOK {
		t.Fatalf("--help: exit %d", code)
	}
	_, commandsPart, ok := strings.Cut(full, "\nCommands:\n")
	if !ok || strings.Contains(full, "{{") {
		t.Fatalf("--help has no Commands section, or a placeholder left:\n%s", full)
	}
	at := 0
	for _, c := range commands() {
		for _, u := range c.usage {
			i := strings.Index(commandsPart, "  "+u.synopsis)
			if i < at {
				t.Errorf("--help's Commands lack %q, or show it out of the table's order", u.synopsis)
				continue
			}
			at = i
		}
	}
	if !strings.Contains(commandsPart, "servers, tools, prompts and resources take --url URL or --stdio") {
		t.Errorf("--help does not say which commands take --url and --stdio:\n%s", commandsPart)
	}
	if code, help, _ := runCLI(t, "help"); code != exitOK || help != full {
		t.Errorf("mcphost help (exit %d) differs from --help", code)
	}
}

// TestUnknownCommandListsTheCommands checks the errors for a word that
// is no command: as the first word, and after help.
func TestUnknownCommandListsTheCommands(t *testing.T) {
	names := "servers, tools, prompts, resources, script, trust, hooks, models, doctor, eval, auth, help"
	code, _, stderr := runCLI(t, "frob")
	if want := `mcphost: unexpected argument "frob": give the prompt with -p "…" or on stdin, or a command: ` + names + " (see mcphost --help)\n"; code != exitUsage || stderr != want {
		t.Errorf("frob: exit %d, stderr %q, want %q", code, stderr, want)
	}
	code, _, stderr = runCLI(t, "help", "frob")
	if want := `mcphost: unknown command "frob": the commands are ` + names + " (mcphost help COMMAND)\n"; code != exitUsage || stderr != want {
		t.Errorf("help frob: exit %d, stderr %q, want %q", code, stderr, want)
	}
	// An unknown command's --help is the whole help.
	_, full, _ := runCLI(t, "--help")
	if code, out, _ := runCLI(t, "frob", "--help"); code != exitOK || out != full {
		t.Errorf("frob --help: exit %d, not the whole help", code)
	}
}

// TestBadArgumentsShowTheCommandsUsage checks that a command given wrong
// arguments says what is wrong and then how that command is called.
func TestBadArgumentsShowTheCommandsUsage(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"tools"}, "mcphost: tools needs list or call\nusage: mcphost tools list [SERVER]\n       mcphost tools call TOOL [JSON-ARGS | -]\n"},
		{[]string{"servers", "x"}, "mcphost: unexpected argument \"x\" after servers\nusage: mcphost servers\n"},
		{[]string{"prompts", "frob"}, "mcphost: unknown command prompts \"frob\": use prompts list or prompts get\nusage: mcphost prompts list [SERVER]\n       mcphost prompts get SERVER__PROMPT [NAME=VALUE ...]\n"},
		{[]string{"resources", "read"}, "mcphost: resources read needs the URI of a resource (see mcphost resources list)\nusage: mcphost resources list [SERVER]\n       mcphost resources read [SERVER:]URI\n"},
		{[]string{"auth", "frob"}, "mcphost: unknown command auth \"frob\": use auth login, auth status or auth logout\nusage: mcphost auth login NAME\n       mcphost auth status | logout NAME\n"},
		// These say how the command goes in the error itself.
		{[]string{"script"}, "mcphost: script needs a file: mcphost script FILE [--args:NAME VALUE ...]\n"},
		{[]string{"hooks", "frob"}, "mcphost: usage: mcphost hooks list | mcphost hooks validate\n"},
		{[]string{"models", "x"}, "mcphost: unexpected argument \"x\" after models\n"},
		{[]string{"help", "a", "b"}, "mcphost: unexpected argument \"b\": mcphost help [COMMAND]\n"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tt.args...)
			if code != exitUsage || stderr != tt.want || stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, stdout, stderr, tt.want)
			}
		})
	}
}

// TestFlagsOnlySomeCommandsTake checks that --url/--stdio, --args:NAME and
// the trust flags are refused with a command that does not take them,
// and that help takes anything.
func TestFlagsOnlySomeCommandsTake(t *testing.T) {
	const serverOrScript = "mcphost: --args:NAME goes with mcphost script FILE, --url and --stdio with mcphost servers, tools, prompts, resources and auth (see mcphost --help)\n"
	const trustOnly = "mcphost: --yes, --list and --revoke go with mcphost trust (see mcphost --help)\n"
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--url", "http://127.0.0.1:1", "models"}, serverOrScript},
		{[]string{"--stdio", "true", "hooks", "list"}, serverOrScript},
		{[]string{"--url", "http://127.0.0.1:1", "-p", "hi"}, serverOrScript},
		{[]string{"--args:name", "Ann", "tools", "list"}, serverOrScript},
		{[]string{"--args:name", "Ann", "trust", "--yes"}, serverOrScript},
		{[]string{"--yes", "models"}, trustOnly},
		{[]string{"--list", "servers"}, trustOnly},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			if code, _, stderr := runCLI(t, tt.args...); code != exitUsage || stderr != tt.want {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, stderr, tt.want)
			}
		})
	}
	for _, args := range [][]string{{"help", "--url", "http://x"}, {"--yes", "help"}, {"help", "tools", "--args:x", "y"}} {
		if code, stdout, stderr := runCLI(t, args...); code != exitOK || stderr != "" || !strings.Contains(stdout, "Usage:") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}

// TestHelpColumns checks the layout the table's rows are drawn in: a
// synopsis and its summary side by side, a long synopsis with its summary
// on the next line, further summary lines under the first.
func TestHelpColumns(t *testing.T) {
	var b strings.Builder
	writeUsage(&b, command{name: "x", usage: []usageLine{
		{"mcphost x", "does x\nand more"},
		{"mcphost x with a synopsis far too long for the column", "does the long x"},
	}})
	pad := strings.Repeat(" ", summaryColumn)
	want := "  mcphost x" + strings.Repeat(" ", summaryColumn-11) + "does x\n" + pad + "and more\n" +
		"  mcphost x with a synopsis far too long for the column\n" + pad + "does the long x\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
