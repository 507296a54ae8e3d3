package cli

// mcphost's commands as one table: the dispatcher looks a command up in
// it, and --help's Commands section, "mcphost help COMMAND", "mcphost
// COMMAND --help", the usage printed with an error and the list of
// commands an unknown one gets are all made from it. What runs without a
// command (a prompt, piped input, the chat) is defaultCommand.

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/configload"
	"github.com/mcphost/mcphost/internal/trust"
	"github.com/mcphost/mcphost/internal/ui"
)

// command is one row of the table.
type command struct {
	// name is the word that selects it: mcphost NAME ...
	name string
	// usage is what --help and "mcphost help NAME" show: each form of
	// the command and what it does.
	usage []usageLine
	// takes are the flags, of those only some commands take, that this
	// one does; any other of them is a usage error.
	takes flagGroup
	// confirmsTrust: in a terminal, with no prompt, the folder's
	// untrusted config files are asked about before they are read, as
	// the chat does; otherwise they are left out with a warning.
	confirmsTrust bool
	// jsonOnly: its output is one report, so --output stream-json (the
	// events of a model run) is refused in favour of --output json.
	jsonOnly bool
	// parse reads the words after the name (the flags already taken
	// out) and returns what runs. An error wrapped in misuse is followed
	// by the command's usage lines.
	parse func(args []string) (action, error)
}

// usageLine is one form of a command and what it does, as --help shows
// them side by side; a summary's further lines go under its first.
type usageLine struct {
	synopsis string // "mcphost tools list [SERVER]"
	summary  string
}

// action is a command whose arguments were read: it runs, and returns the
// exit code.
type action func(inv *invocation) int

// flagGroup is a set of the flags only some commands take.
type flagGroup uint8

const (
	// flagsServer: --url and --stdio, one server instead of the config's.
	flagsServer flagGroup = 1 << iota
	// flagsScript: a script's --args:NAME VALUE.
	flagsScript
	// flagsTrust: --yes, --list and --revoke.
	flagsTrust
	// flagsIgnored: help, which prints the help whatever else is given.
	flagsIgnored
	// flagsEval: --min-pass and --parallel.
	flagsEval
)

// oneServerHelp is the line that "mcphost help COMMAND" adds for a
// command that takes --url and --stdio without saying so in its usage.
const oneServerHelp = `--url URL or --stdio "COMMAND": use that server instead of the config's`

// commands is the table, in the order errors list the commands and --help
// shows them.
func commands() []command {
	return []command{
		{name: "servers", jsonOnly: true, takes: flagsServer, parse: parseServers, usage: []usageLine{
			{"mcphost servers", "start every MCP server; show state, tools, token cost"},
		}},
		{name: "tools", jsonOnly: true, takes: flagsServer, parse: parseTools, usage: []usageLine{
			{"mcphost tools list [SERVER]", "show the tools, their descriptions and arguments"},
			{"mcphost tools call TOOL [JSON-ARGS | -]", "call one tool without a model and print its result"},
		}},
		{name: "prompts", jsonOnly: true, takes: flagsServer, parse: parseMCPInspect("prompts"), usage: []usageLine{
			{"mcphost prompts list [SERVER]", "show the servers' prompts and their arguments"},
			{"mcphost prompts get SERVER__PROMPT [NAME=VALUE ...]", "fill in a prompt and print its messages"},
		}},
		{name: "resources", jsonOnly: true, takes: flagsServer, parse: parseMCPInspect("resources"), usage: []usageLine{
			{"mcphost resources list [SERVER]", "show the servers' resources and URI templates"},
			{"mcphost resources read [SERVER:]URI", "read one resource and print it"},
		}},
		{name: "script", takes: flagsScript, confirmsTrust: true, parse: parseScript, usage: []usageLine{
			{"mcphost script FILE [--args:NAME VALUE]", "run a script file: YAML front matter, then the prompt"},
		}},
		{name: "trust", takes: flagsTrust, parse: parseTrust, usage: []usageLine{
			{"mcphost trust", "show what this folder's config files would start and\nset, and trust them (asks; --yes does not)"},
			{"mcphost trust --list | --revoke [FILE]", "list the trusted files; stop trusting one"},
		}},
		// Asks about untrusted files as the chat does: that is how it
		// always was, and what it lists is what a chat would run.
		{name: "hooks", confirmsTrust: true, parse: parseHooks, usage: []usageLine{
			{"mcphost hooks list | validate", "show the hooks that would run; check them"},
		}},
		{name: "models", jsonOnly: true, parse: parseModels, usage: []usageLine{
			{"mcphost models", "the models every engine serves: size, tools, context"},
		}},
		{name: "doctor", jsonOnly: true, parse: parseDoctor, usage: []usageLine{
			{"mcphost doctor [-m MODEL]", "check the engine, the model's tool calling and thinking,\nand the servers; recommend what to change"},
		}},
		{name: "eval", jsonOnly: true, takes: flagsEval, parse: parseEval, usage: []usageLine{
			{"mcphost eval TASKS.yaml -m MODEL [-m MODEL ...]", "run each task of a task file on each model with the\nservers; report passed/runs, calls, steps, tokens, time;\nexit 1 when a model fails a task (--min-pass 0.8 of runs,\n--parallel N runs at once, --output json)"},
		}},
		{name: "auth", jsonOnly: true, takes: flagsServer, parse: parseAuthCommand, usage: []usageLine{
			{"mcphost auth login NAME", "sign in to a remote server that asks for it (OAuth): opens\nthe browser and keeps the token (--url URL: that server)"},
			{"mcphost auth status | logout NAME", "list the sign-ins; forget one"},
		}},
		{name: "help", takes: flagsIgnored, parse: parseHelp, usage: []usageLine{
			{"mcphost help [COMMAND]", "this help, or one command's (as mcphost COMMAND --help)"},
		}},
	}
}

