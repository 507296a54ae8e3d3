package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcphost/mcphost/chat"
	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/runner"
	"github.com/mcphost/mcphost/ui"
)

// runChat starts the app and hands the terminal to the chat. Ctrl-C
// interrupts start-up; once the chat runs, Ctrl-C belongs to it (cancelling
// a turn), while SIGTERM and SIGHUP still end the session cleanly.
func runChat(settings *config.Settings, logger *slog.Logger, stdin, stdout, stderr *os.File) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP)
	defer stop()

	startCtx, cancelStart := context.WithCancel(ctx)
	defer cancelStart()
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	started := make(chan struct{})
	go func() {
		select {
		case <-interrupts:
			cancelStart()
		case <-started:
		}
	}()
	a, err := startApp(startCtx, settings, logger, func(msg string) { ui.Warn(stderr, msg) })
	close(started)
	signal.Stop(interrupts)
	if a != nil {
		defer a.Close()
	}
	if err != nil {
		return reportExit(stderr, startCtx, err)
	}

	c := chat.New(chat.Options{
		Runner:       a.runner,
		Servers:      a.manager,
		Tools:        a.tools,
		ShowModel:    a.backend.Show,
		In:           stdin,
		Out:          stdout,
		Err:          stderr,
		Width:        func() int { return terminalWidth(stdout) },
		NoColor:      os.Getenv("NO_COLOR") != "",
		HideThinking: settings.HideThinking,
		HistoryPath:  chat.DefaultHistoryPath(),
		OnEvent:      func(ev runner.Event) { logEvent(logger, ev) },
		Mask:         a.maskEvent,
	})
	// In the chat there is someone to ask about tools that need approval
	// and to fill in the forms servers send.
	a.approval.SetAsker(c)
	a.setElicitor(c.Elicit)
	if err := c.Run(ctx); err != nil {
		return reportExit(stderr, ctx, err)
	}
	fmt.Fprintln(stdout, "bye")
	return exitOK
}
