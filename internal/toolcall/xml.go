package toolcall

import "strings"

// The XML-like formats write each argument as text between tags; the
// values are typed later, by the tool's schema (Candidate.Text).

// functionSpan reads <function=…> calls written without a wrapping tag.
func functionSpan(s string, at int) (span, bool) {
	var calls []Candidate
	i := at
	for strings.HasPrefix(s[i:], "<function=") {
		c, end, ok := functionTag(s, i)
		if !ok {
			break
		}
		calls = append(calls, c)
		i = skipFiller(s, end)
		if !strings.HasPrefix(s[i:], "<function=") {
			i = end
		}
	}
	return span{start: at, end: i, calls: calls}, len(calls) > 0
}

// functionTag reads, at s[i:], Qwen3-Coder's
//
//	<function=NAME>
//	<parameter=KEY>
//	value
//	</parameter>
//	</function>
//
// also cut off before its closing tags, or Llama 3.1's
// <function=NAME>{…}</function>.
func functionTag(s string, i int) (Candidate, int, bool) {
	j := i + len("<function=")
	gt := tagEnd(s, j)
	if gt < 0 {
		return Candidate{}, i, false
	}
	name := strings.TrimSpace(strings.Trim(s[j:j+gt], `"'`))
	if !isName(name) {
		return Candidate{}, i, false
	}
	k := skipSpace(s, j+gt+1)
	if k < len(s) && s[k] == '{' {
		v, end, ok := parseValue(s, k)
		args, isMap := v.(map[string]any)
		if !ok || !isMap {
			return Candidate{}, i, false
		}
		end = skipSpace(s, end)
		end += len(prefixAt(s, end, "</function>"))
		return Candidate{Name: name, Arguments: args, Format: FormatFunctionTag}, end, true
	}
	c := Candidate{Name: name, Arguments: map[string]any{}, Format: FormatQwenXML, Text: true}
	for {
		k = skipSpace(s, k)
		switch {
		case strings.HasPrefix(s[k:], "<parameter="):
			ks := k + len("<parameter=")
			gt := tagEnd(s, ks)
			if gt < 0 {
				return Candidate{}, i, false
			}
			key := strings.TrimSpace(strings.Trim(s[ks:ks+gt], `"'`))
			if key == "" {
				return Candidate{}, i, false
			}
			vs := ks + gt + 1
			ve := valueEnd(s, vs, "</parameter>", "<parameter=", "</function>", "</tool_call>")
			c.Arguments[key] = trimNewline(s[vs:ve])
			k = ve + len(prefixAt(s, ve, "</parameter>"))
		case strings.HasPrefix(s[k:], "</function>"):
			return c, k + len("</function>"), true
		default:
			// The end of the text (a call cut off) or whatever follows;
			// the caller judges that.
			return c, k, true
		}
	}
}

// maxTagLength bounds the name and attributes of a tag, so that text
// full of unfinished tags is not searched to its end for each.
const maxTagLength = 512

// tagEnd returns the offset from s[i:] of the '>' (or line break) that
// ends a tag's name or attributes, or -1.
func tagEnd(s string, i int) int {
	return strings.IndexAny(s[i:min(len(s), i+maxTagLength)], ">\n")
}

// valueEnd returns where a value starting at s[from:] ends: at the first
// of the closing strings, or the end of s.
func valueEnd(s string, from int, closers ...string) int {
	for i := from; ; i++ {
		j := strings.IndexByte(s[i:], '<')
		if j < 0 {
			return len(s)
		}
		i += j
		for _, c := range closers {
			if strings.HasPrefix(s[i:], c) {
				return i
			}
		}
	}
}

// trimNewline drops the one line break templates put on each side of a
// value written on its own lines.
func trimNewline(v string) string {
	v = strings.TrimPrefix(v, "\r")
	v = strings.TrimPrefix(v, "\n")
	v = strings.TrimSuffix(v, "\n")
	return strings.TrimSuffix(v, "\r")
}

// invokePrefixes are the spellings of <invoke>: MiniMax-M2's plain one
// and DeepSeek's DSML, with its full-width bars or plain ones.
var invokePrefixes = [...]string{"", "｜DSML｜", "|DSML|"}

// invokePrefix reports the DSML prefix of an <invoke> tag at t.
func invokePrefix(t string) (string, bool) {
	for _, p := range invokePrefixes {
		if strings.HasPrefix(t, "<"+p+"invoke ") {
			return p, true
		}
	}
	return "", false
}

// invokeSpan reads <invoke> calls written without a wrapping tag.
func invokeSpan(s string, at int) (span, bool) {
	var calls []Candidate
	i := at
	for {
		p, ok := invokePrefix(s[i:])
		if !ok {
			break
		}
		c, end, ok := invokeCall(s, i, p)
		if !ok {
			break
		}
		calls = append(calls, c)
		i = end
		if j := skipFiller(s, i); strings.HasPrefix(s[j:], "<"+p+"invoke ") {
			i = j
		}
	}
	return span{start: at, end: i, calls: calls}, len(calls) > 0
}