// defaultCommand is what runs without a command: the prompt of -p or
// stdin, else the chat in a terminal. Its usage is the top of --help.
func defaultCommand() command {
	return command{confirmsTrust: true, parse: func(args []string) (action, error) {
		return func(inv *invocation) int { return inv.runModel("") }, nil
	}}
}

// lookup finds the command called name, "" being the default one.
func lookup(name string) (command, bool) {
	if name == "" {
		return defaultCommand(), true
	}
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// commandNames are mcphost's commands, in the order of the table.
func commandNames() []string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return names
}

// misuseError is a command line the command cannot read: its usage
// lines follow the error.
type misuseError struct{ err error }

func (e misuseError) Error() string { return e.err.Error() }
func (e misuseError) Unwrap() error { return e.err }

func misuse(err error) error { return misuseError{err} }

// invocation is one run of the command: its streams, its parsed flags and
// what the config will be loaded with.
type invocation struct {
	con        *console
	stdoutFile *os.File // the process's stdout: is it a terminal?
	fs         *pflag.FlagSet
	cmd        command
	load       configload.LoadOptions
	scriptVars map[string]string // a script's --args:NAME VALUE
	adhoc      bool              // --url or --stdio was given
	// loadErr is why the config could not be loaded, once withSettings
	// has failed on it.
	loadErr error
}

// usageErr prints a usage or config error and returns its exit code.
// Config errors quote files, which may come from anywhere.
func (inv *invocation) usageErr(format string, a ...any) int {
	return usageError(inv.con, format, a...)
}

// flagMisuse is the error for a flag given to a command that does not
// take it, "" when there is none.
func (inv *invocation) flagMisuse() string {
	takes := inv.cmd.takes
	if takes&flagsIgnored != 0 {
		return ""
	}
	if (len(inv.scriptVars) > 0 && takes&flagsScript == 0) || (inv.adhoc && takes&flagsServer == 0) {
		return "--args:NAME goes with mcphost script FILE, --url and --stdio with mcphost servers, tools, prompts, resources and auth (see mcphost --help)"
	}
	if evalFlagsGiven(inv.fs) && takes&flagsEval == 0 {
		return "--min-pass and --parallel go with mcphost eval (see mcphost --help)"
	}
	if trust.FlagsGiven(inv.fs) && takes&flagsTrust == 0 {
		return "--yes, --list and --revoke go with mcphost trust (see mcphost --help)"
	}
	return ""
}

// withSettingsReport is withSettings for a command whose --output json
// is one document on stdout whatever happens: a config that cannot be
// loaded is reported in it too (with --output json on the command line,
// the only place it can be read from then).
func (inv *invocation) withSettingsReport(do func(*config.Settings, *slog.Logger) int) int {
	code := inv.withSettings(do)
	if f := inv.fs.Lookup("output"); inv.loadErr != nil && f != nil && f.Value.String() == string(config.OutputJSON) {
		_ = ui.WriteJSON(inv.con.out, map[string]any{"error": errorText(inv.loadErr), "exit_code": code})
	}
	return code
}

