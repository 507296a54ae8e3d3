package toolcall

import (
	"strings"
)

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

// callsFromValue accepts an object that is a call, a list of such, or
// xLAM's {"tool_calls": [...]}.
func callsFromValue(v any, format string) ([]Candidate, bool) {
	switch v := v.(type) {
	case map[string]any:
		if list, ok := v["tool_calls"].([]any); ok {
			for k := range v {
				if k != "tool_calls" && k != "thought" && k != "content" {
					return nil, false
				}
			}
			return callsFromValue(list, format)
		}
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

// callFromObject reads {"name": ..., "arguments"|"parameters"|"args":
// {...}}, also nested as OpenAI writes it ({"type": "function",
// "function": {...}}), as Command-R writes it ({"tool_name": ...,
// "parameters": ...}) and with the arguments as a JSON string.
func callFromObject(m map[string]any) (Candidate, bool) {
	if f, ok := m["function"].(map[string]any); ok {
		return callFromObject(f)
	}
	name, ok := m["name"].(string)
	if !ok {
		name, ok = m["tool_name"].(string)
	}
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return Candidate{}, false
	}
	var raw any
	found := 0
	for k, v := range m {
		switch k {
		case "arguments", "parameters", "args":
			raw = v
			found++
		case "name", "tool_name", "type", "id", "tool_call_id", "call_id":
		default:
			// Some other object that happens to have a "name" (a tool's
			// definition has a "description").
			return Candidate{}, false
		}
	}
	if found > 1 {
		return Candidate{}, false
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

// repairCallJSON mends the hermes JSON small models leave unfinished
// inside a call tag, where the tag already says a call is meant: the outer
// brace missing at the start ("name": …) or braces and brackets left open
// at the end. A string left open is not mended: its end is unknown.
func repairCallJSON(t string) (string, bool) {
	if strings.HasPrefix(t, `"name"`) || strings.HasPrefix(t, `'name'`) {
		t = "{" + t
	}
	if t == "" || t[0] != '{' {
		return "", false
	}
	var open []byte
	var quote byte
	for i := 0; i < len(t); i++ {
		c := t[i]
		if quote != 0 {
			switch c {
			case '\\':
				i++
			case quote:
				quote = 0
			}
			continue
		}
		switch c {
		case '"', '\'':
			quote = c
		case '{':
			open = append(open, '}')
		case '[':
			open = append(open, ']')
		case '}', ']':
			if len(open) == 0 || open[len(open)-1] != c {
				return "", false
			}
			open = open[:len(open)-1]
		}
	}
	if quote != 0 {
		return "", false
	}
	var b strings.Builder
	b.WriteString(strings.TrimRight(t, " \t\r\n,"))
	for i := len(open) - 1; i >= 0; i-- {
		b.WriteByte(open[i])
	}
	return b.String(), true
}
