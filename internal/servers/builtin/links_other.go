//go:build !unix && !windows

package builtin

import "os"

// linkCount reports one link where the system cannot say (Plan 9 and
// WebAssembly have no hard links to count).
func linkCount(*os.File, os.FileInfo) (uint64, error) { return 1, nil }