// withSettings loads the config and runs do with it and the log.
func (inv *invocation) withSettings(do func(*config.Settings, *slog.Logger) int) int {
	con := inv.con
	settings, err := configload.Load(inv.load)
	if err != nil {
		inv.loadErr = err
		if inv.adhoc {
			return inv.usageErr("%v\n%s", err, usageHint(inv.cmd))
		}
		return inv.usageErr("%v", err)
	}
	if inv.cmd.jsonOnly && settings.Output == config.OutputStreamJSON {
		return inv.usageErr("--output stream-json is for model runs; use --output json with %s", inv.cmd.name)
	}
	// A chat can ask about the project files it would leave out, before
	// anything starts; other runs leave them out with a warning.
	if inv.cmd.confirmsTrust && len(settings.Untrusted) > 0 && inv.mayChat(settings) {
		if settings, err = trust.Confirm(inv.load, settings, con.in, con.out); err != nil {
			return inv.usageErr("%v", err)
		}
	}
	logger := newLogger(con.err, settings.Debug)
	defer logPeakRSS(logger)
	for _, f := range settings.Files {
		logger.Debug("config file read", "file", f)
	}
	if settings.ScriptFile != "" {
		logger.Debug("script read", "file", settings.ScriptFile, "servers_from_script", settings.ScriptServers)
	}
	return do(settings, logger)
}

// mayChat reports whether the run, given no prompt, opens the chat: both
// ends are a terminal.
func (inv *invocation) mayChat(settings *config.Settings) bool {
	return strings.TrimSpace(settings.Prompt) == "" && settings.MCPPrompt == "" && inv.terminal()
}

// terminal reports whether stdin and stdout are both a terminal.
func (inv *invocation) terminal() bool {
	return ui.IsTerminal(inv.con.in) && ui.IsTerminal(inv.stdoutFile)
}

// runModel answers the prompt (of -p, stdin or the script), or opens the
// chat in a terminal: the default command, and script's.
func (inv *invocation) runModel(script string) int {
	return inv.withSettings(func(settings *config.Settings, logger *slog.Logger) int {
		prompt, err := configload.ReadPrompt(settings.Prompt, inv.con.in, settings.MaxStdinBytes)
		if err != nil {
			return inv.usageErr("%v", err)
		}
		switch {
		case prompt != "" || settings.MCPPrompt != "":
			return runPrompt(inv.con, settings, logger, prompt)
		case inv.terminal():
			return runChat(inv.con, settings, logger)
		case script != "":
			return inv.usageErr(`%s has no prompt: write it after the front matter or as "prompt:", give -p "…", or run the script in a terminal for a chat`, script)
		}
		return inv.usageErr(`no prompt: give one with -p "…" or on stdin, or run mcphost in a terminal for a chat`)
	})
}

// parseScript reads "script FILE".
func parseScript(args []string) (action, error) {
	switch {
	case len(args) < 1:
		return nil, errors.New("script needs a file: mcphost script FILE [--args:NAME VALUE ...]")
	case len(args) > 1:
		return nil, fmt.Errorf("unexpected argument %q after the script: give its variables as --args:NAME VALUE", args[1])
	}
	return func(inv *invocation) int {
		inv.load.ScriptPath, inv.load.ScriptArgs = args[0], inv.scriptVars
		return inv.runModel(args[0])
	}, nil
}

// parseTrust reads "trust [--yes | --list | --revoke [FILE]]": trust
// reads its own arguments, and the config only as far as it needs.
func parseTrust([]string) (action, error) {
	return func(inv *invocation) int {
		if err := trust.Run(inv.fs, inv.load, inv.con.in, inv.con.out); err != nil {
			return inv.usageErr("%v", err)
		}
		return exitOK
	}, nil
}

// parseHooks reads "hooks list" and "hooks validate".
func parseHooks(args []string) (action, error) {
	if len(args) != 1 || (args[0] != "list" && args[0] != "validate") {
		return nil, errors.New("usage: mcphost hooks list | mcphost hooks validate")
	}
	return func(inv *invocation) int {
		return inv.withSettings(func(settings *config.Settings, _ *slog.Logger) int {
			return runHooks(args[0], settings, inv.con.out, inv.con.err)
		})
	}, nil
}

// parseModels reads "models".
func parseModels(args []string) (action, error) {
	if len(args) > 0 {
		return nil, fmt.Errorf("unexpected argument %q after models", args[0])
	}
	return func(inv *invocation) int {
		return inv.withSettings(func(settings *config.Settings, logger *slog.Logger) int {
			return runModels(inv.con, settings, logger)
		})
	}, nil
}

// parseHelp reads "help [COMMAND]".
func parseHelp(args []string) (action, error) {
	if len(args) > 1 {
		return nil, fmt.Errorf("unexpected argument %q: mcphost help [COMMAND]", args[1])
	}
	name := ""
	if len(args) == 1 {
		name = args[0]
	}
	return func(inv *invocation) int {
		text, err := helpText(inv.fs, name)
		if err != nil {
			return inv.usageErr("%v", err)
		}
		fmt.Fprint(inv.con.out, text)
		return exitOK
	}, nil
}
