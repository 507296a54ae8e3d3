package runner

import (
	"strings"

	"github.com/mcphost/mcphost/internal/toolcall"
	"github.com/mcphost/mcphost/provider"
)

// holdback streams a reply's text to the renderer, except text that may be
// a tool call written as text: from a call marker anywhere, a line that
// starts with '{', '[' or a code fence, or '{' or '[' after ": ", it holds
// the rest of the reply back until the reply is complete. The user then
// sees either the text (it was not a call) or nothing of it (it was, and
// the tool line shows the call).
type holdback struct {
	emit    func(Event)
	active  bool // tools were offered, so replies may hold calls
	text    strings.Builder
	emitted int // bytes of text already sent
	holding bool
	// markers are toolcall's call markers by their first byte, so that
	// a byte that starts none costs one lookup.
	markers *[256][]string
}

func newHoldback(emit func(Event), active bool, markers *[256][]string) *holdback {
	return &holdback{emit: emit, active: active, markers: markers}
}

// markerIndex indexes toolcall's call markers by their first byte.
func markerIndex() *[256][]string {
	var idx [256][]string
	for _, m := range toolcall.Markers() {
		idx[m[0]] = append(idx[m[0]], m)
	}
	return &idx
}

func (h *holdback) delta(d provider.Delta) {
	if d.Thinking != "" {
		h.emit(ThinkingDelta{Text: d.Thinking})
	}
	if d.Content == "" {
		return
	}
	if !h.active {
		h.emit(TextDelta{Text: d.Content})
		return
	}
	h.text.WriteString(d.Content)
	if h.holding {
		return
	}
	s := h.text.String()
	stop := h.safeEnd(s)
	if stop > h.emitted {
		h.emit(TextDelta{Text: s[h.emitted:stop]})
		h.emitted = stop
	}
}

// safeEnd returns how far s may be sent: up to the first place a call may
// start (entering holding when it surely does), or up to a trailing piece
// that may be the start of a marker still being written.
func (h *holdback) safeEnd(s string) int {
	for i := h.emitted; i < len(s); i++ {
		c := s[i]
		for _, m := range h.markers[c] {
			switch {
			case strings.HasPrefix(s[i:], m):
				h.holding = true
				return i
			case strings.HasPrefix(m, s[i:]):
				return i // the marker may be arriving
			}
		}
		if (c == '{' || c == '[') && afterColon(s, i) {
			// "Sure, here it is: {…}": bare JSON after a colon.
			h.holding = true
			return i
		}
		if (c == '{' || c == '[' || c == '`') && lineStart(s, i) {
			if c != '`' {
				h.holding = true
				return i
			}
			switch {
			case strings.HasPrefix(s[i:], "```"):
				h.holding = true
				return i
			case strings.HasPrefix("```", s[i:]):
				return i
			}
		}
	}
	return len(s)
}

// lineStart reports whether only spaces or tabs precede s[i] on its line.
func lineStart(s string, i int) bool {
	for j := i - 1; j >= 0; j-- {
		switch s[j] {
		case ' ', '\t':
			continue
		case '\n':
			return true
		default:
			return false
		}
	}
	return true
}

// afterColon reports whether s[i] follows a colon and spaces on its line.
func afterColon(s string, i int) bool {
	j := i - 1
	for j >= 0 && (s[j] == ' ' || s[j] == '\t') {
		j--
	}
	return j >= 0 && j < i-1 && s[j] == ':'
}

// finish sends what was held back once the reply is complete. content is
// the reply's text as it goes into the history: without the calls' text
// when calls were recovered from it.
func (h *holdback) finish(content string, recovered bool) {
	if !h.active {
		return
	}
	s := h.text.String()
	if !recovered {
		if h.emitted < len(s) {
			h.emit(TextDelta{Text: s[h.emitted:]})
		}
		return
	}
	// The calls' text is gone from content; send whatever text of the
	// reply is left that the user has not seen yet.
	sent := strings.TrimSpace(s[:h.emitted])
	if rest, ok := strings.CutPrefix(content, sent); ok {
		if rest = strings.TrimSpace(rest); rest != "" {
			if sent != "" {
				rest = "\n" + rest
			}
			h.emit(TextDelta{Text: rest})
		}
	}
}
