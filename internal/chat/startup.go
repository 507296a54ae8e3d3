package chat

import (
	"errors"
	"fmt"

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
		c.notice(fmt.Sprintf("%s server %s did not start: %s", st.Fail("✗"), name, termtext.Line(c.opts.Mask(n.Err.Error()))))
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
	if one := head + " · " + hint; ansi.StringWidth(one) <= width {
		return one + "\n"
	}
	return ui.Fit(head, width) + "\n" + ui.Fit(hint, width) + "\n"
}

// style colours what the chat says on its terminal, unless NO_COLOR.
func (c *Chat) style() ui.Style { return ui.NewStyle(true, c.opts.NoColor) }
