package toolcall

import (
	"strings"
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
}

// markers open a call in the formats that announce one. Text after such a
// marker is a call attempt wherever it appears.
var markers = [...]struct{ open, format string }{
	{"<tool_call>", FormatToolCallTag},
	{"<|tool_call|>", FormatPhi},
	{"[TOOL_CALLS]", FormatMistral},
	{"<|python_tag|>", FormatPythonTag},
	{"functools[", FormatFunctools},
}

// endTokens close a call region; they are dropped from the remaining text.
var endTokens = [...]string{"</tool_call>", "<|/tool_call|>", "<|eom_id|>", "<|eot_id|>", "<|im_end|>", "</s>"}

// Markers returns the strings that open a tool call written as text, for
// a renderer that holds back streamed text which may turn out to be one.
func Markers() []string {
	out := make([]string, len(markers))
	for i, m := range markers {
		out[i] = m.open
	}
	return out
}

// span is a region of the text that held calls.
type span struct {
	start, end int
	calls      []Candidate
}

// Extract finds the tool calls a model wrote as text in content, and
// returns them with the content that is left once their text is removed.
//
// Calls after a marker (<tool_call>, [TOOL_CALLS], <|python_tag|>,
// <|tool_call|>, functools[...]) are taken wherever they are. A fenced
// block, bare JSON or a bracketed Python call ([f(x=1)]) is taken only at
// the end of the message, with nothing but whitespace after it: a model that
// calls a tool stops there to wait for the result, while one that shows an
// example goes on writing. When nothing is found, calls is nil and rest is
// content unchanged.
func Extract(content string) (calls []Candidate, rest string) {
	spans := markerSpans(content)
	if len(spans) == 0 {
		spans = trailingFences(content)
	}
	if len(spans) == 0 {
		if s, ok := trailingBare(content); ok {
			spans = []span{s}
		}
	}
	if len(spans) == 0 {
		return nil, content
	}
	var b strings.Builder
	prev := 0
	for _, s := range spans {
		b.WriteString(content[prev:s.start])
		prev = s.end
		calls = append(calls, s.calls...)
	}
	b.WriteString(content[prev:])
	rest = b.String()
	for _, t := range endTokens {
		rest = strings.ReplaceAll(rest, t, "")
	}
	return calls, strings.TrimSpace(rest)
}

// markerSpans finds the calls that follow markers, in text order.
func markerSpans(s string) []span {
	var spans []span
	for i := 0; i < len(s); {
		at, m := nextMarker(s, i)
		if at < 0 {
			break
		}
		body := at + len(m.open)
		var sp span
		var ok bool
		switch m.format {
		case FormatToolCallTag, FormatPhi:
			sp, ok = taggedSpan(s, at, body, m.format)
		case FormatMistral:
			sp, ok = mistralSpan(s, at, body)
		case FormatPythonTag:
			sp, ok = sequenceSpan(s, at, body, m.format)
		case FormatFunctools:
			// The '[' is part of the marker and of the list.
			sp, ok = sequenceSpan(s, at, body-1, m.format)
		}
		if !ok {
			i = body
			continue
		}
		spans = append(spans, sp)
		i = sp.end
	}
	return spans
}

func nextMarker(s string, from int) (int, struct{ open, format string }) {
	best := -1
	var found struct{ open, format string }
	for _, m := range markers {
		if j := strings.Index(s[from:], m.open); j >= 0 && (best < 0 || from+j < best) {
			best, found = from+j, m
		}
	}
	return best, found
}

// taggedSpan reads the calls between an opening tag and its closing tag
// (or the next opening tag, or the end: models often stop before closing).
func taggedSpan(s string, at, body int, format string) (span, bool) {
	closeTag := "</tool_call>"
	if format == FormatPhi {
		closeTag = "<|/tool_call|>"
	}
	end := len(s)
	next := len(s)
	if j := strings.Index(s[body:], closeTag); j >= 0 {
		end, next = body+j, body+j+len(closeTag)
	}
	if j, _ := nextMarker(s, body); j >= 0 && j < end {
		end, next = j, j
	}
	calls, stop, ok := parseCalls(s[:end], body, format)
	if !ok || strings.TrimSpace(s[stop:end]) != "" {
		return span{}, false
	}
	return span{start: at, end: next, calls: calls}, true
}

