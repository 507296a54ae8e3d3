package chat

import "golang.org/x/sys/unix"

// The ioctl requests that read and set a terminal's modes on Linux.
const (
	ioctlGetTermios = unix.TCGETS
	ioctlSetTermios = unix.TCSETS
)
