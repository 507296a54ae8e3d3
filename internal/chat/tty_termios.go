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

// canReadAhead says the terminal can be read during a turn (typeAhead):
// its modes are set here and cancelreader can stop a read without losing
// a byte.
const canReadAhead = true

// charMode turns off ECHO and ICANON, so that each key reaches the
// type-ahead reader as it is pressed (Esc at once) and nothing is drawn
// over the answer; ISIG stays on for Ctrl-C and Ctrl-Z, and the output
// modes are untouched. It returns the function that restores the modes.
func charMode(f *os.File) (restore func()) {
	fd := int(f.Fd())
	old, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return noop
	}
	changed := *old
	changed.Lflag &^= unix.ECHO | unix.ICANON
	changed.Cc[unix.VMIN], changed.Cc[unix.VTIME] = 1, 0
	if unix.IoctlSetTermios(fd, ioctlSetTermios, &changed) != nil {
		return noop
	}
	return func() { _ = unix.IoctlSetTermios(fd, ioctlSetTermios, old) }
}

// pendingInput reports whether the terminal has input queued that was
// not read yet: after an Esc, the rest of an arrow key's sequence.
func pendingInput(f *os.File) bool {
	fds := []unix.PollFd{{Fd: int32(f.Fd()), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, 0)
	return err == nil && n > 0 && fds[0].Revents&unix.POLLIN != 0
}

// keyMode puts the terminal in the chat's own mode for as long as the
// chat runs: no echo and no line editing (ICANON), as charMode. A key
// typed at any moment (while servers start, between an answer and the
// prompt, while a command runs) then waits in the terminal, as typed, for
// whoever reads next: the prompt or the type-ahead reader. In the
// terminal's usual cooked mode it would be drawn over the output, and a
// Ctrl-D on an empty line would become an end-of-file mark that reads as
// nothing once the prompt reads raw bytes. Lines the terminal had already
// cooked are read first and given to cooked (a read of nil is a Ctrl-D
// on an empty line). It returns the function that restores the modes.
func keyMode(f *os.File, cooked func([]byte)) (restore func()) {
	fd := int(f.Fd())
	old, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return noop
	}
	if old.Lflag&unix.ICANON != 0 {
		readCooked(fd, cooked)
	}
	return charMode(f)
}

// readCooked reads the whole lines (and Ctrl-Ds) waiting in a terminal in
// cooked mode without blocking: such a terminal is readable only once a
// line is complete. What is left, a line not ended yet, stays for the
// reader after the switch to keyMode, which gets it byte for byte.
func readCooked(fd int, cooked func([]byte)) {
	buf := make([]byte, 4096)
	// Bounded: a terminal that hung up reads as an endless end of file.
	for range 64 {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		if n, err := unix.Poll(fds, 0); err != nil || n == 0 || fds[0].Revents&unix.POLLIN == 0 || fds[0].Revents&unix.POLLHUP != 0 {
			return
		}
		n, err := unix.Read(fd, buf)
		switch {
		case err != nil:
			return
		case n == 0:
			cooked(nil)
		default:
			cooked(append([]byte(nil), buf[:n]...))
		}
	}
}
