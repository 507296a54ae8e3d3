package toolcall

// pythonCall reads name(key=value, ...), as gemma, llama 3.2 and llama 4
// write calls; print(...) around it (gemma's tool_code style) is looked
// through. Positional arguments have no name to go by, so a call with them
// is not taken. unwrap allows one print(...) around the call.
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
