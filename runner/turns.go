package runner

import (
	"strings"

	"github.com/mcphost/mcphost/provider"
)

// InterruptedMark ends the text of an answer the user interrupted, in the
// history: the model and /history both see that the answer was cut short
// rather than finished.
const InterruptedMark = "[interrupted]"

// keepInterrupted adds the text an interrupted model call had streamed to
// the history as the assistant's message, marked with InterruptedMark, and
// returns that text. Without it a cancelled answer would vanish from the
// conversation although the user read it. Nothing is added when nothing
// had streamed.
func (r *Runner) keepInterrupted(text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	text = strings.TrimRight(text, " \n") + "\n\n" + InterruptedMark
	r.history = append(r.history, provider.Message{Role: provider.RoleAssistant, Content: text})
}

// HistoryTokens estimates the size of the whole history in tokens
// (corrected by the engine's counts, as the context budget is), turns left
// out of requests included.
func (r *Runner) HistoryTokens() int {
	total := 0
	for _, n := range r.estimates() {
		total += n
	}
	return r.estimator.Tokens(total)
}

// Window is the context window asked of the current model; 0 when it is
// left to the backend.
func (r *Runner) Window() int { return r.window() }

// Len is the number of messages in the history.
func (r *Runner) Len() int { return len(r.history) }
