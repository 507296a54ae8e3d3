// Package budget keeps a conversation inside the model's context window:
// it estimates the tokens of the system prompt, tools and history before
// each model call (correcting the estimate with the counts the backend
// reports), picks the oldest turns to leave out when the history would
// overflow, and cuts tool results to a byte budget.
//
// The estimate needs no tokenizer, on purpose: mcphost talks to any model
// Ollama serves, and a tokenizer per model family would cost more than
// the error it removes. The rules (raw estimate, before correction):
//
//   - text: one token per 4 bytes, rounded up; Llama, Qwen, Gemma and
//     Mistral tokenizers average 3.5 to 4.5 bytes per token on English prose
//     and code;
//   - JSON (tool declarations, call arguments): one token per 3 bytes,
//     since quotes, braces and short keys are tokens of their own;
//   - each message: 4 more tokens for the chat template's role markers;
//   - each tool: the bytes of its JSON as a request sends it, one token
//     per 3 (what is sent, not what the template makes of it: the
//     correction below covers the difference);
//   - each image: 768 tokens, about what vision models spend on one.
//
// After each call the backend's own prompt count (Ollama's
// prompt_eval_count) divided by the raw estimate of that same request
// becomes the correction factor for the next estimates, so the estimate
// follows the real tokenizer after one turn.
package budget

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcphost/mcphost/provider"
)

// The constants of the estimate, documented in the package comment.
const (
	bytesPerToken     = 4
	jsonBytesPerToken = 3
	messageOverhead   = 4
	toolOverhead      = 10
	imageTokens       = 768
)

// Text is the raw token estimate of plain text.
func Text(s string) int { return (len(s) + bytesPerToken - 1) / bytesPerToken }

// JSON is the raw token estimate of n bytes of JSON.
func JSON(n int) int { return (n + jsonBytesPerToken - 1) / jsonBytesPerToken }

// toolWrapper is the JSON around a tool's name, description and
// parameters in a request: {"type":"function","function":{"name":…,
// "description":…,"parameters":…}}, and the comma between tools.
const toolWrapper = len(`{"type":"function","function":{"name":,"description":,"parameters":}},`)

// Tool is the raw token estimate of one tool declaration: the bytes of
// the JSON a request sends for it, at 3 a token. It is what "mcphost
// tools" and the chat's /tools show as a tool's cost, what the context
// warning adds up and what tool selection fits in its share.
func Tool(t provider.Tool) int {
	return JSON(toolWrapper + jsonStringSize(t.Name) + jsonStringSize(t.Description) + len(t.Parameters))
}

// jsonStringSize is the length of s encoded as a JSON string as Go's
// encoder writes it: quoted, with quotes, backslashes and control
// characters escaped, and <, > and & as \u003c and the like.
func jsonStringSize(s string) int {
	n := len(s) + 2
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t':
			n++
		case c < 0x20 || c == '<' || c == '>' || c == '&':
			n += 5
		}
	}
	return n
}

// Message is the raw token estimate of one history message.
func Message(m provider.Message) int {
	n := messageOverhead + Text(m.Content) + imageTokens*len(m.Images)
	for _, c := range m.ToolCalls {
		n += Text(c.Name) + toolOverhead + JSON(jsonSize(c.Arguments))
	}
	return n
}

// jsonSize is about the length of v encoded as JSON, without encoding it:
// this runs for every message of every request.
func jsonSize(v any) int {
	switch v := v.(type) {
	case nil:
		return 4
	case bool:
		return 5
	case string:
		return len(v) + 2
	case float64, int, int64, json.Number:
		return 8
	case map[string]any:
		n := 2
		for k, e := range v {
			n += len(k) + 4 + jsonSize(e)
		}
		return n
	case []any:
		n := 2
		for _, e := range v {
			n += jsonSize(e) + 1
		}
		return n
	}
	return 8
}

// Limits of the correction factor: a count far outside them means the
// backend counted something else (a cached or truncated prompt), not that
// the tokenizer is that different.
const (
	minRatio = 0.5
	maxRatio = 3.0
)

// Estimator turns raw estimates into corrected ones. The zero value
// applies no correction until the first Observe.
type Estimator struct {
	ratio float64
}

// Ratio is the current correction factor (1 before any observation).
func (e *Estimator) Ratio() float64 {
	if e.ratio == 0 {
		return 1
	}
	return e.ratio
}

// Tokens corrects a raw estimate.
func (e *Estimator) Tokens(raw int) int { return int(float64(raw)*e.Ratio() + 0.5) }

// Raw turns a corrected token count back into raw units, to compare
// with raw estimates.
func (e *Estimator) Raw(tokens int) int { return int(float64(tokens) / e.Ratio()) }

// Observe records that a request estimated at raw tokens was counted as
// actual by the backend. Counts of 0 (not reported) are ignored, and so
// are counts at or above window, the context window the request asked for
// (0 for unknown), since the backend has then cut the prompt and counted
// only what it kept.
func (e *Estimator) Observe(raw, actual, window int) {
	if raw <= 0 || actual <= 0 || Truncated(actual, window) {
		return
	}
	r := float64(actual) / float64(raw)
	e.ratio = min(max(r, minRatio), maxRatio)
}

