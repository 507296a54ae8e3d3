// Package cli is the mcphost command: it parses the command line, loads
// the configuration, picks a renderer and maps the outcome to an exit code.
// The work is done by package host; cli is one user of it.
package cli

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/configload"
	"github.com/mcphost/mcphost/internal/guard/hooks"
	"github.com/mcphost/mcphost/internal/session"
	"github.com/mcphost/mcphost/internal/sysproc"
	"github.com/mcphost/mcphost/internal/termtext"
	"github.com/mcphost/mcphost/internal/trust"
	"github.com/mcphost/mcphost/internal/ui"
	"github.com/mcphost/mcphost/internal/version"
)

// Exit codes, documented in README.md and --help.
const (
	exitOK          = 0
	exitError       = 1   // unexpected error
	exitUsage       = 2   // usage or config error
	exitProvider    = 3   // model/provider error: Ollama unreachable, model missing
	exitStopped     = 4   // stopped at --max-steps or by the loop guard
	exitNoServers   = 5   // no MCP server could start while some were configured
	exitToolFailed  = 6   // tools call: the tool reported an error, or the call failed
	exitInterrupted = 130 // Ctrl-C, SIGTERM, SIGHUP
	exitReaderGone  = 141 // the reader of stdout or stderr went away (128+SIGPIPE, as shells report it)
)

// usage is the --help text; the flags' own lines replace {{FLAGS}}.
//
//go:embed usage.txt
var usage string

// Main runs the mcphost command with the process's arguments and standard
// streams and returns the exit code; main passes it to os.Exit.
func Main() int {
	// Orphans that mcphost's servers and commands leave behind become its
	// own children (Linux), so that none outlives it unnoticed.
	_ = sysproc.BecomeSubreaper()
	// A closed pipe on stdout or stderr is an error to handle, not a
	// SIGPIPE that would kill mcphost before it ends its servers.
	defer sysproc.CatchBrokenPipe()()
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	sysproc.KillAdopted(ctx)
	cancel()
	return code
}

