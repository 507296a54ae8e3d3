package toolcall

import "strings"

// fence is a fenced code block: ``` at the start of a line (or after
// Command-R's "Action:"), up to the next ```, or the end of the text.
type fence struct {
	start, end         int // the whole block, backticks included
	bodyStart, bodyEnd int
	lang               string
}

// findFences lists the fenced blocks of s in order.
func findFences(s string) []fence {
	var out []fence
	for i := 0; i < len(s); {
		lineEnd := len(s)
		if nl := strings.IndexByte(s[i:], '\n'); nl >= 0 {
			lineEnd = i + nl
		}
		t := strings.TrimLeft(s[i:lineEnd], " \t")
		if a, ok := strings.CutPrefix(t, "Action:"); ok {
			t = strings.TrimLeft(a, " \t")
		}
		if !strings.HasPrefix(t, "```") {
			i = lineEnd + 1
			continue
		}
		f := fence{start: lineEnd - len(t), bodyStart: min(lineEnd+1, len(s)), lang: strings.ToLower(strings.TrimSpace(strings.TrimLeft(t, "`")))}
		// Models close a block on the line of its last text as well.
		closeAt := strings.Index(s[f.bodyStart:], "```")
		if closeAt < 0 {
			f.bodyEnd, f.end = len(s), len(s)
			out = append(out, f)
			break
		}
		f.bodyEnd = f.bodyStart + closeAt
		f.end = f.bodyEnd + 3
		for f.end < len(s) && s[f.end] == '`' {
			f.end++
		}
		out = append(out, f)
		i = f.end
		if nl := strings.IndexByte(s[i:], '\n'); nl >= 0 {
			i += nl + 1
		} else {
			break
		}
	}
	return out
}

func insideFence(fs []fence, at int) bool {
	for _, f := range fs {
		if at > f.start && at < f.end {
			return true
		}
	}
	return false
}

// callFenceLangs are the info strings of fenced blocks that may hold a
// call; a block in any other language is code the model shows.
var callFenceLangs = map[string]bool{
	"": true, "json": true, "json5": true, "tool_call": true, "tool_calls": true, "tool_code": true,
	"tool": true, "function_call": true, "python": true, "py": true,
}

// fenceSpans returns the fenced blocks, in a language calls are written
// in, that hold nothing but calls.
func fenceSpans(s string, fs []fence) []span {
	var out []span
	for _, f := range fs {
		if !callFenceLangs[f.lang] {
			continue
		}
		calls, ok := callsFilling(s[f.bodyStart:f.bodyEnd], FormatFenced)
		if !ok {
			continue
		}
		start := f.start
		// Command-R writes "Action: ```json": the word is part of the call.
		if before := strings.TrimRight(s[:start], " \t"); strings.HasSuffix(before, "Action:") {
			start = len(before) - len("Action:")
		}
		out = append(out, span{start: start, end: f.end, calls: calls})
	}
	return out
}

// callsFilling reads the calls that fill text entirely: JSON or Python
// calls. Calls after markers (special tokens, tags) are not taken from a
// fenced block: models write those raw, and fence them only to show them.
func callsFilling(text, format string) ([]Candidate, bool) {
	t := strings.TrimSpace(text)
	if t == "" {
		return nil, false
	}
	calls, stop, ok := parseCalls(t, 0, format)
	if !ok || skipSeparators(t, stop) != len(t) {
		return nil, false
	}
	return calls, true
}

// trailingBare finds calls written as bare JSON (or a bracketed Python
// list) that run to the end of s, starting at the beginning of a line, or
// after a colon ("Sure, here it is: {…}"), at or after from, outside
// fenced blocks.
func trailingBare(s string, from int, fs []fence) (span, bool) {
	trimmed := strings.TrimRight(s, " \t\r\n")
	try := func(j int) (span, bool) {
		if j >= len(trimmed) || (trimmed[j] != '{' && trimmed[j] != '[') || insideFence(fs, j) {
			return span{}, false
		}
		calls, stop, ok := parseCalls(trimmed, j, FormatJSON)
		if !ok || stop != len(trimmed) {
			return span{}, false
		}
		return span{start: j, end: len(s), calls: calls}, true
	}
	for i := from; i < len(trimmed); {
		lineEnd := len(trimmed)
		if nl := strings.IndexByte(trimmed[i:], '\n'); nl >= 0 {
			lineEnd = i + nl
		}
		if i == 0 || trimmed[i-1] == '\n' {
			if sp, ok := try(skipSpace(trimmed, i)); ok {
				return sp, true
			}
		}
		if c := strings.Index(trimmed[i:lineEnd], ": "); c >= 0 {
			if sp, ok := try(skipSpace(trimmed, i+c+1)); ok {
				return sp, true
			}
		}
		i = lineEnd + 1
	}
	return span{}, false
}
