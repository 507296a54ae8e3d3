package chat

import (
	"context"
	"fmt"
	"io"

	"github.com/mcphost/mcphost/provider"
)

// cmdThink shows or changes whether the model is asked to think: /think
// off asks it not to (for the engines that can be asked), /think on lets
// it, /think default leaves it to the model again.
func (c *Chat) cmdThink(_ context.Context, w io.Writer, args []string) bool {
	conv := c.opts.Conversation
	if len(args) == 0 {
		fmt.Fprintf(w, "thinking: %s\n", thinkState(conv.Think()))
		return false
	}
	var think *bool
	switch args[0] {
	case "on", "true":
		on := true
		think = &on
	case "off", "false":
		off := false
		think = &off
	case "default":
	default:
		fmt.Fprintf(w, "unknown /think setting %q: use /think on, off or default\n", args[0])
		return false
	}
	conv.SetThink(think)
	fmt.Fprintf(w, "thinking: %s\n", thinkState(think))
	if think != nil && *think && conv.HasModel() && !conv.Model().Has(provider.CapabilityThinking) {
		fmt.Fprintf(w, "note: %s does not say it can think\n", conv.Model().Name)
	}
	return false
}

// thinkState says what a Think setting asks of the model.
func thinkState(think *bool) string {
	switch {
	case think == nil:
		return "the model decides (/think off asks it not to think)"
	case *think:
		return "on"
	}
	return "off: the model is asked not to think"
}

// argCompletions are the words Tab offers after the commands of this
// file and of models.go: /think's settings, /model's model names.
func (c *Chat) argCompletions(fields []string) []string {
	if len(fields) != 1 {
		return nil
	}
	switch fields[0] {
	case "/think":
		return []string{"on", "off", "default"}
	case "/model":
		return c.modelNames()
	case "/load":
		return c.sessionNames()
	}
	return nil
}
