// Command mcphost lets a local model served by Ollama use the tools of any
// MCP server: it answers one-shot and piped prompts, and opens a chat when
// run in a terminal without a prompt.
//
// main only wires the parts together: flags and config (config), the model
// backend (provider/ollama), the MCP servers (servers), the agent loop
// (runner) and the terminal output (ui); then it maps the outcome to an
// exit code.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"syscall"

	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/runner"
	"github.com/mcphost/mcphost/script"
	"github.com/mcphost/mcphost/secret"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// Exit codes, documented in README.md and --help.
const (
	exitOK          = 0
	exitError       = 1   // unexpected error
	exitUsage       = 2   // usage or config error
	exitProvider    = 3   // model/provider error: Ollama unreachable, model missing
	exitStopped     = 4   // stopped at --max-steps or by the loop guard
	exitNoServers   = 5   // no MCP server could start while some were configured
	exitInterrupted = 130 // Ctrl-C, SIGTERM, SIGHUP
)

const usageHeader = `mcphost lets a local model served by Ollama use the tools of MCP servers.

Usage:
  mcphost -m ollama:MODEL -p "PROMPT"       answer one prompt and exit
  COMMAND | mcphost -m ollama:MODEL          piped input is the prompt
  COMMAND | mcphost -m ollama:MODEL -p "…"   piped input is context for the prompt

Commands:
  mcphost script FILE [--args:NAME VALUE]   run a script file: YAML front matter, then the prompt
  mcphost servers                           start every MCP server; show state, tools, token cost
  mcphost tools list [SERVER]               show the tools, their descriptions and arguments
  mcphost tools call TOOL [JSON-ARGS | -]   call one tool without a model and print its result
  servers and tools take --url URL or --stdio "COMMAND" for a server that is not in the config.

MCP servers come from the "mcpServers" object of --config FILE, or else of
./.mcphost.yml|.yaml|.json, ./.mcp.json, ~/.mcphost.yml|.yaml|.json and
~/.mcp.json (Claude Desktop/Code and mcphost formats). When none of them
defines mcpServers, the built-in fs server serves the current directory.
Tools that may change things need approval: allow them with --allow-tool.

Flags:
`

