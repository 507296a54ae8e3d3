package toolcall

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The ways a call can be written as text, as Candidate.Format names them.
const (
	FormatJSON        = "JSON"
	FormatFenced      = "fenced block"
	FormatToolCallTag = "<tool_call>"
	FormatMistral     = "[TOOL_CALLS]"
	FormatPythonTag   = "<|python_tag|>"
	FormatPhi         = "<|tool_call|>"
	FormatFunctools   = "functools[…]"
	FormatPython      = "Python call"
	// FormatQwenXML is <function=NAME><parameter=KEY>value</parameter>
	// (Qwen3-Coder, Qwen3.5, Nemotron 3, Seed-OSS).
	FormatQwenXML = "<function=…><parameter=…>"
	// FormatFunctionTag is <function=NAME>{…}</function> (Llama 3.1's
	// custom format, functionary v3.1).
	FormatFunctionTag = "<function=…>{…}"
	// FormatQwenCoder is JSON in <tools> or <function> (Qwen2.5-Coder).
	FormatQwenCoder = "<tools>/<function>"
	FormatGLM       = "<arg_key>/<arg_value>"
	FormatDeepSeek  = "DeepSeek tool tokens"
	FormatDSML      = "DeepSeek DSML"
	FormatKimi      = "Kimi-K2 tool tokens"
	FormatHarmony   = "harmony"
	// FormatGemma is call:NAME{…} (Gemma 4, FunctionGemma).
	FormatGemma = "call:NAME{…}"
	// FormatInvoke is <invoke name=…><parameter name=…> (MiniMax-M2).
	FormatInvoke      = "<invoke>"
	FormatMiniMax     = "<tool_calls>"
	FormatNemotron    = "<TOOLCALL>"
	FormatCommandR    = "Command-R action"
	FormatFunctionary = ">>>NAME"
	FormatLFM2        = "<|tool_call_start|>"
	FormatLlama4      = "<|python_start|>"
)

// Candidate is a tool call found in a model's text. Whether it is one is
// decided by the caller: only a name that resolves to a real tool makes it
// a call.
type Candidate struct {
	// Name is the tool name as written.
	Name string
	// Arguments are never nil; a call written without arguments has {}.
	Arguments map[string]any
	// Format says how the call was written.
	Format string
	// Text is true when the format writes every argument as text (the
	// XML-style formats: <parameter=…>, <arg_value>, <invoke>): the
	// values are strings for the caller to type by the tool's schema
	// (Schema.TypeText).
	Text bool
}

// markerKind says how the text after a marker is read.
type markerKind int

const (
	// kindTag: calls between the marker and its closing tag (or the next
	// such marker, or the end: models stop before closing), read by
	// parseBody.
	kindTag markerKind = iota
	// kindSequence: calls follow the marker until they end.
	kindSequence
	kindMistral
	kindFunction
	kindInvoke
	kindSection
	kindHarmony
	kindAction
	kindFunctionary
)

type marker struct {
	open, close, format string
	kind                markerKind
}

