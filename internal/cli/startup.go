package cli

import (
	"os"
	"sync"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/ui"
)

// newStartup returns the display of the servers' start on stderr: one
// line redrawn as each server answers, on a terminal only.
func newStartup(stderr *os.File) *ui.Startup {
	tty := ui.IsTerminal(stderr)
	return ui.NewStartup(stderr, tty, ui.Width(stderr), ui.NewStyle(tty, os.Getenv("NO_COLOR") != ""))
}

// startRoute passes the news of the servers' start to whoever shows it
// at the time: the start-up line while mcphost starts, then the chat. News
// that comes while no one shows it waits for the next.
type startRoute struct {
	mu     sync.Mutex
	to     func(host.StartNews)
	queued []host.StartNews
}

// handle is host.Options.OnStart.
func (r *startRoute) handle(n host.StartNews) {
	r.mu.Lock()
	to := r.to
	if to == nil {
		r.queued = append(r.queued, n)
	}
	r.mu.Unlock()
	if to != nil {
		to(n)
	}
}

// route sends the news from now on, and what waited, to to; nil holds
// them.
func (r *startRoute) route(to func(host.StartNews)) {
	r.mu.Lock()
	r.to = to
	var waiting []host.StartNews
	if to != nil {
		waiting, r.queued = r.queued, nil
	}
	r.mu.Unlock()
	for _, n := range waiting {
		to(n)
	}
}

// warner prints warnings on stderr: the label yellow and the text
// word-wrapped to the width on a terminal (unless NO_COLOR), plain when
// piped.
func warner(stderr *pipeGuard) func(string) {
	tty := ui.IsTerminal(stderr.f)
	width := 0
	if tty {
		width = ui.Width(stderr.f)
	}
	style := ui.NewStyle(tty, os.Getenv("NO_COLOR") != "")
	return func(msg string) { ui.WarnStyled(stderr, style, width, msg) }
}