const usageFooter = `
Environment:
  OLLAMA_HOST        Ollama's address (default http://127.0.0.1:11434)
  MCPHOST_*          any flag, e.g. MCPHOST_MODEL, MCPHOST_MAX_STEPS

Exit codes:
  0    answered
  1    unexpected error
  2    usage or config error
  3    model/provider error (Ollama unreachable, model missing)
  4    stopped at --max-steps or by the loop guard (after a final answer)
  5    no MCP server could start while some were configured
       (mcphost servers: one of them could not)
  6    mcphost tools call: the tool reported an error, or the server refused the call
  130  interrupted (Ctrl-C, SIGTERM, SIGHUP)
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main with its inputs and outputs passed in, returning the exit code.
func run(args []string, stdin *os.File, stdout, stderr *os.File) int {
	fs := pflag.NewFlagSet("mcphost", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	config.RegisterFlags(fs)
	showVersion := fs.Bool("version", false, "print the version and exit")
	adhoc := registerAdhocFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(stdout, usageHeader+fs.FlagUsages()+usageFooter)
	}
	// A script's --args:NAME VALUE are not flags: take them out first.
	args, scriptVars, err := script.TakeArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "mcphost: %v\n", err)
		return exitUsage
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fs.Usage()
			return exitOK
		}
		fmt.Fprintf(stderr, "mcphost: %v (see mcphost --help)\n", err)
		return exitUsage
	}
	if *showVersion {
		fmt.Fprintln(stdout, "mcphost", version)
		return exitOK
	}
	switch fs.Arg(0) {
	case "servers", "tools":
		return runInspect(fs, adhoc, stdin, stdout, stderr)
	case "script":
		return runScript(fs, scriptVars, stdin, stdout, stderr)
	case "":
	default:
		fmt.Fprintf(stderr, "mcphost: unexpected argument %q: give the prompt with -p \"…\" or on stdin, or a command: servers, tools, script (see mcphost --help)\n", fs.Arg(0))
		return exitUsage
	}
	if len(scriptVars) > 0 || adhoc.given() {
		fmt.Fprintln(stderr, "mcphost: --args:NAME goes with mcphost script FILE, --url and --stdio with mcphost servers and mcphost tools (see mcphost --help)")
		return exitUsage
	}

	settings, err := config.Load(config.LoadOptions{Flags: fs})
	if err != nil {
		fmt.Fprintf(stderr, "mcphost: %v\n", err)
		return exitUsage
	}
	logger := newLogger(stderr, settings.Debug, secret.FromServers(settings.Servers))
	defer logResources(logger)
	logConfigFiles(logger, settings)

	prompt, err := readPrompt(settings.Prompt, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "mcphost: %v\n", err)
		return exitUsage
	}
	return answer(settings, logger, prompt, stdin, stdout, stderr,
		`no prompt: give one with -p "…" or on stdin, or run mcphost in a terminal for a chat`)
}

// answer answers prompt once, or, without one, opens the chat when there
// is a terminal to chat in; otherwise noPrompt is the usage error.
func answer(settings *config.Settings, logger *slog.Logger, prompt string, stdin, stdout, stderr *os.File, noPrompt string) int {
	if prompt != "" {
		return runOneShot(settings, logger, prompt, stdout, stderr)
	}
	if isTerminal(stdin) && isTerminal(stdout) {
		return runChat(settings, logger, stdin, stdout, stderr)
	}
	fmt.Fprintf(stderr, "mcphost: %s\n", noPrompt)
	return exitUsage
}

// reportExit prints err (if any) as one line on stderr and returns the exit
// code it stands for.
func reportExit(stderr io.Writer, ctx context.Context, err error) int {
	if err == nil {
		return exitOK
	}
	code := exitCode(ctx, err)
	if code == exitInterrupted {
		fmt.Fprintln(stderr, "mcphost: interrupted")
	} else {
		fmt.Fprintf(stderr, "mcphost: %s\n", errorText(err))
	}
	return code
}

// exitCode maps an error to the documented exit codes.
func exitCode(ctx context.Context, err error) int {
	var ee *codedError
	switch {
	case err == nil:
		return exitOK
	case ctx.Err() != nil || errors.Is(err, context.Canceled):
		return exitInterrupted
	case errors.As(err, &ee):
		return ee.code
	case errors.Is(err, runner.ErrMaxSteps):
		return exitStopped
	case errors.Is(err, provider.ErrModelNotFound), errors.Is(err, provider.ErrUnreachable), errors.Is(err, provider.ErrProvider):
		return exitProvider
	default:
		return exitError
	}
}

// codedError is an error that already knows its exit code.
type codedError struct {
	code int
	err  error
}

func (e *codedError) Error() string { return e.err.Error() }
func (e *codedError) Unwrap() error { return e.err }

// readPrompt combines -p with piped stdin: stdin alone is the prompt; with
// -p it is attached to the prompt as context.
func readPrompt(flagPrompt string, stdin *os.File) (string, error) {
	if !isPipedInput(stdin) {
		return strings.TrimSpace(flagPrompt), nil
	}
	data, err := io.ReadAll(stdin)
	if err != nil {
		return "", fmt.Errorf("reading the prompt from stdin: %w", err)
	}
	piped := strings.TrimSpace(string(data))
	flagPrompt = strings.TrimSpace(flagPrompt)
	switch {
	case piped == "":
		return flagPrompt, nil
	case flagPrompt == "":
		return piped, nil
	default:
		return flagPrompt + "\n\n" + piped, nil
	}
}

// isPipedInput is true for a pipe or a redirected file, and false for a
// terminal or /dev/null, so a script that leaves stdin alone is not blocked.
func isPipedInput(f *os.File) bool {
	st, err := f.Stat()
	if err != nil {
		return false
	}
	return st.Mode()&os.ModeNamedPipe != 0 || st.Mode().IsRegular()
}

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

func terminalWidth(f *os.File) int {
	if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
		return w
	}
	return 80
}

// errorText is the message of err for the user: provider errors are already
// worded; anything else is shown as is, on one line.
func errorText(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", " ")
}

// newLogger is the log on w: warnings, and with --debug everything. mask
// keeps the config's header and env values out of it.
func newLogger(w io.Writer, debug bool, mask *secret.Masker) *slog.Logger {
	level := slog.LevelWarn
	if debug {
		level = slog.LevelDebug
	}
	return slog.New(mask.Handler(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})))
}

// logConfigFiles writes the config files that were read to the --debug log.
func logConfigFiles(l *slog.Logger, settings *config.Settings) {
	for _, f := range settings.Files {
		l.Debug("config file read", "file", f)
	}
}

// logResources writes mcphost's own peak memory to the --debug log; the
// benchmarks read it, since a parent's view of the process includes the
// servers it reaped.
func logResources(l *slog.Logger) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		l.Debug("exiting", "peak_rss_kb", ru.Maxrss)
	}
}

// logEvent writes the run's events to the --debug log.
func logEvent(l *slog.Logger, ev runner.Event) {
	if !l.Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	switch ev := ev.(type) {
	case runner.ModelCallStarted:
		l.Debug("model call", "step", ev.Step, "tools", ev.Tools, "estimated_tokens", ev.EstimatedTokens, "num_ctx", ev.ContextWindow)
	case runner.ModelCallFinished:
		l.Debug("model answered", "step", ev.Step, "tool_calls", ev.ToolCalls, "recovered_from_text", ev.Recovered,
			"prompt_tokens", ev.Usage.PromptTokens, "completion_tokens", ev.Usage.CompletionTokens, "duration", ev.Usage.Duration)
	case runner.ToolCallStarted:
		l.Debug("tool call", "name", ev.Call.Name, "server", ev.Server, "tool", ev.Tool, "requested", ev.Requested, "recovered", ev.Recovered)
	case runner.ToolCallFinished:
		l.Debug("tool result", "name", ev.Call.Name, "error", ev.IsError, "rejected", ev.Rejected, "duration", ev.Duration, "bytes", len(ev.Output))
	case runner.ToolCallRepaired:
		l.Debug("tool call repaired", "name", ev.Call.Name, "repairs", strings.Join(ev.Repairs, "; "), "repaired_calls", ev.Total)
	case runner.ToolCallRejected:
		l.Debug("tool call rejected", "name", ev.Call.Name, "reason", ev.Reason, "rejected_calls", ev.Total)
	case runner.HistoryTrimmed:
		l.Debug("history trimmed", "dropped_messages", ev.Dropped, "kept_messages", ev.Kept,
			"estimated_tokens", ev.EstimatedTokens, "budget_tokens", ev.ContextWindow, "fits", ev.Fits)
	case runner.FinalAnswerRequested:
		l.Debug("asking for a final answer without tools", "reason", ev.Reason)
	}
}
