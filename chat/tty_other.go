//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly && !windows

package chat

import "os"

// setEcho: terminal modes are not handled on this system.
func setEcho(*os.File, bool) (restore func()) { return noop }