// markers open a call in the formats that announce one. Where such a call
// counts is the standing rule's business (see Extract).
var markers = [...]marker{
	{"<tool_call>", "</tool_call>", FormatToolCallTag, kindTag},
	{"<|tool_call|>", "<|/tool_call|>", FormatPhi, kindTag},
	{"<TOOLCALL>", "</TOOLCALL>", FormatNemotron, kindTag},
	{"<tools>", "</tools>", FormatQwenCoder, kindTag},
	{"<function>", "</function>", FormatQwenCoder, kindTag},
	{"<tool_calls>", "</tool_calls>", FormatMiniMax, kindTag},
	{"<minimax:tool_call>", "</minimax:tool_call>", FormatInvoke, kindTag},
	{"<function_calls>", "</function_calls>", FormatInvoke, kindTag},
	{"<seed:tool_call>", "</seed:tool_call>", FormatQwenXML, kindTag},
	{"<|tool_call>", "<tool_call|>", FormatGemma, kindTag},
	{"<start_function_call>", "<end_function_call>", FormatGemma, kindTag},
	{"<|START_ACTION|>", "<|END_ACTION|>", FormatCommandR, kindTag},
	{"<|tool_call_start|>", "<|tool_call_end|>", FormatLFM2, kindTag},
	{"<|python_start|>", "<|python_end|>", FormatLlama4, kindTag},
	{"<｜DSML｜function_calls>", "</｜DSML｜function_calls>", FormatDSML, kindTag},
	{"<|DSML|function_calls>", "</|DSML|function_calls>", FormatDSML, kindTag},
	{"[TOOL_CALLS]", "", FormatMistral, kindMistral},
	{"<|python_tag|>", "", FormatPythonTag, kindSequence},
	{"functools[", "", FormatFunctools, kindSequence},
	{"<function=", "", FormatQwenXML, kindFunction},
	{"<invoke ", "", FormatInvoke, kindInvoke},
	{"<｜DSML｜invoke", "", FormatDSML, kindInvoke},
	{"<|DSML|invoke", "", FormatDSML, kindInvoke},
	// DeepSeek's tokens, also as engines and quantised models mangle
	// them, and Kimi-K2's; one reader tells them apart.
	{"<｜tool▁call", "", FormatDeepSeek, kindSection},
	{"<|tool▁call", "", FormatDeepSeek, kindSection},
	{"<｜tool_call", "", FormatDeepSeek, kindSection},
	{"<|tool_calls_begin|>", "", FormatDeepSeek, kindSection},
	{"<|tool_call_begin|>", "", FormatKimi, kindSection},
	{"<|tool_calls_section_begin|>", "", FormatKimi, kindSection},
	{"to=functions.", "", FormatHarmony, kindHarmony},
	{"Action:", "", FormatCommandR, kindAction},
	{">>>", "", FormatFunctionary, kindFunctionary},
}

// markersByFirst lists the markers by their first byte, so that scanning
// a reply costs one table lookup for most bytes and a byte comparison for
// the rest.
var markersByFirst = func() (t [256][]marker) {
	for _, m := range markers {
		t[m.open[0]] = append(t[m.open[0]], m)
	}
	return t
}()

// startsMarker marks the bytes some marker starts with.
var startsMarker = func() (t [256]bool) {
	for _, m := range markers {
		t[m.open[0]] = true
	}
	return t
}()

// Markers returns the strings that open a tool call written as text, for
// a renderer that holds back streamed text which may turn out to be one.
// Besides the markers Extract reads calls at, they include the tokens a
// gpt-oss message header starts with, as its recipient comes later.
func Markers() []string {
	out := make([]string, 0, len(markers)+2)
	for _, m := range markers {
		out = append(out, m.open)
	}
	return append(out, "<|start|>", "<|channel|>")
}

// span is a region of the text that held calls.
type span struct {
	start, end int
	calls      []Candidate
	// marked is true for calls opened by a marker (a tag or a special
	// token), false for a fenced block, bare JSON or a Python call.
	marked bool
}

