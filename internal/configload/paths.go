package configload

import (
	"path/filepath"
	"strings"
)

// homeRelative returns path with a leading "~/" (or "~\\" on Windows)
// replaced by home, and whether it had one. A lone "~" is home itself.
func homeRelative(path, home string) (string, bool) {
	if home == "" {
		return path, false
	}
	if path == "~" {
		return home, true
	}
	if strings.HasPrefix(path, "~/") || strings.HasPrefix(path, "~"+string(filepath.Separator)) {
		return filepath.Join(home, path[2:]), true
	}
	return path, false
}
