package cli

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/chat"
	"github.com/mcphost/mcphost/internal/session"
	"github.com/mcphost/mcphost/internal/sysproc"
	"github.com/mcphost/mcphost/internal/ui"
)

// runChat starts the host and hands the terminal to the chat. Ctrl-C
// interrupts start-up; once the chat runs, Ctrl-C belongs to it (cancelling
// a turn), while SIGTERM and SIGHUP still end the session cleanly.
func runChat(con *console, settings *config.Settings, logger *slog.Logger) int {
	ctx, stop := signal.NotifyContext(con.ctx, sysproc.StopSignals()...)
	defer stop()
	stdin, stdout, stderr := con.in, con.out.f, con.err.f

	startCtx, cancelStart := signal.NotifyContext(ctx, os.Interrupt)
	news := &startRoute{}
	h, held, err := startChat(startCtx, settings, logger, stderr, news)
	if held != nil {
		defer held.Release()
	}
	if h != nil {
		defer h.Close()
	}
	if err != nil {
		defer cancelStart()
		return reportExit(stderr, startCtx, err)
	}
	cancelStart()

	// The chat lays out with the background decided here, once, so that
	// nothing asks the terminal with a long wait.
	noColor := os.Getenv("NO_COLOR") != ""
	theme := ui.Dark
	// Keys typed while the chat started were read with the terminal's
	// answer: the chat keeps them for its first prompt.
	var typed []byte
	if !noColor {
		theme, typed = terminalTheme(settings)
	}
	c := chat.New(chat.Options{
		Typed:        typed,
		Host:         h,
		Conversation: h.Conversation(),
		In:           stdin,
		Out:          stdout,
		Err:          stderr,
		Width:        func() int { return ui.Width(stdout) },
		Height:       func() int { return ui.Height(stdout) },
		NoColor:      noColor,
		Theme:        theme,
		HideThinking: settings.HideThinking,
		HistoryPath:  chat.DefaultHistoryPath(),
		Mask:         h.Mask,
		Session:      held,
		ServerWait:   settings.ServerWait,
	})
	// In the chat there is someone to ask about tools that need approval,
	// to fill in the forms servers send and to decide their sampling
	// requests; the user hears of changes to their tools, prompts and
	// resources.
	h.SetAsker(c)
	h.SetOnChange(c.OnChange)
	// Servers still starting are news above the prompt.
	news.route(c.ServerStarted)
	if err := c.Run(ctx); err != nil {
		return reportExit(stderr, ctx, err)
	}
	fmt.Fprintln(stdout, "bye")
	return exitOK
}

// startChat takes the --session file (if any), starts the host and
// continues the saved conversation. What it returns, even with an error,
// must be released and closed.
func startChat(ctx context.Context, settings *config.Settings, logger *slog.Logger, stderr *os.File, news *startRoute) (*host.Host, *session.Lock, error) {
	held, err := holdSession(ctx, settings, stderr)
	if err != nil {
		return nil, nil, err
	}
	// While the engine is asked about the model, the servers' start shows
	// on a line of its own; once the chat is on screen, it tells the rest.
	startup := newStartup(stderr)
	news.route(startup.Handle)
	tty := ui.IsTerminal(stderr)
	style, width := ui.NewStyle(tty, os.Getenv("NO_COLOR") != ""), 0
	if tty {
		width = ui.Width(stderr)
	}
	opts := options(settings, logger, func(msg string) {
		startup.Interrupt(func() { ui.WarnStyled(stderr, style, width, msg) })
	})
	opts.OnStart = news.handle
	// The prompt is usable at once; a turn waits only for servers whose
	// tools are not known yet.
	opts.Start, opts.Interactive = host.StartBackground, true
	h, err := host.New(ctx, opts)
	news.route(nil)
	startup.Stop()
	if err != nil {
		return nil, held, err
	}
	if held != nil {
		err = loadSession(held, h.Conversation())
	}
	return h, held, err
}
