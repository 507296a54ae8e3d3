package main

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/runner"
	"github.com/mcphost/mcphost/servers"
	"github.com/mcphost/mcphost/session"
	"github.com/mcphost/mcphost/ui"
)

// runOneShot answers one prompt and returns the exit code. The answer goes
// to stdout as text (Markdown on a terminal) or, with --output json or
// stream-json, as JSON; tool activity and warnings go to stderr.
func runOneShot(settings *config.Settings, logger *slog.Logger, prompt string, stdout, stderr *os.File) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()

	var (
		jsonOut  *ui.JSON
		handle   func(runner.Event)
		warn     func(string)
		finished func(res runner.Result, err error, code int)
	)
	if settings.Output == config.OutputText {
		text := ui.NewOneShot(ui.OneShotOptions{
			Out: stdout, Err: stderr,
			OutTTY: isTerminal(stdout), ErrTTY: isTerminal(stderr),
			Width: terminalWidth(stdout), NoColor: os.Getenv("NO_COLOR") != "",
			Quiet: settings.Quiet, HideThinking: settings.HideThinking,
		})
		handle, warn = text.Handle, text.Warn
		finished = func(res runner.Result, _ error, _ int) { text.Finish(res.Answer) }
	} else {
		jsonOut = ui.NewJSON(stdout, settings.Output == config.OutputStreamJSON, settings.Model)
		handle = jsonOut.Handle
		warn = func(msg string) {
			jsonOut.Warn(msg)
			if !settings.Quiet {
				ui.Warn(stderr, msg) // for the person watching a JSON run
			}
		}
		finished = func(res runner.Result, err error, code int) {
			jsonOut.Finish(res.Answer, stopReason(err, code), res.Usage, err, code)
		}
	}

	// fail ends a run that failed before the model was called; a JSON
	// run still prints its final object.
	fail := func(err error) int {
		code := reportExit(stderr, ctx, err)
		finished(runner.Result{}, err, code)
		return code
	}
	a, err := startApp(ctx, settings, logger, warn)
	if a != nil {
		defer a.Close()
	}
	if err != nil {
		return fail(err)
	}
	if jsonOut != nil {
		jsonOut.Start(serverInfos(a.manager.Status()), toolNames(a.tools.Tools()))
	}
	if settings.Session != "" {
		if err := loadSession(a.runner, settings.Session); err != nil {
			return fail(&codedError{exitUsage, err})
		}
	}

	res, err := a.runner.Run(ctx, prompt, func(ev runner.Event) {
		logEvent(logger, ev)
		handle(a.maskEvent(ev))
	})
	if settings.Session != "" {
		// The run is appended even when it failed: the conversation up to
		// the failure is what the next run continues from.
		if serr := session.Save(settings.Session, a.runner.Model().Name, a.runner.History()); serr != nil && err == nil {
			err = serr
		}
	}
	code := exitCode(ctx, err)
	finished(res, err, code)
	return reportExit(stderr, ctx, err)
}

// loadSession continues the conversation saved in path, if it exists.
func loadSession(r *runner.Runner, path string) error {
	f, err := session.Load(path)
	if errors.Is(err, session.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	r.SetHistory(f.Messages)
	return nil
}

// stopReason names how a run ended, for the JSON output.
func stopReason(err error, code int) string {
	switch {
	case err == nil:
		return ui.StopAnswered
	case errors.Is(err, runner.ErrLoop):
		return ui.StopLoopGuard
	case code == exitStopped:
		return ui.StopMaxSteps
	case code == exitInterrupted:
		return ui.StopInterrupted
	default:
		return ui.StopError
	}
}

func serverInfos(statuses []servers.ServerStatus) []ui.ServerInfo {
	out := make([]ui.ServerInfo, 0, len(statuses))
	for _, s := range statuses {
		info := ui.ServerInfo{Name: s.Name, State: string(s.State), Transport: string(s.Transport), Tools: s.ToolCount}
		if s.Err != nil {
			info.Error = s.Err.Error()
		}
		out = append(out, info)
	}
	return out
}

func toolNames(tools []provider.Tool) []string {
	out := make([]string, 0, len(tools))
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return out
}
