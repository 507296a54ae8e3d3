//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package chat

import (
	"os"

	"golang.org/x/sys/unix"
)

// The ioctl requests that read and set a terminal's modes on macOS and the
// BSDs.
const (
	ioctlGetTermios = unix.TIOCGETA
	ioctlSetTermios = unix.TIOCSETA
)

// flushRead is FREAD of <sys/fcntl.h>: TIOCFLUSH with it drops the input
// queue only.
const flushRead = 1

// discardInput drops what was typed but not yet read: keys typed before a
// question was drawn are not its answer. Not a terminal: nothing to drop.
func discardInput(f *os.File) {
	if f != nil {
		_ = unix.IoctlSetPointerInt(int(f.Fd()), unix.TIOCFLUSH, flushRead)
	}
}
