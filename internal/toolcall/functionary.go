package toolcall

// Functionary v3.2 writes each call as >>>NAME, a line break and the
// arguments as JSON; >>>all introduces text for the user. (Its v3.1, like
// Llama 3.1's own custom format, writes <function=NAME>{…}</function>,
// read with the Qwen3-Coder tags.)

// functionarySpan reads >>>NAME\n{…} at s[at:]. A Python prompt (">>> f(x)")
// has a space and no line break after the name, and is not read.
func functionarySpan(s string, at int) (span, bool) {
	name, k := literalParser{s: s}.word(at + len(">>>"))
	if name == "" || name == "all" {
		return span{}, false
	}
	for k < len(s) && (s[k] == ' ' || s[k] == '\t' || s[k] == '\r') {
		k++
	}
	if k >= len(s) || s[k] != '\n' {
		return span{}, false
	}
	k = skipSpace(s, k)
	if k >= len(s) || s[k] != '{' {
		return span{}, false
	}
	v, end, ok := parseValue(s, k)
	args, isMap := v.(map[string]any)
	if !ok || !isMap {
		return span{}, false
	}
	return span{start: at, end: end, calls: []Candidate{{Name: name, Arguments: args, Format: FormatFunctionary}}}, true
}
