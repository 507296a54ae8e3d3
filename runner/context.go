package runner

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
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
// context window less the room kept for the answer. When what cannot be
// left out still does not fit, the latest tool results are cut further;
// when even that is not enough, it returns a *PromptTooLargeError and
// nothing is to be sent: an engine given more than its window cuts the
// prompt itself, losing the system prompt, the tools or the question.
//
// When keep is true (the request starts as the previous one did), it
// leaves out at least what the previous request left out: an old turn
// put back would change the start of the prompt, and the engine would
// read it all again.
func (r *Runner) fit(tools []provider.Tool, toolTokens int, step int, keep bool, emit func(Event)) ([]provider.Message, int, error) {
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
		return r.history, total, nil
	}
	limit := window - answerReserve(window)
	if r.estimator.Tokens(total) <= limit && r.dropped == 0 {
		return r.history, total, nil
	}
	least := 0
	if keep {
		least = r.dropped
	}
	kept, dropped, keptTokens := budget.FitDropping(r.history, est, r.estimator.Raw(limit)-toolTokens, least)
	sent := toolTokens + keptTokens
	if r.estimator.Tokens(sent) > limit {
		var ok bool
		if kept, sent, ok = r.cutResults(kept, toolTokens, limit); !ok {
			return nil, 0, r.tooLarge(kept, tools, toolTokens, window)
		}
		emit(Warning{Message: fmt.Sprintf("the latest tool results were cut further to fit the context window of %s tokens", thousands(window))})
	}
	if dropped != r.dropped {
		r.dropped = dropped
		emit(HistoryTrimmed{Dropped: dropped, Kept: len(kept), EstimatedTokens: r.estimator.Tokens(sent),
			ContextWindow: limit, Fits: r.estimator.Tokens(sent) <= limit, Step: step})
	}
	return kept, sent, nil
}

// minResultBytes is the least of a tool result cutResults keeps: less
// would leave the model nothing to read but the marker.
const minResultBytes = 256

// cutResults shortens the results of the latest tool calls in kept (the
// shortest history allowed, which does not fit) so that it fits limit,
// each in proportion to its size. kept is not changed: the history keeps
// the results as they came. It returns the messages to send and their raw
// estimate, and false when the results are not what is too large.
func (r *Runner) cutResults(kept []provider.Message, toolTokens, limit int) ([]provider.Message, int, bool) {
	first := len(kept)
	for first > 0 && kept[first-1].Role == provider.RoleTool {
		first--
	}
	if first == len(kept) {
		return kept, 0, false
	}
	size := 0
	for _, m := range kept[first:] {
		size += len(m.Content)
	}
	raw := toolTokens
	for _, m := range kept {
		raw += budget.Message(m)
	}
	// Bytes to remove: the excess at the estimate's 4 bytes a token, and
	// room for each cut's marker.
	n := len(kept) - first
	excess := (raw-r.estimator.Raw(limit))*4 + 40*n
	keep := size - excess
	if keep < minResultBytes*n {
		return kept, 0, false
	}
	out := append([]provider.Message(nil), kept...)
	raw = toolTokens
	for i := range out {
		if i >= first {
			out[i].Content = budget.Cut(out[i].Content, len(out[i].Content)*keep/size)
		}
		raw += budget.Message(out[i])
	}
	return out, raw, r.estimator.Tokens(raw) <= limit
}

// ErrPromptTooLarge matches the error of a Run that stopped before a model
// call because what it must send does not fit the context window (see
// PromptTooLargeError).
var ErrPromptTooLarge = errors.New("the prompt does not fit the context window")

// PromptTooLargeError is the error of a model call not made because what
// cannot be left out of it (the system prompt, the tools offered, the
// user's messages with their attachments, the latest tool results) does
// not fit the context window less the room kept for the answer. At the
// first model call of a Run the messages given to it are taken back out
// of the history: the conversation is as it was before.
type PromptTooLargeError struct {
	// Part names the biggest part: "@PATH" of an attached file,
	// "@SERVER:URI" of an attached resource, "the system prompt", "the
	// tools (N)", "your message", "the result of TOOL".
	Part string
	// PartTokens is the part's estimated size, Tokens that of everything
	// that had to be sent.
	PartTokens, Tokens int
	// Window is the context window; Reserve the room kept in it for the
	// answer.
	Window, Reserve int
	// Hint says what to do, e.g. "raise --num-ctx or attach less".
	Hint string
	// Step is the model call that was not made; 1: nothing of the Run
	// was sent.
	Step int
}

func (e *PromptTooLargeError) Error() string {
	what := "the prompt was not sent"
	if e.Step > 1 {
		what = "the turn stopped before the next model call"
	}
	if e.PartTokens > e.Window-e.Reserve {
		is := "is"
		if strings.HasPrefix(e.Part, "the tools (") || e.Part == "the model's tool calls" {
			is = "are"
		}
		return fmt.Sprintf("%s %s about %s tokens; the window is %s: %s; %s", e.Part, is, budget.Short(e.PartTokens), thousands(e.Window), e.Hint, what)
	}
	return fmt.Sprintf("the prompt is about %s tokens, %s the biggest part of it (about %s); the window is %s, less %s kept for the answer: %s; %s",
		budget.Short(e.Tokens), e.Part, budget.Short(e.PartTokens), thousands(e.Window), thousands(e.Reserve), e.Hint, what)
}

// Is reports whether target is ErrPromptTooLarge.
func (e *PromptTooLargeError) Is(target error) bool { return target == ErrPromptTooLarge }