// run is main with its inputs and outputs passed in, returning the exit code.
func run(args []string, stdin, stdoutFile, stderrFile *os.File) (code int) {
	con, done := newConsole(stdin, stdoutFile, stderrFile)
	defer done()
	stdout, stderr := con.out, con.err
	defer func() {
		if r := recover(); r != nil {
			// One line, no stack: the deferred Close of every host has run
			// on the way here, so no server is left behind.
			fmt.Fprintf(stderr, "mcphost: internal error: %v\n", r)
			code = exitError
		}
		if con.readerGone() {
			code = exitReaderGone
		}
	}()
	usageErr := func(format string, a ...any) int {
		// Config errors quote files, which may come from anywhere.
		fmt.Fprintf(stderr, "mcphost: %s\n", termtext.Clean(fmt.Sprintf(format, a...)))
		return exitUsage
	}
	fs := pflag.NewFlagSet("mcphost", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	configload.RegisterFlags(fs)
	trust.RegisterFlags(fs)
	showVersion := fs.Bool("version", false, "print the version and exit")
	fs.Usage = func() {
		// "mcphost COMMAND --help" is that command's help; anything
		// else, the whole of it.
		text, err := helpText(fs, fs.Arg(0))
		if err != nil {
			text, _ = helpText(fs, "")
		}
		fmt.Fprint(stdout, text)
	}
	// A script's --args:NAME VALUE are not flags: take them out first.
	args, scriptVars, err := configload.TakeScriptArgs(args)
	if err != nil {
		return usageErr("%v", err)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitOK // pflag printed the help itself
		}
		return usageErr("%v (see mcphost --help)", err)
	}
	if *showVersion {
		fmt.Fprintln(stdout, version.Get())
		return exitOK
	}

	cmd := fs.Arg(0)
	load := configload.LoadOptions{Flags: fs}
	var inspect inspectCommand
	var auth authCommand
	switch cmd {
	case "models":
		if fs.NArg() > 1 {
			return usageErr("unexpected argument %q after models", fs.Arg(1))
		}
	case "auth":
		if auth, err = parseAuth(fs.Args()); err != nil {
			return usageErr("%v\n%s", err, authUsage)
		}
	case "servers", "tools", "prompts", "resources":
		if inspect, err = parseInspect(fs.Args()); err != nil {
			return usageErr("%v\n%s", err, inspectUsage)
		}
	case "script":
		switch {
		case fs.NArg() < 2:
			return usageErr("script needs a file: mcphost script FILE [--args:NAME VALUE ...]")
		case fs.NArg() > 2:
			return usageErr("unexpected argument %q after the script: give its variables as --args:NAME VALUE", fs.Arg(2))
		}
		load.ScriptPath, load.ScriptArgs = fs.Arg(1), scriptVars
	case "hooks":
		if fs.NArg() != 2 || (fs.Arg(1) != "list" && fs.Arg(1) != "validate") {
			return usageErr("usage: mcphost hooks list | mcphost hooks validate")
		}
	case "help":
		if fs.NArg() > 2 {
			return usageErr("unexpected argument %q: mcphost help [COMMAND]", fs.Arg(2))
		}
		text, err := helpText(fs, fs.Arg(1))
		if err != nil {
			return usageErr("%v", err)
		}
		fmt.Fprint(stdout, text)
		return exitOK
	case "trust", "":
	default:
		return usageErr("unexpected argument %q: give the prompt with -p \"…\" or on stdin, or a command: %s (see mcphost --help)", cmd, strings.Join(commandNames(), ", "))
	}
	adhoc := fs.Changed("url") || fs.Changed("stdio")
	if (len(scriptVars) > 0 && cmd != "script") || (adhoc && inspect.verb == "" && auth.verb == "") {
		return usageErr("--args:NAME goes with mcphost script FILE, --url and --stdio with mcphost servers, tools, prompts, resources and auth (see mcphost --help)")
	}
	if cmd == "trust" {
		if err := trust.Run(fs, load, stdin, stdout); err != nil {
			return usageErr("%v", err)
		}
		return exitOK
	}
	if trust.FlagsGiven(fs) {
		return usageErr("--yes, --list and --revoke go with mcphost trust (see mcphost --help)")
	}

	settings, err := configload.Load(load)
	if err != nil {
		if adhoc {
			return usageErr("%v\n%s", err, inspectUsage)
		}
		return usageErr("%v", err)
	}
	// A chat can ask about the project files it would leave out, before
	// anything starts; other runs leave them out with a warning.
	chatting := inspect.verb == "" && auth.verb == "" && cmd != "models" && strings.TrimSpace(settings.Prompt) == "" && settings.MCPPrompt == "" && ui.IsTerminal(stdin) && ui.IsTerminal(stdoutFile)
	if chatting && len(settings.Untrusted) > 0 {
		if settings, err = trust.Confirm(load, settings, stdin, stdout); err != nil {
			return usageErr("%v", err)
		}
	}
	logger := newLogger(stderr, settings.Debug)
	defer func() {
		// The benchmarks read mcphost's own peak memory: a parent's view
		// of the process includes the servers it reaped.
		if kib, ok := sysproc.PeakRSS(); ok {
			logger.Debug("exiting", "peak_rss_kb", kib)
		}
	}()
	for _, f := range settings.Files {
		logger.Debug("config file read", "file", f)
	}
	if settings.ScriptFile != "" {
		logger.Debug("script read", "file", settings.ScriptFile, "servers_from_script", settings.ScriptServers)
	}
	if inspect.verb != "" {
		return runInspect(con, inspect, settings, logger)
	}
	if cmd == "hooks" {
		return runHooks(fs.Arg(1), settings, stdout, stderr)
	}
	if cmd == "models" {
		return runModels(con, settings, logger)
	}
	if auth.verb != "" {
		return runAuth(con, auth, settings, adhoc, logger)
	}

	prompt, err := configload.ReadPrompt(settings.Prompt, stdin, settings.MaxStdinBytes)
	if err != nil {
		return usageErr("%v", err)
	}
	switch {
	case prompt != "" || settings.MCPPrompt != "":
		return runPrompt(con, settings, logger, prompt)
	case ui.IsTerminal(stdin) && ui.IsTerminal(stdoutFile):
		return runChat(con, settings, logger)
	case cmd == "script":
		return usageErr(`%s has no prompt: write it after the front matter or as "prompt:", give -p "…", or run the script in a terminal for a chat`, load.ScriptPath)
	}
	return usageErr(`no prompt: give one with -p "…" or on stdin, or run mcphost in a terminal for a chat`)
}