// Extract finds the tool calls a model wrote as text in content, and
// returns them with the content that is left once their text is removed.
// When nothing is found, calls is nil and rest is content unchanged.
//
// Call syntax alone does not make a call: a model that calls a tool stops
// to wait for the result, while one that quotes a call (a tutorial, a log
// line, an example the user asked for) goes on writing. So a call counts
// only where it stands as one:
//
//   - It ends the reply: after it (and the calls right after it) come only
//     whitespace and end-of-turn tokens. It must also stand on its own:
//     at the start of a line, or after the end of a sentence or a colon
//     (not in the middle of one), not inside inline code or a fenced block
//     of code, and not on a line that introduces an example ("for
//     example", "looks like", "you can call", …).
//   - Or it opens the reply, written after a marker (a tag or special
//     token), with nothing before it but whitespace or the model's
//     thinking, and what follows starts a new sentence: the model called
//     and then talked on. Text that carries on the same sentence ("… is
//     the tag Qwen uses") makes it a quotation.
//
// The reply ends at a turn-ending token (<|im_end|>, </s>, <|call|>, …)
// outside code: what a model writes after it (a made-up tool result, the
// user's next turn) is dropped, not read.
//
// A fenced block counts as a whole when its language is one calls are
// written in (json, tool_code, python, none) and it holds nothing but JSON
// or Python calls; a call after a marker inside a fence is code shown.
// Bare JSON and bracketed Python calls ([f(x=1)]) count only by the first
// rule, starting a line or after a colon.
func Extract(content string) (calls []Candidate, rest string) {
	// What a model writes after ending its turn (a made-up tool result,
	// the user's next message) is not part of its reply.
	fs := findFences(content)
	reply := content[:turnEnd(content, fs)]
	fs = findFences(reply)
	var spans []span
	code := inlineCode{s: reply}
	for _, sp := range markerSpans(reply) {
		if !insideFence(fs, sp.start) && !code.inside(sp.start) {
			spans = append(spans, sp)
		}
	}
	spans = mergeSpans(spans, fenceSpans(reply, fs))
	from := 0
	if len(spans) > 0 {
		from = spans[len(spans)-1].end
	}
	if !isFiller(reply[from:]) {
		if sp, ok := trailingBare(reply, from, fs); ok {
			spans = append(spans, sp)
		}
	}
	chosen := standing(reply, spans)
	if len(chosen) == 0 {
		return nil, content
	}
	var b strings.Builder
	prev := 0
	for _, s := range chosen {
		b.WriteString(reply[prev:s.start])
		prev = fillerEnd(reply, s.end)
		calls = append(calls, s.calls...)
	}
	b.WriteString(reply[prev:])
	return calls, cleanRest(b.String())
}

// turnEnds end the model's turn, or its message to a tool (<|call|>,
// <|eom_id|>), or start the next turn: text after them was made up.
var turnEnds = [...]string{
	"<|im_end|>", "<|im_start|>", "<|eot_id|>", "<|eom_id|>", "<|start_header_id|>", "<|call|>", "<|return|>",
	"<|eot|>", "<|eom|>", "<|header_start|>",
	"<|endoftext|>", "<|end_of_text|>", "<end_of_turn>", "<turn|>", "</s>", "<|END_OF_TURN_TOKEN|>",
	"<｜end▁of▁sentence｜>",
}

// turnEnd returns where the model's reply ends: at the first turn-ending
// token after some text and outside code (where it is quoted), or at the
// end of s.
func turnEnd(s string, fs []fence) int {
	code := inlineCode{s: s}
	for i := skipSpace(s, 0) + 1; i < len(s); i++ {
		j := strings.IndexByte(s[i:], '<')
		if j < 0 {
			break
		}
		i += j
		for _, t := range turnEnds {
			if strings.HasPrefix(s[i:], t) && !code.inside(i) && !insideFence(fs, i) {
				return i
			}
		}
	}
	return len(s)
}

// markerSpans finds the calls that follow markers, in text order.
func markerSpans(s string) []span {
	var spans []span
	for i := 0; i < len(s); {
		at, m := nextMarker(s, i)
		if at < 0 {
			break
		}
		sp, ok := readMarker(s, at, m)
		if !ok {
			i = at + 1
			continue
		}
		spans = append(spans, sp)
		i = sp.end
	}
	return spans
}

// nextMarker finds the first marker at or after from.
func nextMarker(s string, from int) (int, marker) {
	for i := from; i < len(s); i++ {
		if !startsMarker[s[i]] {
			continue
		}
		for _, m := range markersByFirst[s[i]] {
			// Every marker is longer than two bytes: compare the second
			// before the rest.
			if len(s)-i >= len(m.open) && s[i+1] == m.open[1] && s[i:i+len(m.open)] == m.open {
				return i, m
			}
		}
	}
	return -1, marker{}
}

