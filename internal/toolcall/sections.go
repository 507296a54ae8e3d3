package toolcall

import "strings"

// DeepSeek V3, V3.1 and R1 write calls between special tokens:
//
//	<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME
//	```json
//	{…}
//	```<｜tool▁call▁end｜><｜tool▁calls▁end｜>
//
// (V3 and R1), or <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>
// (V3.1). Kimi-K2 writes
//
//	<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0
//	<|tool_call_argument_begin|>{…}<|tool_call_end|><|tool_calls_section_end|>
//
// The tokens reach the text in several spellings (full-width or ASCII
// bars, ▁ or _), which sectionToken reads alike.

// sectionToken reads a token like <｜tool▁call▁begin｜> or
// <|tool_call_begin|> at s[i:] and returns its name with _ for ▁.
func sectionToken(s string, i int) (string, int, bool) {
	if i >= len(s) || s[i] != '<' {
		return "", i, false
	}
	bar := func(j int) int {
		switch {
		case strings.HasPrefix(s[j:], "｜"):
			return len("｜")
		case j < len(s) && s[j] == '|':
			return 1
		}
		return 0
	}
	j := i + 1
	b := bar(j)
	if b == 0 {
		return "", i, false
	}
	j += b
	var name [40]byte
	n := 0
	for j < len(s) && n < len(name) {
		if c := s[j]; c >= 'a' && c <= 'z' || c == '_' {
			name[n] = c
			j++
		} else if strings.HasPrefix(s[j:], "▁") {
			name[n] = '_'
			j += len("▁")
		} else {
			break
		}
		n++
	}
	b = bar(j)
	if n == 0 || b == 0 || j+b >= len(s) || s[j+b] != '>' {
		return "", i, false
	}
	return string(name[:n]), j + b + 1, true
}

// nextSectionToken finds the next token at or after i.
func nextSectionToken(s string, i int) (at int, name string, after int) {
	for {
		j := strings.IndexByte(s[i:], '<')
		if j < 0 {
			return -1, "", -1
		}
		if name, after, ok := sectionToken(s, i+j); ok {
			return i + j, name, after
		}
		i += j + 1
	}
}

// sectionSpan reads a DeepSeek or Kimi-K2 tool-call section at s[at:].
func sectionSpan(s string, at int) (span, bool) {
	var calls []Candidate
	i := at
	for {
		tok, next, ok := sectionToken(s, skipSpace(s, i))
		if !ok {
			break
		}
		switch tok {
		case "tool_calls_begin", "tool_calls_section_begin":
			i = next
			continue
		case "tool_call_begin":
			c, end, ok := sectionCall(s, next)
			if !ok {
				return span{}, false
			}
			calls = append(calls, c)
			i = end
			continue
		case "tool_calls_end", "tool_calls_section_end":
			i = next
		}
		break
	}
	return span{start: at, end: i, calls: calls}, len(calls) > 0
}

// sectionCall reads one call after its begin token.
func sectionCall(s string, i int) (Candidate, int, bool) {
	sepAt, sep, after := nextSectionToken(s, i)
	if sepAt < 0 {
		return Candidate{}, i, false
	}
	header := strings.TrimSpace(s[i:sepAt])
	var c Candidate
	var end int
	switch sep {
	case "tool_sep": // DeepSeek
		name, k := header, after
		if name == "function" || name == "" {
			// V3 and R1: the type before the separator, the name after.
			name, k = literalParser{s: s}.word(skipSpace(s, after))
		}
		if !isName(name) {
			return Candidate{}, i, false
		}
		args, stop, ok := deepseekArguments(s, k)
		if !ok {
			return Candidate{}, i, false
		}
		c, end = Candidate{Name: name, Arguments: args, Format: FormatDeepSeek}, stop
	case "tool_call_argument_begin": // Kimi-K2
		name := header
		if colon := strings.LastIndexByte(name, ':'); colon >= 0 {
			name = name[:colon]
		}
		name = strings.TrimPrefix(name, "functions.")
		if !isName(name) {
			return Candidate{}, i, false
		}
		v, stop, ok := parseValue(s, skipSpace(s, after))
		args, isMap := v.(map[string]any)
		if !ok || !isMap {
			return Candidate{}, i, false
		}
		c, end = Candidate{Name: name, Arguments: args, Format: FormatKimi}, stop
	default:
		return Candidate{}, i, false
	}
	end = skipSpace(s, end)
	if tok, next, ok := sectionToken(s, end); ok && tok == "tool_call_end" {
		end = next
	}
	return c, end, true
}

// deepseekArguments reads the arguments after a DeepSeek call's name: a
// JSON object, fenced or not.
func deepseekArguments(s string, k int) (map[string]any, int, bool) {
	k = skipSpace(s, k)
	fenced := strings.HasPrefix(s[k:], "```")
	if fenced {
		nl := strings.IndexByte(s[k:], '\n')
		if nl < 0 {
			return nil, k, false
		}
		k += nl + 1
	}
	v, end, ok := parseValue(s, k)
	args, isMap := v.(map[string]any)
	if !ok || !isMap {
		return nil, k, false
	}
	if fenced {
		e := skipSpace(s, end)
		end = e + len(prefixAt(s, e, "```"))
	}
	return args, end, true
}
