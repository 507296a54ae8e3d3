package chat

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/ui"
)

// thinkingHint follows the line a turn's thinking collapses to.
const thinkingHint = "/thinking shows it"

// keepThinking wraps a turn's event handler: it keeps the turn's
// thinking, every model call's, for /thinking (on screen it collapses to
// one line once the answer comes). What an earlier turn thought is
// dropped as the turn starts.
func (c *Chat) keepThinking(on func(host.Event)) func(host.Event) {
	c.mu.Lock()
	c.thinking = &strings.Builder{}
	kept := c.thinking
	c.mu.Unlock()
	step := 0
	return func(ev host.Event) {
		switch ev := ev.(type) {
		case host.ModelCallStarted:
			step = ev.Step
		case host.ThinkingDelta:
			c.mu.Lock()
			if kept.Len() == 0 {
				ev.Text = strings.TrimLeft(ev.Text, " \t\n")
			} else if step > 0 {
				// The thinking of another model call of the turn: a
				// paragraph of its own.
				kept.WriteString("\n\n")
			}
			step = 0
			kept.WriteString(ev.Text)
			c.mu.Unlock()
		}
		on(ev)
	}
}

// cmdThinking shows the last turn's thinking in full, as the model wrote
// it (cleaned of escape sequences).
func (c *Chat) cmdThinking(_ context.Context, w io.Writer, _ []string) bool {
	c.mu.Lock()
	var text string
	if c.thinking != nil {
		text = strings.TrimSpace(c.thinking.String())
	}
	c.mu.Unlock()
	if text == "" {
		fmt.Fprintln(w, "The last turn had no thinking to show: /think on asks a reasoning model to think.")
		return false
	}
	fmt.Fprintf(w, "%s\n%s\n", c.style().Dim("the last turn's thinking:"), ui.Sanitize(text))
	return false
}