func readMarker(s string, at int, m marker) (span, bool) {
	body := at + len(m.open)
	var sp span
	var ok bool
	switch m.kind {
	case kindTag:
		sp, ok = tagSpan(s, at, m)
	case kindSequence:
		i := body
		if m.open == "functools[" {
			i-- // the '[' is part of the marker and of the list
		}
		var calls []Candidate
		var end int
		calls, end, ok = parseCalls(s, i, m.format)
		sp = span{start: at, end: end, calls: calls}
	case kindMistral:
		sp, ok = mistralSpan(s, at, body)
	case kindFunction:
		sp, ok = functionSpan(s, at)
	case kindInvoke:
		sp, ok = invokeSpan(s, at)
	case kindSection:
		sp, ok = sectionSpan(s, at)
	case kindHarmony:
		sp, ok = harmonySpan(s, at)
	case kindAction:
		sp, ok = actionSpan(s, at)
	case kindFunctionary:
		sp, ok = functionarySpan(s, at)
	}
	sp.marked = true
	return sp, ok && sp.end > at
}

// mergeSpans merges two lists of spans in text order, dropping any span
// that overlaps one before it.
func mergeSpans(a, b []span) []span {
	out := make([]span, 0, len(a)+len(b))
	for len(a) > 0 || len(b) > 0 {
		var next span
		if len(b) == 0 || (len(a) > 0 && a[0].start <= b[0].start) {
			next, a = a[0], a[1:]
		} else {
			next, b = b[0], b[1:]
		}
		if len(out) > 0 && next.start < out[len(out)-1].end {
			continue
		}
		out = append(out, next)
	}
	return out
}

// standing keeps the spans that stand as calls (see Extract).
func standing(s string, spans []span) []span {
	if len(spans) == 0 {
		return nil
	}
	// A run is calls with nothing but filler between them.
	type run struct{ first, last int }
	runs := []run{{0, 0}}
	for i := 1; i < len(spans); i++ {
		if isFiller(s[spans[i-1].end:spans[i].start]) {
			runs[len(runs)-1].last = i
			continue
		}
		runs = append(runs, run{i, i})
	}
	first, last := runs[0], runs[len(runs)-1]
	takeLast := isFiller(s[spans[last.last].end:]) &&
		standsAlone(s, spans[last.first].start) &&
		!introducesExample(s, spans[last.first].start)
	takeFirst := spans[first.first].marked &&
		opensReply(s[:spans[first.first].start]) &&
		startsSentence(s[spans[first.last].end:])
	var out []span
	if takeFirst {
		out = append(out, spans[first.first:first.last+1]...)
	}
	if takeLast && (!takeFirst || last != first) {
		out = append(out, spans[last.first:last.last+1]...)
	}
	return out
}

// fillerTokens close a call or end the model's turn; text made only of
// them and whitespace is nothing the model said.
var fillerTokens = [...]string{
	"</tool_call>", "<|/tool_call|>", "</TOOLCALL>", "</tools>", "</function>", "</tool_calls>",
	"</minimax:tool_call>", "</function_calls>", "</seed:tool_call>", "<tool_call|>", "<end_function_call>",
	"<|END_ACTION|>", "<|tool_call_end|>", "<|python_end|>",
	"<|eom_id|>", "<|eot_id|>", "<|eot|>", "<|eom|>", "<|im_end|>", "</s>", "<|end|>", "<|call|>", "<|return|>",
	"<|endoftext|>", "<|end_of_text|>", "<end_of_turn>", "<turn|>", "<|END_OF_TURN_TOKEN|>",
	"<｜end▁of▁sentence｜>", "<｜tool▁calls▁end｜>", "<|tool_calls_section_end|>",
}

// isFiller reports whether t holds only whitespace and filler tokens.
func isFiller(t string) bool {
	return fillerEnd(t, 0) == len(t)
}