// mistralSpan reads what follows [TOOL_CALLS]: a JSON list or object, or
// the newer name[ARGS]{...} form.
func mistralSpan(s string, at, body int) (span, bool) {
	i := skipSpace(s, body)
	if i < len(s) && (s[i] == '[' || s[i] == '{') {
		return sequenceSpan(s, at, i, FormatMistral)
	}
	name, j := literalParser{s: s}.word(i)
	if name == "" {
		return span{}, false
	}
	j = skipSpace(s, j)
	j += len(prefixAt(s, j, "[ARGS]"))
	v, end, ok := parseValue(s, j)
	args, isMap := v.(map[string]any)
	if !ok || !isMap {
		return span{}, false
	}
	return span{start: at, end: end, calls: []Candidate{{Name: name, Arguments: args, Format: FormatMistral}}}, true
}

// sequenceSpan reads one or more calls starting at i and ends the span
// where they end; what follows is the model's text again.
func sequenceSpan(s string, at, i int, format string) (span, bool) {
	calls, end, ok := parseCalls(s, i, format)
	if !ok {
		return span{}, false
	}
	return span{start: at, end: end, calls: calls}, true
}

// parseCalls reads calls from s at i: JSON objects or lists of them, or
// Python calls, separated by whitespace, commas or semicolons (llama 3.1
// writes several after one <|python_tag|> that way).
func parseCalls(s string, i int, format string) ([]Candidate, int, bool) {
	var calls []Candidate
	end := i
	for {
		j := skipSeparators(s, end)
		if j >= len(s) {
			break
		}
		got, stop, ok := parseOne(s, j, format)
		if !ok {
			break
		}
		calls = append(calls, got...)
		end = stop
	}
	return calls, end, len(calls) > 0
}

// parseOne reads one JSON call, a list of calls, or a Python call.
func parseOne(s string, i int, format string) ([]Candidate, int, bool) {
	if s[i] == '{' || s[i] == '[' {
		v, end, ok := parseValue(s, i)
		if !ok {
			if s[i] == '[' {
				return pythonList(s, i, format)
			}
			return nil, i, false
		}
		calls, ok := callsFromValue(v, format)
		return calls, end, ok
	}
	c, end, ok := pythonCall(s, i, true)
	if !ok {
		return nil, i, false
	}
	c.Format = format
	return []Candidate{c}, end, true
}

// callsFromValue accepts an object that is a call or a list of such.
func callsFromValue(v any, format string) ([]Candidate, bool) {
	switch v := v.(type) {
	case map[string]any:
		c, ok := callFromObject(v)
		if !ok {
			return nil, false
		}
		c.Format = format
		return []Candidate{c}, true
	case []any:
		if len(v) == 0 {
			return nil, false
		}
		var out []Candidate
		for _, e := range v {
			m, ok := e.(map[string]any)
			if !ok {
				return nil, false
			}
			c, ok := callFromObject(m)
			if !ok {
				return nil, false
			}
			c.Format = format
			out = append(out, c)
		}
		return out, true
	}
	return nil, false
}

// callFromObject reads {"name": ..., "arguments"|"parameters": {...}},
// also nested as OpenAI writes it ({"type": "function", "function":
// {...}}) and with the arguments as a JSON string.
func callFromObject(m map[string]any) (Candidate, bool) {
	if f, ok := m["function"].(map[string]any); ok {
		return callFromObject(f)
	}
	name, ok := m["name"].(string)
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return Candidate{}, false
	}
	raw, hasArgs := m["arguments"]
	if !hasArgs {
		raw, hasArgs = m["parameters"]
	}
	for k := range m {
		switch k {
		case "name", "arguments", "parameters", "type", "id":
		default:
			// Some other object that happens to have a "name".
			return Candidate{}, false
		}
	}
	args, ok := argumentsOf(raw)
	if !ok {
		return Candidate{}, false
	}
	return Candidate{Name: name, Arguments: args}, true
}

// argumentsOf accepts an object, nothing, or a string holding an object.
func argumentsOf(raw any) (map[string]any, bool) {
	switch a := raw.(type) {
	case nil:
		return map[string]any{}, true
	case map[string]any:
		return a, true
	case string:
		if strings.TrimSpace(a) == "" {
			return map[string]any{}, true
		}
		v, end, ok := parseValue(a, 0)
		m, isMap := v.(map[string]any)
		if !ok || !isMap || strings.TrimSpace(a[end:]) != "" {
			return nil, false
		}
		return m, true
	}
	return nil, false
}

