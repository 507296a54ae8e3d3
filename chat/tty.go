package chat

import (
	"os"

	"golang.org/x/sys/unix"
)

// noEcho turns off the terminal's echo while a turn runs, so keys typed
// ahead do not scribble over the streaming answer; they still reach the
// next prompt. Ctrl-C keeps working (ISIG stays on). It returns the
// function that restores the terminal; on anything but a terminal both are
// no-ops.
func noEcho(f *os.File) (restore func()) {
	if f == nil {
		return func() {}
	}
	fd := int(f.Fd())
	old, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return func() {}
	}
	quiet := *old
	quiet.Lflag &^= unix.ECHO
	if unix.IoctlSetTermios(fd, unix.TCSETS, &quiet) != nil {
		return func() {}
	}
	return func() { _ = unix.IoctlSetTermios(fd, unix.TCSETS, old) }
}

// withEcho turns the terminal's echo on (a turn runs with it off) while the
// user types an answer; it returns the function that restores the state.
func withEcho(f *os.File) (restore func()) {
	fd := int(f.Fd())
	old, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return func() {}
	}
	loud := *old
	loud.Lflag |= unix.ECHO | unix.ICANON
	if unix.IoctlSetTermios(fd, unix.TCSETS, &loud) != nil {
		return func() {}
	}
	return func() { _ = unix.IoctlSetTermios(fd, unix.TCSETS, old) }
}
