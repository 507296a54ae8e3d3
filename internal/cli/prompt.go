package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/chat"
	"github.com/mcphost/mcphost/internal/session"
	"github.com/mcphost/mcphost/internal/ui"
	"github.com/mcphost/mcphost/internal/version"
	"github.com/mcphost/mcphost/provider"
)

// runPrompt answers one prompt and returns the exit code. The answer goes
// to stdout as text (Markdown on a terminal) or, with --output json or
// stream-json, as JSON; tool activity and warnings go to stderr.
func runPrompt(con *console, settings *config.Settings, logger *slog.Logger, prompt string) int {
	ctx, stop := signal.NotifyContext(con.ctx, stopSignals()...)
	defer stop()
	stderr := con.err
	// Keys typed while the answer is drawn would be echoed into it; they
	// wait, unechoed, for the shell. The signals that end the run (Ctrl-C,
	// SIGTERM, SIGHUP) cancel ctx, so this restore runs on those exits
	// too. Only when the answer goes to the terminal: a pager reading the
	// same terminal (mcphost -p … | less) sets modes of its own.
	if ui.IsTerminal(con.in) && ui.IsTerminal(con.out.f) {
		defer chat.EchoOff(con.in)()
	}

	r := newRenderer(settings, con.out, con.err)
	// fail ends a run that failed before the model was called; a JSON
	// run still prints its final object.
	fail := func(err error) int {
		code := reportExit(stderr, ctx, err)
		r.Finish(host.Result{}, err, code)
		return code
	}
	// The session file is held for the whole run: runs that share it take
	// turns, each continuing from the one before.
	held, err := holdSession(ctx, settings, stderr)
	if err != nil {
		return fail(err)
	}
	if held != nil {
		defer held.Release()
	}
	opts := options(settings, logger, r.Warn)
	opts.Asker = runAsker(stderr.f, r.Warn)
	stopStartup, pullDone := showStart(settings, stderr, &opts)
	defer stopStartup()
	h, err := host.New(ctx, opts)
	stopStartup()
	pullDone()
	if err != nil {
		return fail(err)
	}
	defer h.Close()
	var tools []string
	for _, t := range h.Tools() {
		tools = append(tools, t.Name)
	}
	r.Start(ui.ServerRecords(h.Servers(), h.Mask), tools)

	conv := h.Conversation()
	if held != nil {
		if err := loadSession(held, conv); err != nil {
			return fail(err)
		}
	}
	res, err := promptTurn(ctx, conv, settings, prompt, r.Handle)
	if held != nil {
		// The run is appended even when it failed: the conversation up to
		// the failure is what the next run continues from.
		if serr := held.Save(conv.Model().Name, conv.History()); serr != nil && err == nil {
			err = serr
		}
	}
	code := exitCode(ctx, err)
	if err == nil && res.Empty {
		// Said by a warning already; the code lets a script tell an
		// empty answer from one it can use.
		code = exitEmpty
	}
	r.Finish(res, err, code)
	if err == nil {
		return code
	}
	return reportExit(stderr, ctx, err)
}

// showStart has opts show a one-shot run's start on stderr: the pull's
// progress bar on a terminal (piped, the pull is quiet), else the
// servers' start as it goes, rather than a blank terminal until the
// model is called. The two functions end each.
func showStart(settings *config.Settings, stderr *pipeGuard, opts *host.Options) (stopStartup, pullDone func()) {
	stopStartup, pullDone = func() {}, func() {}
	if settings.Pull && !settings.Quiet && ui.IsTerminal(stderr.f) {
		opts.PullProgress, pullDone = ui.PullProgress(stderr, settings.Model)
	}
	if opts.PullProgress == nil && !settings.Quiet && settings.Output == config.OutputText {
		startup := newStartup(stderr.f)
		stopStartup = startup.Stop
		opts.OnStart = startup.Handle
		warn := opts.Warn
		opts.Warn = func(msg string) { startup.Interrupt(func() { warn(msg) }) }
	}
	return stopStartup, pullDone
}

// promptTurn runs the turn of a one-shot run: the --mcp-prompt's
// messages (then the prompt, if any), or the prompt with the files and
// resources it names as @path and @SERVER:URI attached.
//
// Only -p (or the script's prompt) attaches: piped input is data, and
// must neither send the user's files to the model nor have a server's
// resources read.
func promptTurn(ctx context.Context, conv *host.Conversation, settings *config.Settings, prompt string, on func(host.Event)) (host.Result, error) {
	typed := strings.TrimSpace(settings.Prompt)
	if settings.MCPPrompt != "" {
		return conv.RunPromptFiles(ctx, settings.MCPPrompt, settings.PromptArgs, prompt, typed, on)
	}
	msg, _, err := conv.UserMessageFiles(ctx, prompt, typed)
	if err != nil {
		return host.Result{}, err
	}
	return conv.PromptMessages(ctx, []provider.Message{msg}, on)
}

// newRenderer picks the renderer of --output.
func newRenderer(settings *config.Settings, stdout, stderr *pipeGuard) ui.Renderer {
	if settings.Output == config.OutputText {
		outTTY := ui.IsTerminal(stdout.f)
		noColor := os.Getenv("NO_COLOR") != ""
		opts := ui.TextOptions{
			Out: stdout, Err: stderr,
			OutTTY: outTTY, ErrTTY: ui.IsTerminal(stderr.f),
			Width: ui.Width(stdout.f), NoColor: noColor,
			// Asked at every redraw of the answer, so a resize mid-answer
			// is followed.
			Size:  func() (int, int) { return ui.Size(stdout.f) },
			Quiet: settings.Quiet, HideThinking: settings.HideThinking,
		}
		if outTTY && !noColor {
			// Keys typed before the run answered the query are not kept:
			// a one-shot run reads none.
			opts.Theme, _ = terminalTheme(settings)
		}
		return ui.NewText(opts)
	}
	return ui.NewJSON(ui.JSONOptions{Out: stdout, Stream: settings.Output == config.OutputStreamJSON,
		Model: settings.Model, Err: stderr, Quiet: settings.Quiet, Version: version.Get()})
}

// holdSession takes the --session file for this run, if one is given,
// saying once on stderr when it waits for another run.
func holdSession(ctx context.Context, settings *config.Settings, stderr io.Writer) (*session.Lock, error) {
	if settings.Session == "" {
		return nil, nil
	}
	return session.Acquire(ctx, settings.Session, session.LockOptions{Wait: settings.SessionWait, OnWait: func(holder string) {
		fmt.Fprintf(stderr, "mcphost: %s is in use by %s; waiting for it (--session-wait bounds the wait)\n", settings.Session, holder)
	}})
}

// loadSession continues the conversation saved in the held file, if it
// exists.
func loadSession(held *session.Lock, conv *host.Conversation) error {
	f, err := held.Load()
	switch {
	case err == nil:
		conv.SetHistory(f.Messages)
	case !errors.Is(err, session.ErrNotExist):
		return err
	}
	return nil
}

// terminalTheme decides the colours of rendered Markdown once: --theme,
// else COLORFGBG, else one question to the terminal that gives up after
// ui.QueryTimeout.
func terminalTheme(settings *config.Settings) (theme ui.Theme, typed []byte) {
	theme = ui.ResolveTheme(settings.Theme, os.Getenv, func() (ui.Theme, bool) {
		t, ok, keys := ui.QueryBackground(ui.QueryTimeout)
		typed = keys
		return t, ok
	})
	return theme, typed
}