// Truncated reports whether a prompt the backend counted as actual
// tokens filled a context window of window tokens (0: unknown), which
// means the backend cut it to fit: Ollama keeps the first few tokens and
// the last ones and counts exactly the window. The last 2% are taken for
// full, since a tokenizer may count a cut prompt a few tokens short.
// Prompt caching can only lower a count, so it never makes an uncut
// prompt look cut.
func Truncated(actual, window int) bool {
	return window > 0 && actual > 0 && actual >= window*98/100
}

// Fit chooses the messages to send so that their raw estimate fits in
// limit. tokens[i] is the raw estimate of history[i]. What it leaves out,
// oldest first: whole turns before the last user message, then, within the
// last turn, the oldest tool calls together with their results. It never
// leaves out a leading system message, the last user message or the
// latest tool call and its results, and never separates an assistant's
// tool calls from their results. It returns the kept messages (history
// itself when nothing is left out), how many it left out, and the raw
// estimate of the kept ones, which is more than limit when even the
// shortest history allowed does not fit.
func Fit(history []provider.Message, tokens []int, limit int) (kept []provider.Message, dropped, total int) {
	return FitDropping(history, tokens, limit, 0)
}

// FitDropping is Fit leaving out at least least messages, when there are
// that many to leave out: a request that keeps the messages an earlier
// one left out starts as that one did, so the engine can reuse its
// prompt cache. What Fit leaves out of a history it leaves out of the
// same history grown at its end too, so the least it drops is what was
// dropped before.
func FitDropping(history []provider.Message, tokens []int, limit, least int) (kept []provider.Message, dropped, total int) {
	for _, t := range tokens {
		total += t
	}
	if total <= limit && least <= 0 {
		return history, 0, total
	}
	units := droppable(history)
	drop := make([]bool, len(history))
	for _, u := range units {
		if total <= limit && dropped >= least {
			break
		}
		for i := u.start; i < u.end; i++ {
			drop[i] = true
			total -= tokens[i]
			dropped++
		}
	}
	kept = make([]provider.Message, 0, len(history)-dropped)
	for i, m := range history {
		if !drop[i] {
			kept = append(kept, m)
		}
	}
	return kept, dropped, total
}

// unit is a range of messages left out together.
type unit struct{ start, end int }

// droppable lists, oldest first, the ranges Fit may leave out.
func droppable(h []provider.Message) []unit {
	first := 0
	if len(h) > 0 && h[0].Role == provider.RoleSystem {
		first = 1
	}
	lastUser := -1
	for i := len(h) - 1; i >= first; i-- {
		if h[i].Role == provider.RoleUser {
			lastUser = i
			break
		}
	}
	var units []unit
	if lastUser < 0 {
		return nil
	}
	// Whole turns before the last user message: each runs from a user
	// message (or the start) to the next user message.
	start := first
	for i := first + 1; i <= lastUser; i++ {
		if h[i].Role == provider.RoleUser {
			if i > start {
				units = append(units, unit{start, i})
			}
			start = i
		}
	}
	// Within the last turn: each assistant message and the tool results
	// that follow it, except the latest such group.
	var groups []unit
	for i := lastUser + 1; i < len(h); {
		j := i + 1
		for j < len(h) && h[j].Role == provider.RoleTool {
			j++
		}
		groups = append(groups, unit{i, j})
		i = j
	}
	if len(groups) > 1 {
		units = append(units, groups[:len(groups)-1]...)
	}
	return units
}

// Cut shortens text to about limit bytes when it is longer, keeping its
// start and its end (where tools put totals and errors) and putting a
// visible "[… N bytes cut]" line between them. Cuts fall on line breaks
// when one is near, and never inside a UTF-8 character. A limit of 0 or
// less leaves text whole.
func Cut(text string, limit int) string {
	if limit <= 0 || len(text) <= limit {
		return text
	}
	headLen := limit * 2 / 3
	tailLen := limit - headLen
	head := text[:boundary(text, headLen, false, headLen/8)]
	tail := text[boundary(text, len(text)-tailLen, true, tailLen/8):]
	cut := len(text) - len(head) - len(tail)
	sep := "\n"
	if strings.HasSuffix(head, "\n") || head == "" {
		sep = ""
	}
	return fmt.Sprintf("%s%s[… %d bytes cut]\n%s", head, sep, cut, tail)
}

// boundary moves i to a line break within reach bytes, else to the
// nearest rune start. forward is true for the start of the kept tail,
// which may only move forward (the head's end only moves back), so the
// result never exceeds the budget.
func boundary(s string, i int, forward bool, reach int) int {
	i = min(max(i, 0), len(s))
	if forward {
		for j := i; j < len(s) && j < i+reach; j++ {
			if s[j] == '\n' {
				return j + 1
			}
		}
		for i < len(s) && !runeStart(s[i]) {
			i++
		}
		return i
	}
	for j := i; j > 0 && j > i-reach; j-- {
		if s[j-1] == '\n' {
			return j
		}
	}
	for i > 0 && i < len(s) && !runeStart(s[i]) {
		i--
	}
	return i
}

func runeStart(b byte) bool { return b&0xC0 != 0x80 }

// Short writes a token count for a person, short: 850, 1.2k, 19k. The
// chat's status line and the runner's errors say sizes the same way.
func Short(n int) string {
	switch {
	case n < 1000:
		return strconv.Itoa(n)
	case n < 10000:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/1000), ".0") + "k"
	}
	return fmt.Sprintf("%.0fk", float64(n)/1000)
}
