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
	return setLocalModes(f, unix.ECHO, 0)
}

// withEcho turns the terminal's echo on (a turn runs with it off) while the
// user types an answer; it returns the function that restores the state.
func withEcho(f *os.File) (restore func()) {
	return setLocalModes(f, 0, unix.ECHO|unix.ICANON)
}

// setLocalModes clears the local mode flags off and sets on, and returns
// the function that restores the terminal; on anything but a terminal both
// are no-ops.
func setLocalModes(f *os.File, off, on uint32) (restore func()) {
	if f == nil {
		return func() {}
	}
	fd := int(f.Fd())
	old, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return func() {}
	}
	changed := *old
	changed.Lflag = changed.Lflag&^off | on
	if unix.IoctlSetTermios(fd, unix.TCSETS, &changed) != nil {
		return func() {}
	}
	return func() { _ = unix.IoctlSetTermios(fd, unix.TCSETS, old) }
}
