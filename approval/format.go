package approval

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/mcphost/mcphost/termtext"
)

// clean makes text safe to show on a terminal for a human to judge:
// termtext.Clean, then tabs as spaces (so that folding counts right) and
// bidirectional overrides removed, since they can make text read
// differently from what it is.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case isBidiControl(r):
			return -1
		}
		return r
	}, termtext.Clean(s))
}

func isBidiControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) || r == 0x200E || r == 0x200F
}

// FormatArguments renders a call's arguments in full for a human to judge:
// one "key: value" per argument, sorted by key, strings as they are and
// other values as JSON, cleaned for the terminal, and lines longer than width
// folded onto indented continuation lines rather than cut, so nothing is
// hidden. width 0 means 80.
func FormatArguments(args map[string]any, width int) string {
	if width <= 0 {
		width = 80
	}
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		var text string
		if s, ok := args[k].(string); ok {
			text = s
		} else {
			raw, err := json.Marshal(args[k])
			if err != nil {
				raw = []byte("(not representable)")
			}
			text = string(raw)
		}
		head := clean(k) + ": "
		lines := strings.Split(clean(text), "\n")
		for i, line := range lines {
			prefix := "  "
			if i == 0 {
				prefix = head
			}
			fold(&b, prefix, line, width)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// fold writes prefix+line, broken into rows of at most width runes; rows
// after the first are indented by two spaces.
func fold(b *strings.Builder, prefix, line string, width int) {
	row := []rune(prefix)
	for _, r := range line {
		if len(row) >= width {
			b.WriteString(string(row))
			b.WriteByte('\n')
			row = []rune("  ")
		}
		row = append(row, r)
	}
	b.WriteString(string(row))
	b.WriteByte('\n')
}
