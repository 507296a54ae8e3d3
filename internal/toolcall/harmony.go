package toolcall

import "strings"

// gpt-oss writes calls in OpenAI's harmony format; when the engine does
// not parse it, the message reaches the reply as text:
//
//	<|start|>assistant<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|>
//
// with the recipient also in the role part (<|start|>assistant
// to=functions.NAME<|channel|>commentary json<|message|>…), "json" glued
// to the name, or the special tokens dropped
// (commentary to=functions.NAME json{…}).

// harmonyHeaderWords may stand between the recipient and the message;
// harmonyLeadWords before the recipient, where the header starts.
var (
	harmonyHeaderWords = [...]string{"<|start|>", "<|channel|>", "<|constrain|>", "assistant", "commentary", "analysis", "json"}
	harmonyLeadWords   = [...]string{"<|start|>", "<|channel|>", "assistant", "commentary"}
)

// harmonySpan reads a call at the recipient "to=functions." at s[at:];
// the span starts where its message header does.
func harmonySpan(s string, at int) (span, bool) {
	name, k := literalParser{s: s}.word(at + len("to=functions."))
	if name == "" {
		return span{}, false
	}
	// Skip the rest of the header up to the message.
	j := k
	for range 8 {
		j = skipSpace(s, j)
		cut := false
		for _, w := range harmonyHeaderWords {
			if strings.HasPrefix(s[j:], w) {
				j, cut = j+len(w), true
				break
			}
		}
		if !cut {
			break
		}
	}
	if j == k && len(name) > len("json") && strings.HasSuffix(name, "json") {
		// "functions.shelljson<|message|>": the constraint glued on.
		name = name[:len(name)-len("json")]
	}
	j = skipSpace(s, j+len(prefixAt(s, j, "<|message|>")))
	if j >= len(s) || s[j] != '{' {
		return span{}, false
	}
	v, end, ok := parseValue(s, j)
	args, isMap := v.(map[string]any)
	if !ok || !isMap {
		return span{}, false
	}
	start := at
	for {
		before := strings.TrimRight(s[:start], " \t")
		cut := false
		for _, w := range harmonyLeadWords {
			if strings.HasSuffix(before, w) {
				start, cut = len(before)-len(w), true
				break
			}
		}
		if !cut {
			break
		}
	}
	return span{start: start, end: end, calls: []Candidate{{Name: name, Arguments: args, Format: FormatHarmony}}}, true
}
