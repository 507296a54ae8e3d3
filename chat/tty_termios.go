//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package chat

import (
	"os"

	"golang.org/x/sys/unix"
)

// setEcho turns the local modes ECHO (and, with it, ICANON) on or ECHO off
// and returns the function that restores them. golang.org/x/term only
// offers raw mode, which would also turn off Ctrl-C and the newline
// translation the streaming answer relies on, so the termios flags are
// set here, with the request numbers of each system (ioctlGetTermios).
func setEcho(f *os.File, on bool) (restore func()) {
	if f == nil {
		return noop
	}
	fd := int(f.Fd())
	old, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return noop
	}
	changed := *old
	if on {
		changed.Lflag |= unix.ECHO | unix.ICANON
	} else {
		changed.Lflag &^= unix.ECHO
	}
	if unix.IoctlSetTermios(fd, ioctlSetTermios, &changed) != nil {
		return noop
	}
	return func() { _ = unix.IoctlSetTermios(fd, ioctlSetTermios, old) }
}
