package builtin

import (
	"strconv"
	"strings"
	"unicode"
)

// quotePath quotes a path for a message. %q would double every backslash
// of a Windows path (C:\\Users\\me); a plain path is shown as written, and
// only one holding a quote or a control character is escaped.
func quotePath(p string) string {
	if strings.ContainsRune(p, '"') || strings.IndexFunc(p, unicode.IsControl) >= 0 {
		return strconv.Quote(p)
	}
	return `"` + p + `"`
}
