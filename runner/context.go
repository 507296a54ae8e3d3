package runner

import (
	"fmt"
	"strings"

	"github.com/mcphost/mcphost/budget"
	"github.com/mcphost/mcphost/provider"
)

// answerReserve is the room left in the context window for the model's
// answer: an eighth of the window, between 256 and 2048 tokens.
func answerReserve(window int) int { return min(max(window/8, 256), 2048) }

// estimates returns the raw token estimate of each history message,
// computing only those added since the last call.
func (r *Runner) estimates() []int {
	if len(r.msgTokens) > len(r.history) {
		r.msgTokens = r.msgTokens[:0]
	}
	for i := len(r.msgTokens); i < len(r.history); i++ {
		r.msgTokens = append(r.msgTokens, budget.Message(r.history[i]))
	}
	return r.msgTokens
}

// fit returns the messages to send with tools and their raw token
// estimate, leaving out the oldest turns when they would overflow the
// context window. It warns once when the tools alone take more than half
// of the window.
func (r *Runner) fit(tools []provider.Tool, toolTokens int, ts *toolSet, emit func(Event)) ([]provider.Message, int) {
	if tools == nil {
		toolTokens = 0
	}
	est := r.estimates()
	total := toolTokens
	for _, n := range est {
		total += n
	}
	window := r.window()
	if window <= 0 {
		return r.history, total
	}
	if tools != nil && !r.warnedTools && r.estimator.Tokens(toolTokens) > window/2 {
		r.warnedTools = true
		emit(Warning{Message: toolsWarning(ts, len(tools), toolTokens, window, &r.estimator)})
	}
	limit := window - answerReserve(window)
	if r.estimator.Tokens(total) <= limit && r.dropped == 0 {
		return r.history, total
	}
	kept, dropped, keptTokens := budget.Fit(r.history, est, r.estimator.Raw(limit)-toolTokens)
	sent := toolTokens + keptTokens
	if dropped != r.dropped {
		r.dropped = dropped
		emit(HistoryTrimmed{Dropped: dropped, Kept: len(kept), EstimatedTokens: r.estimator.Tokens(sent),
			ContextWindow: limit, Fits: r.estimator.Tokens(sent) <= limit})
	}
	return kept, sent
}

// toolsWarning says how much of the window the tools take, and which
// servers take most of it.
func toolsWarning(ts *toolSet, count, tokens, window int, e *budget.Estimator) string {
	var biggest []string
	for i, s := range ts.servers {
		if i == 3 {
			break
		}
		name := s.server
		if name == "" {
			name = "(unnamed)"
		}
		biggest = append(biggest, fmt.Sprintf("%s ~%d", name, e.Tokens(s.tokens)))
	}
	return fmt.Sprintf("the %d tools take about %d tokens, more than half of the %d-token context window (biggest: %s); "+
		"the model has little room left for the conversation: raise --num-ctx if the model allows it, or limit the tools with allowedTools/excludedTools",
		count, e.Tokens(tokens), window, strings.Join(biggest, ", "))
}
