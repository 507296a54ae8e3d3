package chat

import (
	"sort"
	"strings"
)

// completeToolName completes the last word of a prompt (not a command)
// to the exposed tool names (server__tool) it starts, so a user can name
// a tool to the model without spelling it out; an empty last word
// completes nothing, as every tool would match.
func (c *Chat) completeToolName(input string) []string {
	if input == "" || strings.HasSuffix(input, " ") || strings.HasSuffix(input, "\n") {
		return nil
	}
	start := strings.LastIndexAny(input, " \n\t") + 1
	word := input[start:]
	var out []string
	for _, t := range c.tools() {
		if strings.HasPrefix(t.Name, word) {
			out = append(out, input[:start]+t.Name)
		}
	}
	sort.Strings(out)
	return out
}
