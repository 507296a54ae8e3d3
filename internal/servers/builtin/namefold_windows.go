//go:build windows

package builtin

import "strings"

// foldName is a file name as Windows compares it: without regard to case,
// without the trailing dots and spaces it drops when it opens a file
// (".mcp.json." opens .mcp.json), and without a stream name (".mcp.json::$DATA"
// is the file's content itself).
func foldName(name string) string {
	if i := strings.IndexByte(name, ':'); i > 0 {
		name = name[:i]
	}
	if trimmed := strings.TrimRight(name, ". "); trimmed != "" {
		name = trimmed
	}
	return strings.ToLower(name)
}
