package chat

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/mcphost/mcphost/internal/ui"
	"github.com/mcphost/mcphost/provider"
)

// modelPuller is the part of *host.Host that pulls models; a Host that
// lacks it (a test's) never offers a pull.
type modelPuller interface {
	CanPull(ref string) bool
	Pull(ctx context.Context, ref string, progress func(provider.PullProgress)) error
}

// offerPull asks whether to download a model its engine does not have
// (Ollama can pull; other engines cannot) and, on yes, pulls it showing the
// bytes and the percentage as they grow. Ctrl-C stops the pull. It reports
// whether the model is there now.
func (c *Chat) offerPull(ctx context.Context, w io.Writer, ref string) bool {
	h, ok := c.opts.Host.(modelPuller)
	if !ok || !h.CanPull(ref) {
		return false
	}
	fmt.Fprintf(w, "pull %s now? [y/N] ", ui.Sanitize(ref))
	key, err := c.readKey(ctx)
	if err != nil || (key != 'y' && key != 'Y') {
		fmt.Fprintln(w, "no")
		return false
	}
	fmt.Fprintln(w, "yes")

	// Ctrl-C (SIGINT) cancels the pull only; the chat goes on.
	pullCtx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	progress, done := ui.PullProgress(w, ref)
	err = h.Pull(pullCtx, ref, progress)
	done()
	switch {
	case err == nil:
		return true
	case pullCtx.Err() != nil && ctx.Err() == nil:
		fmt.Fprintln(w, "(pull cancelled)")
	default:
		fmt.Fprintln(w, ui.Sanitize(err.Error()))
	}
	return false
}
