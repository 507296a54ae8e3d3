//go:build windows

package builtin

import "strings"

// foldName is a file name as Windows compares it: without regard to case,
// and without the trailing dots and spaces it drops when it opens a file
// (".mcp.json." opens .mcp.json).
func foldName(name string) string {
	if trimmed := strings.TrimRight(name, ". "); trimmed != "" {
		name = trimmed
	}
	return strings.ToLower(name)
}
