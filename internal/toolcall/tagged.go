package toolcall

import "strings"

// tagSpan reads the calls between an opening tag and its closing tag, or
// the next opening tag of the same kind, or the end: models often stop
// before closing.
func tagSpan(s string, at int, m marker) (span, bool) {
	body := at + len(m.open)
	// Bound the search by the next opening tag first, so that a reply
	// repeating a tag costs time in proportion to its length.
	end, next := len(s), len(s)
	if j := strings.Index(s[body:], m.open); j >= 0 {
		end, next = body+j, body+j
	}
	if j := strings.Index(s[body:end], m.close); j >= 0 {
		end, next = body+j, body+j+len(m.close)
	}
	calls, ok := parseBody(s[body:end], m.format)
	if !ok {
		return span{}, false
	}
	return span{start: at, end: next, calls: calls}, true
}

// parseBody reads the calls that fill the body of a call tag, in any of
// the grammars models write there: JSON (hermes, Qwen2.5-Coder, Nemotron,
// Granite), <function=…> (Qwen3-Coder), NAME<arg_key>… (GLM), call:NAME{…}
// (Gemma 4), <invoke …> (MiniMax-M2, DSML) or Python calls (LFM2, Llama 4).
// format names the calls written in JSON or Python. Anything in the body
// that is not a call makes it no call at all.
func parseBody(body, format string) ([]Candidate, bool) {
	t := strings.TrimSpace(body)
	var calls []Candidate
	i := 0
	for {
		i = skipFiller(t, i)
		if i >= len(t) {
			break
		}
		got, end, ok := bodyCall(t, i, format)
		if !ok {
			return nil, false
		}
		calls = append(calls, got...)
		i = end
	}
	return calls, len(calls) > 0
}

// skipFiller skips separators and filler tokens.
func skipFiller(t string, i int) int {
	for {
		j := fillerEnd(t, skipSeparators(t, i))
		if j == i {
			return i
		}
		i = j
	}
}

// bodyCall reads the call or calls at t[i:].
func bodyCall(t string, i int, format string) ([]Candidate, int, bool) {
	rest := t[i:]
	switch {
	case strings.HasPrefix(rest, "call:"):
		c, end, ok := gemmaCall(t, i)
		return []Candidate{c}, end, ok
	case strings.HasPrefix(rest, "<function="):
		c, end, ok := functionTag(t, i)
		return []Candidate{c}, end, ok
	}
	if p, ok := invokePrefix(rest); ok {
		c, end, ok := invokeCall(t, i, p)
		return []Candidate{c}, end, ok
	}
	if rest[0] == '{' || rest[0] == '[' || rest[0] == '"' || rest[0] == '\'' {
		if calls, end, ok := parseOne(t, i, format); ok {
			return calls, end, true
		}
		// A tag says a call is meant: mend JSON left unfinished.
		if fixed, ok := repairCallJSON(rest); ok {
			if calls, end, ok := parseOne(fixed, 0, format); ok && end == len(fixed) {
				return calls, len(t), true
			}
		}
		return nil, i, false
	}
	name, j := literalParser{s: t}.word(i)
	if name == "" {
		return nil, i, false
	}
	if j < len(t) && t[j] == '(' {
		c, end, ok := pythonCall(t, i, true)
		c.Format = format
		return []Candidate{c}, end, ok
	}
	c, end, ok := glmCall(t, i)
	return []Candidate{c}, end, ok
}
