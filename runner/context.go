package runner

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/mcphost/mcphost/internal/budget"
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
// context window.
func (r *Runner) fit(tools []provider.Tool, toolTokens int, emit func(Event)) ([]provider.Message, int) {
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

// warnTools warns once when the tools offered alone take more than half of
// the window, before the model call they would crowd.
func (r *Runner) warnTools(tools []provider.Tool, toolTokens int, ts *toolSet, emit func(Event)) {
	window := r.window()
	// Only past half the window: below it the tools leave the
	// conversation and the answer room enough, and a warning on every run
	// would teach users to ignore it.
	if tools == nil || r.warnedTools || window <= 0 || r.estimator.Tokens(toolTokens) <= window/2 {
		return
	}
	r.warnedTools = true
	emit(Warning{Message: toolsWarning(ts, tools, window, &r.estimator)})
}

// toolsWarning is one line saying how much of the window the tools take
// and which servers take most of it. Every number is what /tools shows
// (Runner.ToolTokens): each tool's corrected estimate, summed per server,
// so the two never disagree.
func toolsWarning(ts *toolSet, tools []provider.Tool, window int, e *budget.Estimator) string {
	total := 0
	perServer := map[string]int{}
	for _, t := range tools {
		raw := budget.Tool(t)
		entry, ok := ts.byName[t.Name]
		if ok {
			raw = entry.tokens
		}
		n := e.Tokens(raw)
		total += n
		if ok && entry.server != "" {
			perServer[entry.server] += n
		}
	}
	servers := make([]serverCost, 0, len(perServer))
	for s, n := range perServer {
		servers = append(servers, serverCost{s, n})
	}
	slices.SortFunc(servers, func(a, b serverCost) int {
		return cmp.Or(b.tokens-a.tokens, cmp.Compare(a.server, b.server))
	})
	var biggest []string
	for i, s := range servers {
		if i == 2 {
			break
		}
		biggest = append(biggest, fmt.Sprintf("%s ~%d", s.server, s.tokens))
	}
	by := ""
	if len(biggest) > 0 {
		by = " (" + strings.Join(biggest, ", ") + ")"
	}
	// Short enough for one line of a terminal.
	return fmt.Sprintf("tools take ~%d of %d context tokens%s: raise --num-ctx or exclude some", total, window, by)
}
