package chat

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/termtext"
	"github.com/mcphost/mcphost/internal/ui"
)

// ServerStarted tells the user, above the prompt, of a server that became
// ready or failed after the chat began: servers start in the background,
// and the header only said how many were still starting. It takes the
// news of host.Options.OnStart (the list of starting servers is already
// in the header).
func (c *Chat) ServerStarted(n host.StartNews) {
	if n.Server == "" || !c.headerShown.Load() {
		return
	}
	st := c.style()
	name := termtext.Line(n.Server)
	if errors.Is(n.Err, host.ErrSignIn) {
		c.notice(fmt.Sprintf("%s server %s needs a sign-in: /mcp login %s", st.Fail("✗"), name, name))
		return
	}
	if n.Err != nil {
		c.notice(failedLine(st, name, c.opts.Mask(n.Err.Error())))
		return
	}
	tools := 0
	for _, s := range c.statuses() {
		if s.Name == n.Server && s.State == host.StateReady {
			tools = s.ToolCount
		}
	}
	c.notice(fmt.Sprintf("%s server %s is ready: %d tools", st.OK("✓"), name, tools))
}

// header is the chat's first line: the model, the servers and the keys
// to know; on a narrow terminal the keys go on a line of their own, and
// each line is cut to fit rather than wrapped.
func (c *Chat) header() string {
	model := "no model yet"
	if c.opts.Conversation.HasModel() {
		model = termtext.Line(c.opts.Conversation.Model().Name)
	}
	head := fmt.Sprintf("mcphost chat with %s · %s", model, c.serversLine())
	const hint = "/help for commands, Ctrl-D to quit"
	width := c.opts.Width()
	failed := c.failedAtStart()
	if one := head + " · " + hint; ansi.StringWidth(one) <= width {
		return one + "\n" + failed
	}
	return ui.Fit(head, width) + "\n" + ui.Fit(hint, width) + "\n" + failed
}

// failedAtStart is a line for each server that failed to start before
// the header: after it, ServerStarted tells of them, and a count of
// servers ready would otherwise be all the user hears.
func (c *Chat) failedAtStart() string {
	var b strings.Builder
	st := c.style()
	for _, s := range c.statuses() {
		if s.State != host.StateFailed && s.State != host.StateRestarting {
			continue
		}
		err := s.StartErr
		if err == nil {
			err = s.Err
		}
		// A sign-in the header already asks for is not a failure.
		if err == nil || errors.Is(err, host.ErrSignIn) {
			continue
		}
		b.WriteString(ui.Fit(failedLine(st, termtext.Line(s.Name), c.opts.Mask(err.Error())), c.opts.Width()) + "\n")
	}
	return b.String()
}

// failedLine tells of a server that did not start: its name and the first
// line of why (with the line after it when that one only introduces it,
// as "it wrote:" before a server's own error), and where to read more.
func failedLine(st ui.Style, name, reason string) string {
	why := firstLine(reason)
	if !strings.Contains(why, `"`+name+`"`) {
		// The host's reasons name the server; others are said of it here.
		why = fmt.Sprintf("server %s did not start: %s", name, why)
	}
	return fmt.Sprintf("%s %s · /servers shows more", st.Fail("✗"), why)
}

// firstLine is the first line of an error's text that says something: a
// line ending in ":" is joined with the next one.
func firstLine(s string) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return ""
	}
	line := lines[0]
	if strings.HasSuffix(line, ":") && len(lines) > 1 {
		line += " " + lines[1]
	}
	return termtext.Line(line)
}

// style colours what the chat says on its terminal, unless NO_COLOR.
func (c *Chat) style() ui.Style { return ui.NewStyle(true, c.opts.NoColor) }

// waitLine shows a turn's wait for servers still starting (the host's
// StartNews events before its first model call) as the start-up line of a
// one-shot run: "starting fs ✓, slow… 4.4s". The line goes at the turn's
// first other event.
type waitLine struct {
	line *ui.Startup
	once sync.Once
}

// serverWait returns the wait line of a turn.
func (c *Chat) serverWait() *waitLine {
	return &waitLine{line: ui.NewStartup(c.opts.Err, true, c.opts.Width(), c.style())}
}

// watch returns on, with the wait's news shown on the line instead.
func (w *waitLine) watch(on func(host.Event)) func(host.Event) {
	return func(ev host.Event) {
		if n, ok := ev.(host.StartNews); ok {
			w.line.Handle(n)
			return
		}
		w.stop()
		on(ev)
	}
}

// stop clears the line for good.
func (w *waitLine) stop() { w.once.Do(w.line.Stop) }
