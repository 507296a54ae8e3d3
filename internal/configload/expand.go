package configload

import (
	"fmt"
	"strings"
)

// expandProblem says why a string could not be expanded. It is turned into
// an *Error by the caller, who knows the file, server and field.
type expandProblem struct {
	// variable is the unset variable, or empty for a syntax problem.
	variable string
	// syntax describes a malformed ${...}; it never quotes the text, which
	// may be part of a secret.
	syntax string
}

// message words the problem for the user; what names the field, e.g.
// "env GITHUB_TOKEN".
func (p *expandProblem) message(what string) string {
	if p.variable != "" {
		return fmt.Sprintf("%s uses ${%s}, which is not set: export %s or write ${%s:-default}",
			what, p.variable, p.variable, p.variable)
	}
	return what + " " + p.syntax
}

// expand replaces ${VAR}, ${VAR:-default}, ${env://VAR} and
// ${env://VAR:-default} in s with values from lookup. A default is used when
// the variable is unset or empty, as in the shell. "$$" and a "$" not
// followed by "{" are copied as they are, so "$${X}" stays "$${X}". Defaults
// are taken literally: they do not nest.
func expand(s string, lookup func(string) (string, bool)) (string, *expandProblem) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "$$"):
			b.WriteString("$$")
			i += 2
		case strings.HasPrefix(s[i:], "${"):
			end := strings.IndexByte(s[i+2:], '}')
			if end < 0 {
				return "", &expandProblem{syntax: `has "${" without a closing "}": write ${NAME} or ${NAME:-default}`}
			}
			value, p := expandOne(s[i+2:i+2+end], lookup)
			if p != nil {
				return "", p
			}
			b.WriteString(value)
			i += 2 + end + 1
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String(), nil
}

// expandOne resolves the text between "${" and "}".
func expandOne(expr string, lookup func(string) (string, bool)) (string, *expandProblem) {
	expr = strings.TrimPrefix(expr, "env://")
	name, def, hasDefault := strings.Cut(expr, ":-")
	if !isVarName(name) {
		return "", &expandProblem{syntax: `has a "${...}" without a valid variable name: use letters, digits and _, as in ${MY_VAR}`}
	}
	value, ok := lookup(name)
	if hasDefault && value == "" {
		return def, nil
	}
	if !ok {
		return "", &expandProblem{variable: name}
	}
	return value, nil
}

// isVarName reports whether name is a shell-style variable name.
func isVarName(name string) bool {
	if name == "" {
		return false
	}
	for i, c := range name {
		letter := c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}
