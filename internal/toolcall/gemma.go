package toolcall

// Gemma 4 writes <|tool_call>call:NAME{key:<|"|>text<|"|>,n:3}<tool_call|>
// and FunctionGemma <start_function_call>call:NAME{key:<escape>text<escape>}
// <end_function_call>: keys bare, strings between the raw quotes (which
// parseValue reads), other values as JSON.

// gemmaCall reads call:NAME{…} at t[i:].
func gemmaCall(t string, i int) (Candidate, int, bool) {
	name, k := literalParser{s: t}.word(i + len("call:"))
	if name == "" {
		return Candidate{}, i, false
	}
	k = skipSpace(t, k)
	if k >= len(t) || t[k] != '{' {
		return Candidate{}, i, false
	}
	v, end, ok := parseValue(t, k)
	args, isMap := v.(map[string]any)
	if !ok || !isMap {
		return Candidate{}, i, false
	}
	return Candidate{Name: name, Arguments: args, Format: FormatGemma}, end, true
}
