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
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/ui"
)

// runChat starts the host and hands the terminal to the chat. Ctrl-C
// interrupts start-up; once the chat runs, Ctrl-C belongs to it (cancelling
// a turn), while SIGTERM and SIGHUP still end the session cleanly.
func runChat(settings *config.Settings, logger *slog.Logger, stdin, stdout, stderr *os.File) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP)
	defer stop()

	startCtx, cancelStart := signal.NotifyContext(ctx, os.Interrupt)
	h, err := host.New(startCtx, options(settings, logger, func(msg string) { ui.Warn(stderr, msg) }))
	if err != nil {
		code := reportExit(stderr, startCtx, err)
		cancelStart()
		return code
	}
	cancelStart()
	defer h.Close()

	c := chat.New(chat.Options{
		Host:         h,
		Conversation: h.Conversation(),
		In:           stdin,
		Out:          stdout,
		Err:          stderr,
		Width:        func() int { return terminalWidth(stdout) },
		NoColor:      os.Getenv("NO_COLOR") != "",
		HideThinking: settings.HideThinking,
		HistoryPath:  chat.DefaultHistoryPath(),
		Mask:         h.Mask,
	})
	// In the chat there is someone to ask about tools that need approval
	// and to fill in the forms servers send.
	h.SetAsker(c)
	h.SetElicitor(c.Elicit)
	if err := c.Run(ctx); err != nil {
		return reportExit(stderr, ctx, err)
	}
	fmt.Fprintln(stdout, "bye")
	return exitOK
}
