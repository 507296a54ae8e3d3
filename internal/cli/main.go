// Package cli is the mcphost command: it parses the command line, loads
// the configuration, picks a renderer and maps the outcome to an exit code.
// Its commands are the table in commands.go, which the dispatcher and the
// help are made from. The work is done by package host; cli is one user
// of it.
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
	"github.com/mcphost/mcphost/internal/userdirs"
	"github.com/mcphost/mcphost/internal/version"
	"github.com/mcphost/mcphost/provider"
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
	exitEmpty       = 7   // the model's final answer was empty
	exitInterrupted = 130 // Ctrl-C, SIGTERM, SIGHUP
	exitReaderGone  = 141 // the reader of stdout or stderr went away (128+SIGPIPE, as shells report it)
)

// usage is the --help text around what is generated: the command table's
// usage lines replace {{COMMANDS}}, the flags' own lines {{FLAGS}}.
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

// run is main with its inputs and outputs passed in, returning the exit
// code: it reads the flags, looks the command up in the table, has it
// read its arguments, and runs it.
func run(args []string, stdin, stdoutFile, stderrFile *os.File) (code int) {
	con, done := newConsole(stdin, stdoutFile, stderrFile)
	defer done()
	defer func() {
		if r := recover(); r != nil {
			// One line, no stack: the deferred Close of every host has run
			// on the way here, so no server is left behind.
			fmt.Fprintf(con.err, "mcphost: internal error: %v\n", r)
			code = exitError
		}
		if con.readerGone() {
			code = exitReaderGone
		}
	}()
	inv, code, ok := parseFlags(con, stdoutFile, args)
	if !ok {
		return code
	}
	name := inv.fs.Arg(0)
	cmd, known := lookup(name)
	if !known {
		return inv.usageErr("unexpected argument %q: give the prompt with -p \"…\" or on stdin, or a command: %s (see mcphost --help)", name, strings.Join(commandNames(), ", "))
	}
	inv.cmd = cmd
	var rest []string
	if name != "" {
		rest = inv.fs.Args()[1:]
	}
	act, err := cmd.parse(rest)
	var badArgs misuseError
	switch {
	case errors.As(err, &badArgs):
		return inv.usageErr("%v\n%s", err, usageHint(cmd))
	case err != nil:
		return inv.usageErr("%v", err)
	}
	if msg := inv.flagMisuse(); msg != "" {
		return inv.usageErr("%s", msg)
	}
	return act(inv)
}

// parseFlags reads the flags, every command's and the script's
// --args:NAME VALUE, and answers --help and --version; ok is false when
// the run ends there, with code.
func parseFlags(con *console, stdoutFile *os.File, args []string) (inv *invocation, code int, ok bool) {
	fs := pflag.NewFlagSet("mcphost", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	configload.RegisterFlags(fs)
	trust.RegisterFlags(fs)
	registerEvalFlags(fs)
	showVersion := fs.Bool("version", false, "print the version and exit")
	fs.Usage = func() {
		// "mcphost COMMAND --help" is that command's help; anything
		// else, the whole of it.
		text, err := helpText(fs, fs.Arg(0))
		if err != nil {
			text, _ = helpText(fs, "")
		}
		fmt.Fprint(con.out, text)
	}
	// A script's --args:NAME VALUE are not flags: take them out first.
	args, scriptVars, err := configload.TakeScriptArgs(args)
	if err != nil {
		return nil, usageError(con, "%v", err), false
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil, exitOK, false // pflag printed the help itself
		}
		return nil, usageError(con, "%v (see mcphost --help)", err), false
	}
	if *showVersion {
		fmt.Fprintln(con.out, version.Get())
		return nil, exitOK, false
	}
	return &invocation{con: con, stdoutFile: stdoutFile, fs: fs, load: configload.LoadOptions{Flags: fs, DefaultServer: true}, // fs on the working directory when nothing is configured
		scriptVars: scriptVars, adhoc: fs.Changed("url") || fs.Changed("stdio")}, exitOK, true
}

// usageError prints a usage or config error and returns its exit code.
// Config errors quote files, which may come from anywhere.
func usageError(con *console, format string, a ...any) int {
	fmt.Fprintf(con.err, "mcphost: %s\n", termtext.Clean(fmt.Sprintf(format, a...)))
	return exitUsage
}

// logPeakRSS logs mcphost's own peak memory as it exits, for the
// benchmarks: a parent's view of the process includes the servers it
// reaped.
func logPeakRSS(logger *slog.Logger) {
	if kib, ok := sysproc.PeakRSS(); ok {
		logger.Debug("exiting", "peak_rss_kb", kib)
	}
}

// options are the host options every command shares: the command's
// settings, and the tool-list cache in the user's cache folder (a Host
// given its settings in code has none unless told where).
func options(settings *config.Settings, logger *slog.Logger, warn func(string)) host.Options {
	return host.Options{Config: settings, CacheDir: userdirs.Default().Cache,
		Logger: logger, Warn: warn, MaskEvents: true, ClientVersion: version.Get().Version}
}

// withServers is opts with only these servers (none when empty) and no
// model: for the commands that work on servers or engines, not on a
// conversation. The command's settings are left as they are.
func withServers(opts host.Options, specs []config.ServerSpec) host.Options {
	s := *opts.Config
	s.Servers = specs
	opts.Config, opts.ToolsOnly = &s, true
	return opts
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
		errors.Is(err, host.ErrUnknownPrompt), errors.Is(err, host.ErrPromptArguments), errors.Is(err, host.ErrAttachment),
		errors.Is(err, host.ErrPromptTooLarge):
		return exitUsage
	case errors.Is(err, host.ErrMaxSteps):
		return exitStopped
	case errors.Is(err, host.ErrNoServers):
		return exitNoServers
	case errors.Is(err, host.ErrModelNotFound), errors.Is(err, host.ErrUnreachable), errors.Is(err, host.ErrProvider),
		// The command's own errors about engines (no engine answered
		// "mcphost models") are the provider's.
		errors.Is(err, provider.ErrProvider), errors.Is(err, provider.ErrUnreachable), errors.Is(err, provider.ErrModelNotFound):
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
