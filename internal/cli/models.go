package cli

import (
	"log/slog"
	"os/signal"
	"strings"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/ui"
	"github.com/mcphost/mcphost/provider"
)

// runModels lists what every engine serves ("mcphost models"): those of
// provider.Engines at their usual addresses (or where the config moves
// them), and the engines config files name. It exits 3 when
// no engine answered.
func runModels(con *console, settings *config.Settings, logger *slog.Logger) int {
	ctx, stop := signal.NotifyContext(con.ctx, stopSignals()...)
	defer stop()
	stdout, stderr := con.out, con.err
	opts := withServers(options(settings, logger, warner(stderr)), nil)
	h, err := host.New(ctx, opts)
	if err != nil {
		return reportExit(stderr, ctx, err)
	}
	defer h.Close()
	models, statuses, err := h.Models(ctx)
	if err != nil {
		return reportExit(stderr, ctx, err)
	}
	answered := false
	for _, s := range statuses {
		if s.Err != nil {
			logger.Debug("engine did not list its models", "engine", s.Name, "error", h.Mask(s.Err.Error()))
		}
		answered = answered || s.Err == nil
	}
	if settings.Output == config.OutputJSON {
		err = ui.WriteJSON(stdout, map[string]any{"models": ui.ModelRecords(models), "engines": ui.EngineRecords(statuses, h.Mask)})
	} else {
		ui.ModelTable(stdout, models, statuses, h.Mask)
	}
	if err != nil {
		return reportExit(stderr, ctx, err)
	}
	if !answered {
		var starts []string
		for _, e := range provider.Engines() {
			if e.Start != "" {
				starts = append(starts, e.Start)
			}
		}
		return reportExit(stderr, ctx, &provider.Error{Kind: provider.ErrUnreachable,
			Message: "no engine answered: start one (" + strings.Join(starts, ", ") + "), or give its address (--ollama-host, --provider-url, providers in a config file)"})
	}
	return exitOK
}
