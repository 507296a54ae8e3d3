package toolcall

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// parseValue reads one JSON value from s starting at i, leniently: besides
// JSON it takes what models write when they imitate it from Python -
// single-quoted strings, True/False/None, unquoted keys and trailing
// commas - and the raw strings of Gemma's own call syntax, between two
// <|"|> (Gemma 4) or two <escape> (FunctionGemma). It returns the value and
// the index just after it.
func parseValue(s string, i int) (any, int, bool) {
	p := literalParser{s: s}
	v, end, ok := p.value(i, 0)
	return v, end, ok
}

// maxDepth bounds nesting, so hostile text cannot exhaust the stack.
const maxDepth = 64

// rawQuotes delimit strings whose text is taken as it is, without escapes:
// Gemma 4 and FunctionGemma write string arguments this way. Neither can
// start a JSON value, so accepting them everywhere changes nothing else.
var rawQuotes = [...]string{`<|"|>`, "<escape>"}

// rawString reads a string between two of the same raw quote at s[i:].
func rawString(s string, i int) (string, int, bool) {
	for _, q := range rawQuotes {
		if strings.HasPrefix(s[i:], q) {
			body := i + len(q)
			j := strings.Index(s[body:], q)
			if j < 0 {
				return "", i, false
			}
			return s[body : body+j], body + j + len(q), true
		}
	}
	return "", i, false
}

type literalParser struct{ s string }

func (p literalParser) skip(i int) int {
	for i < len(p.s) {
		switch p.s[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

func (p literalParser) value(i, depth int) (any, int, bool) {
	if depth > maxDepth {
		return nil, i, false
	}
	i = p.skip(i)
	if i >= len(p.s) {
		return nil, i, false
	}
	switch c := p.s[i]; {
	case c == '<':
		v, end, ok := rawString(p.s, i)
		return v, end, ok
	case c == '{':
		return p.object(i+1, depth)
	case c == '[':
		return p.array(i+1, depth)
	case c == '"' || c == '\'':
		return p.str(i)
	case c == '-' || c == '+' || (c >= '0' && c <= '9'):
		return p.number(i)
	default:
		word, end := p.word(i)
		switch word {
		case "true", "True":
			return true, end, true
		case "false", "False":
			return false, end, true
		case "null", "None":
			return nil, end, true
		}
		return nil, i, false
	}
}

func (p literalParser) object(i, depth int) (any, int, bool) {
	out := map[string]any{}
	for {
		i = p.skip(i)
		if i >= len(p.s) {
			return nil, i, false
		}
		if p.s[i] == '}' {
			return out, i + 1, true
		}
		var key string
		if k, end, ok := rawString(p.s, i); ok {
			key, i = k, end
		} else if c := p.s[i]; c == '"' || c == '\'' {
			k, end, ok := p.str(i)
			if !ok {
				return nil, i, false
			}
			key, i = k.(string), end
		} else {
			w, end := p.word(i)
			if w == "" {
				return nil, i, false
			}
			key, i = w, end
		}
		i = p.skip(i)
		if i >= len(p.s) || (p.s[i] != ':' && p.s[i] != '=') {
			return nil, i, false
		}
		v, end, ok := p.value(i+1, depth+1)
		if !ok {
			return nil, end, false
		}
		out[key] = v
		i = p.skip(end)
		if i < len(p.s) && p.s[i] == ',' {
			i++
			continue
		}
		if i < len(p.s) && p.s[i] == '}' {
			return out, i + 1, true
		}
		return nil, i, false
	}
}

func (p literalParser) array(i, depth int) (any, int, bool) {
	out := []any{}
	for {
		i = p.skip(i)
		if i >= len(p.s) {
			return nil, i, false
		}
		if p.s[i] == ']' {
			return out, i + 1, true
		}
		v, end, ok := p.value(i, depth+1)
		if !ok {
			return nil, end, false
		}
		out = append(out, v)
		i = p.skip(end)
		if i < len(p.s) && p.s[i] == ',' {
			i++
			continue
		}
		if i < len(p.s) && p.s[i] == ']' {
			return out, i + 1, true
		}
		return nil, i, false
	}
}

// str reads a string in double or single quotes with JSON's escapes (and
// \' in single quotes).
func (p literalParser) str(i int) (any, int, bool) {
	quote := p.s[i]
	var b strings.Builder
	for j := i + 1; j < len(p.s); {
		c := p.s[j]
		switch {
		case c == quote:
			return b.String(), j + 1, true
		case c == '\\' && j+1 < len(p.s):
			e := p.s[j+1]
			j += 2
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'u':
				if j+4 > len(p.s) {
					return nil, j, false
				}
				n, err := strconv.ParseUint(p.s[j:j+4], 16, 32)
				if err != nil {
					return nil, j, false
				}
				r := rune(n)
				j += 4
				// A surrogate pair is two \u escapes.
				if r >= 0xd800 && r < 0xdc00 && j+6 <= len(p.s) && p.s[j] == '\\' && p.s[j+1] == 'u' {
					if lo, err := strconv.ParseUint(p.s[j+2:j+6], 16, 32); err == nil && lo >= 0xdc00 && lo < 0xe000 {
						r = (r-0xd800)<<10 + (rune(lo) - 0xdc00) + 0x10000
						j += 6
					}
				}
				b.WriteRune(r)
			default: // \" \' \\ \/ and anything else kept as the character
				b.WriteByte(e)
			}
		default:
			_, size := utf8.DecodeRuneInString(p.s[j:])
			b.WriteString(p.s[j : j+size])
			j += size
		}
	}
	return nil, len(p.s), false
}

func (p literalParser) number(i int) (any, int, bool) {
	j := i
	for j < len(p.s) && strings.IndexByte("+-0123456789.eE", p.s[j]) >= 0 {
		j++
	}
	f, err := strconv.ParseFloat(strings.TrimPrefix(p.s[i:j], "+"), 64)
	if err != nil {
		return nil, i, false
	}
	return f, j, true
}

// word reads an identifier (letters, digits, _, - and .), as unquoted keys
// and Python names are written.
func (p literalParser) word(i int) (string, int) {
	j := i
	for j < len(p.s) {
		c := p.s[j]
		if c == '_' || c == '-' || c == '.' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') {
			j++
			continue
		}
		break
	}
	return p.s[i:j], j
}