// options are the host options every command shares.
func options(settings *config.Settings, logger *slog.Logger, warn func(string)) host.Options {
	return host.Options{Settings: settings, Logger: logger, Warn: warn, MaskEvents: true, ClientVersion: version.Get().Version}
}

// reportExit prints err (if any) as one line on stderr and returns the exit
// code it stands for.
func reportExit(stderr io.Writer, ctx context.Context, err error) int {
	if err == nil {
		return exitOK
	}
	code := exitCode(ctx, err)
	if errors.Is(context.Cause(ctx), errReaderGone) {
		return exitReaderGone // nobody is there to read why
	}
	if code == exitInterrupted {
		fmt.Fprintln(stderr, "mcphost: interrupted")
	} else {
		fmt.Fprintf(stderr, "mcphost: %s\n", errorText(err))
	}
	return code
}

// stopSignals end a run: Ctrl-C, and the system's termination signals.
func stopSignals() []os.Signal { return append([]os.Signal{os.Interrupt}, sysproc.StopSignals()...) }

// exitCode maps an error to the documented exit codes.
func exitCode(ctx context.Context, err error) int {
	switch {
	case err == nil:
		return exitOK
	case ctx.Err() != nil || errors.Is(err, context.Canceled):
		return exitInterrupted
	case errors.Is(err, host.ErrConfig), errors.Is(err, session.ErrBusy), errors.Is(err, session.ErrInvalid), errors.Is(err, host.ErrPromptBlocked),
		errors.Is(err, host.ErrUnknownPrompt), errors.Is(err, host.ErrPromptArguments), errors.Is(err, host.ErrAttachment):
		return exitUsage
	case errors.Is(err, host.ErrMaxSteps):
		return exitStopped
	case errors.Is(err, host.ErrNoServers):
		return exitNoServers
	case errors.Is(err, host.ErrModelNotFound), errors.Is(err, host.ErrUnreachable), errors.Is(err, host.ErrProvider):
		return exitProvider
	default:
		return exitError
	}
}

// errorText is the message of err for the user, on one line, cleaned of
// escape sequences and control characters: errors quote the model
// endpoint's and servers' answers, which must not drive the terminal.
func errorText(err error) string {
	return termtext.Line(err.Error())
}

// newLogger is the log on w: warnings, and with --debug everything. The
// host masks the config's secrets in what it logs.
func newLogger(w io.Writer, debug bool) *slog.Logger {
	level := slog.LevelWarn
	if debug {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
}

// runHooks runs "mcphost hooks list" and "mcphost hooks validate": the
// config was loaded, so its hooks are well formed; validate also looks for
// each command's program and exits 2 when one is missing.
func runHooks(verb string, settings *config.Settings, stdout, stderr io.Writer) int {
	if settings.NoHooks {
		fmt.Fprintln(stderr, "mcphost: --no-hooks is set: no hook would run")
	}
	// A misspelt matcher makes a hook run for every tool: say so here too.
	for _, msg := range settings.Warnings {
		ui.Warn(stderr, msg)
	}
	if verb == "list" {
		ui.HookList(stdout, settings.Hooks)
		return exitOK
	}
	if !ui.HookCheck(stdout, stderr, settings.Hooks, hooks.Check(settings.Hooks)) {
		return exitUsage
	}
	return exitOK
}
