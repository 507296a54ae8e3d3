package toolcall

// mistralSpan reads what follows [TOOL_CALLS]: a JSON list or object, or
// the newer NAME[ARGS]{…} form, with [CALL_ID]ID before [ARGS] in the
// tokenizers of Magistral and Devstral.
func mistralSpan(s string, at, body int) (span, bool) {
	i := skipSpace(s, body)
	if i < len(s) && (s[i] == '[' || s[i] == '{') {
		calls, end, ok := parseCalls(s, i, FormatMistral)
		return span{start: at, end: end, calls: calls}, ok
	}
	p := literalParser{s: s}
	name, j := p.word(i)
	if name == "" {
		return span{}, false
	}
	j = skipSpace(s, j)
	if id := prefixAt(s, j, "[CALL_ID]"); id != "" {
		_, j = p.word(j + len(id))
		j = skipSpace(s, j)
	}
	j += len(prefixAt(s, j, "[ARGS]"))
	v, end, ok := parseValue(s, j)
	args, isMap := v.(map[string]any)
	if !ok || !isMap {
		return span{}, false
	}
	return span{start: at, end: end, calls: []Candidate{{Name: name, Arguments: args, Format: FormatMistral}}}, true
}