// tooLarge is the error for kept, the shortest history allowed, which
// does not fit with the tools: it names the biggest part.
func (r *Runner) tooLarge(kept []provider.Message, tools []provider.Tool, toolTokens, window int) *PromptTooLargeError {
	type part struct {
		name, hint string
		raw        int
	}
	var parts []part
	add := func(name, hint string, raw int) {
		for i := range parts {
			if parts[i].name == name {
				parts[i].raw += raw
				return
			}
		}
		parts = append(parts, part{name, hint, raw})
	}
	total := toolTokens
	if toolTokens > 0 {
		add(fmt.Sprintf("the tools (%d)", len(tools)), "exclude some servers or tools", toolTokens)
	}
	for i, m := range kept {
		n := budget.Message(m)
		total += n
		switch {
		case m.Role == provider.RoleSystem && i == 0:
			add("the system prompt", "shorten the system prompt", n)
		case m.Role == provider.RoleUser:
			for _, a := range attachments(m.Content) {
				add(a.name, "attach less", budget.Text(a.text))
				n -= budget.Text(a.text)
			}
			add("your message", "send a shorter message", max(n, 0))
		case m.Role == provider.RoleTool:
			add("the result of "+m.ToolName, "ask the model for less at a time", n)
		default:
			add("the model's tool calls", "ask the model for less at a time", n)
		}
	}
	big := parts[0]
	for _, p := range parts[1:] {
		if p.raw > big.raw {
			big = p
		}
	}
	hint := big.hint
	// --num-ctx cannot raise a window the engine fixed or the model's
	// own length.
	if m := r.opts.Model; !m.FixedContext && (m.ContextLength == 0 || m.ContextLength > window) {
		hint = "raise --num-ctx or " + hint
	}
	return &PromptTooLargeError{Part: big.name, PartTokens: r.estimator.Tokens(big.raw), Tokens: r.estimator.Tokens(total),
		Window: window, Reserve: answerReserve(window), Hint: hint}
}

// attachment is a file or resource attached to a user message.
type attachment struct{ name, text string }

// Attached files and resources, as the host writes them into a user
// message: "File: PATH" and a fenced block; "--- resource SERVER:URI
// (TYPE) ---" to "--- end of SERVER:URI ---".
var (
	fileHeader     = regexp.MustCompile("(?m)^File: (.+)\n(```+)")
	resourceHeader = regexp.MustCompile(`(?m)^--- resource (.+) \([^)\n]*\) ---\n`)
)

// attachments finds the files and resources attached to a user message.
// A fence is longer than any run of backticks in the file, so the first
// fence of its length after the header ends it.
func attachments(content string) []attachment {
	var out []attachment
	for _, m := range fileHeader.FindAllStringSubmatchIndex(content, -1) {
		fence := content[m[4]:m[5]]
		end := strings.Index(content[m[5]:], fence)
		if end < 0 {
			continue
		}
		out = append(out, attachment{"@" + content[m[2]:m[3]], content[m[0] : m[5]+end+len(fence)]})
	}
	for _, m := range resourceHeader.FindAllStringSubmatchIndex(content, -1) {
		name := content[m[2]:m[3]]
		closing := "\n--- end of " + name + " ---"
		end := strings.Index(content[m[1]:], closing)
		if end < 0 {
			continue
		}
		out = append(out, attachment{"@" + name, content[m[0] : m[1]+end+len(closing)]})
	}
	return out
}

// thousands writes n with commas between thousands: 8,192.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
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

// FitMessages fits msgs, to be sent without tools (a summary's request,
// say), in the context window less the answer's room, as a turn's
// request is: the oldest turns are left out first. It returns the
// messages to send and how many were left out, or a
// *PromptTooLargeError when even the shortest of them does not fit.
func (r *Runner) FitMessages(msgs []provider.Message) ([]provider.Message, int, error) {
	return fitMessages(msgs, r.window(), r.opts.Model, &r.estimator)
}

// CheckFits reports, as a *PromptTooLargeError, that msgs sent without
// tools to model m cannot fit its context window (the window ContextWindow
// gives for numCtx) less the room for the answer; nil when they fit or the
// window is unknown. Nothing is left out: msgs are one request from
// elsewhere (an MCP server's sampling request), not a conversation.
func CheckFits(m provider.ModelInfo, numCtx int, msgs []provider.Message) error {
	window := ContextWindow(m, numCtx)
	if window <= 0 {
		return nil
	}
	total := 0
	for _, msg := range msgs {
		total += budget.Message(msg)
	}
	if total <= window-answerReserve(window) {
		return nil
	}
	r := &Runner{opts: Options{Model: m, NumCtx: numCtx}}
	err := r.tooLarge(msgs, nil, 0, window)
	err.Step = 1
	return err
}

func fitMessages(msgs []provider.Message, window int, m provider.ModelInfo, e *budget.Estimator) ([]provider.Message, int, error) {
	if window <= 0 {
		return msgs, 0, nil
	}
	est := make([]int, len(msgs))
	for i, msg := range msgs {
		est[i] = budget.Message(msg)
	}
	limit := window - answerReserve(window)
	kept, dropped, total := budget.Fit(msgs, est, e.Raw(limit))
	if e.Tokens(total) > limit {
		r := &Runner{opts: Options{Model: m}, estimator: *e}
		err := r.tooLarge(kept, nil, 0, window)
		err.Step = 1
		return nil, 0, err
	}
	return kept, dropped, nil
}
