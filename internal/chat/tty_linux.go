package chat

import (
	"os"

	"golang.org/x/sys/unix"
)

// The ioctl requests that read and set a terminal's modes on Linux.
const (
	ioctlGetTermios = unix.TCGETS
	ioctlSetTermios = unix.TCSETS
)

// discardInput drops what was typed but not yet read: keys typed before a
// question was drawn are not its answer. Not a terminal: nothing to drop.
func discardInput(f *os.File) {
	if f != nil {
		_ = unix.IoctlSetInt(int(f.Fd()), unix.TCFLSH, unix.TCIFLUSH)
	}
}
