package cli

// "mcphost doctor": which of the engine, the model, its tool calling, its
// thinking and the servers work, and what to change (internal/doctor).

import (
	"fmt"
	"log/slog"
	"os"
	"os/signal"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/doctor"
	"github.com/mcphost/mcphost/internal/ui"
	"github.com/mcphost/mcphost/internal/userdirs"
	"github.com/mcphost/mcphost/internal/version"
)

// parseDoctor reads "doctor": the model is -m's, or the config's.
func parseDoctor(args []string) (action, error) {
	if len(args) > 0 {
		return nil, misuse(fmt.Errorf("unexpected argument %q after doctor: give the model with -m", args[0]))
	}
	return func(inv *invocation) int {
		return inv.withSettingsReport(func(settings *config.Settings, logger *slog.Logger) int {
			return runDoctor(inv.con, settings, logger)
		})
	}, nil
}

// runDoctor runs the checks, printing each as it is done (text) or the
// whole report at the end (--output json), and returns the report's exit
// code: 0 when nothing is wrong, 3 for an engine or model problem, 1 for
// another.
func runDoctor(con *console, settings *config.Settings, logger *slog.Logger) int {
	ctx, stop := signal.NotifyContext(con.ctx, stopSignals()...)
	defer stop()
	stdout, stderr := con.out, con.err
	for _, msg := range settings.Warnings {
		ui.Warn(stderr, msg)
	}
	jsonOut := settings.Output == config.OutputJSON
	style := ui.NewStyle(ui.IsTerminal(stdout.f), os.Getenv("NO_COLOR") != "")
	var writeErr error
	opts := doctor.Options{Settings: settings, CacheDir: userdirs.Default().Cache, Logger: logger, ClientVersion: version.Get().Version, Warn: warner(stderr)}
	if !jsonOut {
		opts.OnCheck = func(c doctor.Check) {
			if writeErr == nil {
				writeErr = doctor.WriteCheck(stdout, c, style)
			}
		}
	}
	rep, err := doctor.Run(ctx, opts)
	if err != nil {
		return reportExit(stderr, ctx, err)
	}
	code := rep.ExitCode()
	if jsonOut {
		writeErr = ui.WriteJSON(stdout, map[string]any{"model": rep.Model, "checks": rep.Checks, "recommendations": rep.Recommendations, "exit_code": code})
	} else if writeErr == nil {
		writeErr = doctor.WriteRecommendations(stdout, rep.Recommendations)
	}
	if writeErr != nil {
		return reportExit(stderr, ctx, writeErr)
	}
	return code
}
