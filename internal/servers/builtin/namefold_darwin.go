//go:build darwin

package builtin

import "strings"

// foldName is a file name as macOS's usual file systems (APFS and HFS+,
// case-insensitive by default) compare it.
func foldName(name string) string { return strings.ToLower(name) }
