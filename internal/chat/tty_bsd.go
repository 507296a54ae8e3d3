//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package chat

import "golang.org/x/sys/unix"

// The ioctl requests that read and set a terminal's modes on macOS and the
// BSDs.
const (
	ioctlGetTermios = unix.TIOCGETA
	ioctlSetTermios = unix.TIOCSETA
)