// invokeCall reads, at s[i:],
//
//	<invoke name="NAME">
//	<parameter name="KEY">value</parameter>
//	</invoke>
//
// with p before each tag name (DSML: <｜DSML｜invoke …>). DSML marks a
// value written as JSON with string="false".
func invokeCall(s string, i int, p string) (Candidate, int, bool) {
	j := i + len("<"+p+"invoke")
	gt := tagEnd(s, j)
	if gt < 0 || s[j+gt] != '>' {
		return Candidate{}, i, false
	}
	name := attribute(s[j:j+gt], "name")
	if !isName(name) {
		return Candidate{}, i, false
	}
	format := FormatInvoke
	if p != "" {
		format = FormatDSML
	}
	c := Candidate{Name: name, Arguments: map[string]any{}, Format: format, Text: true}
	paramOpen, paramClose, invokeClose := "<"+p+"parameter ", "</"+p+"parameter>", "</"+p+"invoke>"
	k := j + gt + 1
	for {
		k = skipSpace(s, k)
		switch {
		case strings.HasPrefix(s[k:], paramOpen):
			gt := tagEnd(s, k)
			if gt < 0 || s[k+gt] != '>' {
				return Candidate{}, i, false
			}
			attrs := s[k+len(paramOpen) : k+gt]
			key := attribute(attrs, "name")
			if key == "" {
				return Candidate{}, i, false
			}
			vs := k + gt + 1
			ve := valueEnd(s, vs, paramClose, paramOpen, invokeClose)
			raw := trimNewline(s[vs:ve])
			var v any = raw
			if attribute(attrs, "string") == "false" {
				if parsed, end, ok := parseValue(raw, 0); ok && strings.TrimSpace(raw[end:]) == "" {
					v = parsed
				}
			}
			c.Arguments[key] = v
			k = ve + len(prefixAt(s, ve, paramClose))
		case strings.HasPrefix(s[k:], invokeClose):
			return c, k + len(invokeClose), true
		default:
			return c, k, true
		}
	}
}

// attribute returns the value of key="…" (or '…', or bare) in the
// attributes of a tag.
func attribute(attrs, key string) string {
	for i := 0; i < len(attrs); {
		i = skipSpace(attrs, i)
		eq := strings.IndexByte(attrs[i:], '=')
		if eq < 0 {
			return ""
		}
		k := strings.TrimSpace(attrs[i : i+eq])
		v := skipSpace(attrs, i+eq+1)
		var val string
		var next int
		if v < len(attrs) && (attrs[v] == '"' || attrs[v] == '\'') {
			end := strings.IndexByte(attrs[v+1:], attrs[v])
			if end < 0 {
				return ""
			}
			val, next = attrs[v+1:v+1+end], v+end+2
		} else {
			end := strings.IndexAny(attrs[v:], " \t\r\n")
			if end < 0 {
				end = len(attrs) - v
			}
			val, next = attrs[v:v+end], v+end
		}
		if k == key {
			return val
		}
		i = next
	}
	return ""
}

// glmCall reads GLM-4.5's call body at t[i:]:
//
//	NAME
//	<arg_key>KEY</arg_key>
//	<arg_value>value</arg_value>
//
// with any whitespace between the parts, or the name alone for a call
// without arguments.
func glmCall(t string, i int) (Candidate, int, bool) {
	name, k := literalParser{s: t}.word(i)
	if name == "" {
		return Candidate{}, i, false
	}
	c := Candidate{Name: name, Arguments: map[string]any{}, Format: FormatGLM, Text: true}
	k = skipSpace(t, k)
	if !strings.HasPrefix(t[k:], "<arg_key>") && skipFiller(t, k) < len(t) {
		// A word followed by something else: prose, not a call.
		return Candidate{}, i, false
	}
	for strings.HasPrefix(t[k:], "<arg_key>") {
		ks := k + len("<arg_key>")
		ke := strings.Index(t[ks:], "</arg_key>")
		if ke < 0 {
			return Candidate{}, i, false
		}
		key := strings.TrimSpace(t[ks : ks+ke])
		k = skipSpace(t, ks+ke+len("</arg_key>"))
		if key == "" || !strings.HasPrefix(t[k:], "<arg_value>") {
			return Candidate{}, i, false
		}
		vs := k + len("<arg_value>")
		ve := valueEnd(t, vs, "</arg_value>", "<arg_key>")
		c.Arguments[key] = trimNewline(t[vs:ve])
		k = skipSpace(t, ve+len(prefixAt(t, ve, "</arg_value>")))
	}
	return c, k, true
}
