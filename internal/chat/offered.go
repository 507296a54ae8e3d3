package chat

import (
	"fmt"
	"io"
	"slices"

	"github.com/mcphost/mcphost/host"
)

// offeredTools is what tool selection offered the model in a turn: every
// tool offered at one of its steps (a search adds some), and how many
// there are in all.
type offeredTools struct {
	names []string
	total int
}

// keepOffered wraps a turn's event handler: it keeps which tools the
// turn offered the model, when tool selection offered only some
// (host.ToolsSelected), for /tools. A turn offered every tool leaves it
// nil.
func (c *Chat) keepOffered(on func(host.Event)) func(host.Event) {
	c.mu.Lock()
	c.offered = nil
	c.mu.Unlock()
	return func(ev host.Event) {
		if ev, ok := ev.(host.ToolsSelected); ok {
			c.mu.Lock()
			if c.offered == nil {
				c.offered = &offeredTools{}
			}
			c.offered.total = ev.Total
			for i, name := range ev.Offered {
				if i < len(ev.Reasons) && ev.Reasons[i] == "search" {
					continue // mcphost's own search tool, not one of the total
				}
				if !slices.Contains(c.offered.names, name) {
					c.offered.names = append(c.offered.names, name)
				}
			}
			c.mu.Unlock()
		}
		on(ev)
	}
}

// lastOffered returns the tools the last turn offered, as a set, and
// writes the line that says how many of all, and how to offer them all;
// nil when the last turn offered every tool (or there was none yet).
func (c *Chat) lastOffered(w io.Writer) map[string]bool {
	c.mu.Lock()
	o := c.offered
	c.mu.Unlock()
	if o == nil {
		return nil
	}
	set := map[string]bool{}
	for _, n := range o.names {
		set[n] = true
	}
	line := fmt.Sprintf("The last turn offered the model %d of %d tools (✓): those that best match the prompt, "+
		"with a search tool for the rest, as all of them would take more than their share of the context window. "+
		"--tool-share 0 (tool-share: 0 in a config file) offers every tool.", len(o.names), o.total)
	for _, row := range wrapWords(line, c.opts.Width()) {
		fmt.Fprintln(w, row)
	}
	return set
}
