package configload

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// maxRelocateLines bounds the re-parsing yamlProblem does: config files
// are small, and a huge one keeps yaml's own line.
const maxRelocateLines = 2000

// yamlProblem words err, yaml's error for data, as "line N: problem". yaml
// names the line where the enclosing block or list began rather than the
// line at fault (a bad indent on line 4 of a mapping begun on line 2 is
// "line 1"), so the line is found again: mistakes that more text cannot
// repair make every longer prefix of the file fail, so the line after the
// longest prefix that still parses is the first that the mistake can be
// on. yaml's line is a lower bound too (it never names a later line), and
// inside a list or string left open across lines it is the better one.
func yamlProblem(data []byte, err error) string {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		// Type errors (a key given twice) name their own lines rightly.
		return strings.Join(te.Errors, "; ")
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if num, rest, ok := strings.Cut(strings.TrimPrefix(msg, "line "), ": "); ok && strings.HasPrefix(msg, "line ") {
		if n, err := strconv.Atoi(num); err == nil {
			line, msg = n, rest
		}
	}
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) <= maxRelocateLines {
		// Prefixes shorter than yaml's line cannot move it.
		for n := len(lines) - 1; n >= line; n-- {
			var doc any
			if yaml.Unmarshal([]byte(strings.Join(lines[:n], "")), &doc) == nil {
				line = max(line, n+1)
				break
			}
		}
	}
	if line == 0 {
		return msg
	}
	return fmt.Sprintf("line %d: %s", line, msg)
}