// standsAlone reports whether the text at start begins a line, or follows
// the end of a sentence, a colon or a closing tag, rather than being part
// of a sentence.
func standsAlone(s string, start int) bool {
	before := strings.TrimRight(s[:start], " \t")
	if before == "" || before[len(before)-1] == '\n' {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(before)
	return strings.ContainsRune(".:!?>。：！？", r)
}

// examplePhrases, on the line that leads to a call, make it an example:
// the model shows how a call is written or how the user would make it.
var examplePhrases = [...]string{
	"example", "e.g.", "for instance", "sample", "looks like", "look like", "would look", "would be",
	"syntax", "format", "template", "how to", "here's how", "here is how", "writes:",
	"you can call", "you could call", "you would call", "you'd call",
	"you can use", "you could use", "you would use", "you'd use",
}

// introducesExample reports whether the line that leads to s[start] (the
// text before it on its line, else the last line before it with text)
// introduces an example.
func introducesExample(s string, start int) bool {
	lead := s[:start]
	for {
		nl := strings.LastIndexByte(lead, '\n')
		line := lead[nl+1:]
		if strings.TrimSpace(line) != "" || nl < 0 {
			lead = line
			break
		}
		lead = lead[:nl]
	}
	low := strings.ToLower(lead)
	for _, p := range examplePhrases {
		if strings.Contains(low, p) {
			return true
		}
	}
	return false
}

// opensReply reports whether before holds nothing the model said to the
// user: whitespace, or its thinking up to </think>.
func opensReply(before string) bool {
	t := strings.TrimSpace(before)
	return t == "" || strings.HasSuffix(t, "</think>") || strings.HasSuffix(t, "<|end|>") || strings.HasSuffix(t, "<|END_THINKING|>")
}

// startsSentence reports whether after, the text that follows a call, is
// nothing or starts a new sentence rather than carrying on the one the
// call would be part of.
func startsSentence(after string) bool {
	t := strings.TrimLeft(after, " \t")
	if t == "" || t[0] == '\n' || t[0] == '\r' || isFiller(t) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(t)
	// Punctuation that goes on from the call ("…</tool_call>, which",
	// "… (the Qwen tag)", "… — that is") makes it part of the sentence.
	return !unicode.IsLower(r) && !strings.ContainsRune(",;:()-–—", r)
}

// inlineCode tells whether positions of s, asked in increasing order, are
// inside `inline code`: after an odd number of backticks on their line.
type inlineCode struct {
	s     string
	pos   int
	ticks int // backticks from the start of pos's line to pos
}

func (c *inlineCode) inside(at int) bool {
	for {
		nl := strings.IndexByte(c.s[c.pos:at], '\n')
		if nl < 0 {
			break
		}
		c.pos, c.ticks = c.pos+nl+1, 0
	}
	c.ticks += strings.Count(c.s[c.pos:at], "`")
	c.pos = at
	return c.ticks%2 == 1
}

// cleanRest tidies what is left of a reply whose calls were taken out:
// end tokens and the model's leaked thinking are not part of its answer.
func cleanRest(rest string) string {
	// strings.Index is much faster than LastIndex: look before searching
	// backwards.
	if strings.Contains(rest, "</think>") {
		rest = rest[strings.LastIndex(rest, "</think>")+len("</think>"):]
	}
	// gpt-oss: a leaked analysis message is thinking; headers are noise.
	for {
		i := strings.Index(rest, "<|channel|>analysis<|message|>")
		if i < 0 {
			break
		}
		j := strings.Index(rest[i:], "<|end|>")
		if j < 0 {
			rest = rest[:i]
			break
		}
		rest = rest[:i] + rest[i+j+len("<|end|>"):]
	}
	for _, h := range [...]string{"<|start|>assistant", "<|channel|>final<|message|>", "<|channel|>commentary<|message|>"} {
		rest = strings.ReplaceAll(rest, h, "")
	}
	return strings.TrimSpace(rest)
}

// fillerEnd returns where the whitespace and filler tokens from s[i:]
// end.
func fillerEnd(s string, i int) int {
	for {
		i = skipSpace(s, i)
		cut := false
		for _, tok := range fillerTokens {
			if strings.HasPrefix(s[i:], tok) {
				i, cut = i+len(tok), true
				break
			}
		}
		if !cut {
			return i
		}
	}
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

func skipSeparators(s string, i int) int {
	for i < len(s) && strings.IndexByte(" \t\r\n,;", s[i]) >= 0 {
		i++
	}
	return i
}

func prefixAt(s string, i int, p string) string {
	if strings.HasPrefix(s[i:], p) {
		return p
	}
	return ""
}

// isName reports whether s can be a tool name as models write one.
func isName(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	w, end := literalParser{s: s}.word(0)
	return w != "" && end == len(s)
}