// pythonCall reads name(key=value, ...), as gemma and llama 3.2 write
// calls; print(...) around it (gemma's tool_code style) is looked through.
// Positional arguments have no name to go by, so a call with them is not
// taken. unwrap allows one print(...) around the call.
func pythonCall(s string, i int, unwrap bool) (Candidate, int, bool) {
	p := literalParser{s: s}
	name, j := p.word(i)
	if name == "" || j >= len(s) || s[j] != '(' {
		return Candidate{}, i, false
	}
	if name == "print" && unwrap {
		c, end, ok := pythonCall(s, skipSpace(s, j+1), false)
		if !ok {
			return Candidate{}, i, false
		}
		end = skipSpace(s, end)
		if end >= len(s) || s[end] != ')' {
			return Candidate{}, i, false
		}
		return c, end + 1, true
	}
	args := map[string]any{}
	k := j + 1
	for {
		k = skipSpace(s, k)
		if k >= len(s) {
			return Candidate{}, i, false
		}
		if s[k] == ')' {
			return Candidate{Name: name, Arguments: args}, k + 1, true
		}
		key, after := p.word(k)
		after = skipSpace(s, after)
		if key == "" || after >= len(s) || s[after] != '=' {
			return Candidate{}, i, false
		}
		v, end, ok := p.value(after+1, 0)
		if !ok {
			return Candidate{}, i, false
		}
		args[key] = v
		k = skipSpace(s, end)
		if k < len(s) && s[k] == ',' {
			k++
		}
	}
}

// pythonList reads [f(a=1), g(b=2)].
func pythonList(s string, i int, format string) ([]Candidate, int, bool) {
	var out []Candidate
	k := i + 1
	for {
		k = skipSpace(s, k)
		if k >= len(s) {
			return nil, i, false
		}
		if s[k] == ']' {
			return out, k + 1, len(out) > 0
		}
		c, end, ok := pythonCall(s, k, false)
		if !ok {
			return nil, i, false
		}
		if format == FormatJSON {
			c.Format = FormatPython
		} else {
			c.Format = format
		}
		out = append(out, c)
		k = skipSpace(s, end)
		if k < len(s) && s[k] == ',' {
			k++
		}
	}
}

// callFenceLangs are the info strings of fenced blocks that may hold a
// call; a block in any other language is code the model shows.
var callFenceLangs = map[string]bool{
	"": true, "json": true, "json5": true, "tool_call": true, "tool_code": true, "tool": true,
	"function_call": true, "python": true, "py": true,
}

// trailingFences finds fenced blocks holding calls at the end of s (only
// whitespace after the last, and between them).
func trailingFences(s string) []span {
	var spans []span
	end := len(strings.TrimRight(s, " \t\r\n"))
	for {
		if end < 3 || s[end-3:end] != "```" {
			break
		}
		closeAt := end - 3
		open := strings.LastIndex(s[:closeAt], "```")
		if open < 0 {
			break
		}
		header := s[open+3:]
		nl := strings.IndexByte(header, '\n')
		if nl < 0 || open+3+nl >= closeAt {
			break
		}
		lang := strings.ToLower(strings.TrimSpace(header[:nl]))
		if !callFenceLangs[lang] {
			break
		}
		body := s[open+3+nl+1 : closeAt]
		calls, stop, ok := parseCalls(body, 0, FormatFenced)
		if !ok || strings.TrimSpace(body[stop:]) != "" {
			break
		}
		spans = append([]span{{start: open, end: end, calls: calls}}, spans...)
		end = len(strings.TrimRight(s[:open], " \t\r\n"))
	}
	return spans
}

// trailingBare finds calls written as bare JSON (or a bracketed Python
// list) that run to the end of s, starting at the beginning of a line.
func trailingBare(s string) (span, bool) {
	trimmed := strings.TrimRight(s, " \t\r\n")
	for i := 0; i < len(trimmed); {
		j := skipSpace(trimmed, i)
		if j < len(trimmed) && (trimmed[j] == '{' || trimmed[j] == '[') {
			calls, stop, ok := parseCalls(trimmed, j, FormatJSON)
			if ok && stop == len(trimmed) {
				return span{start: j, end: len(s), calls: calls}, true
			}
		}
		nl := strings.IndexByte(trimmed[i:], '\n')
		if nl < 0 {
			break
		}
		i += nl + 1
	}
	return span{}, false
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
