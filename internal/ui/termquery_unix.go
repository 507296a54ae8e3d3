//go:build unix

package ui

import (
	"bytes"
	"os"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// QueryBackground asks the controlling terminal for its background colour
// (OSC 11), followed by a cursor position request (DSR) that every terminal
// answers, so that a terminal that knows no OSC 11 is noticed at once; a
// terminal that answers neither is given timeout. It reads the answers
// from /dev/tty in raw mode, and reports false when it learnt nothing.
// Keys the user typed before the answers came are read with them: they
// come back as typed, Ctrl-D on an empty line as 0x04, for the prompt.
func QueryBackground(timeout time.Duration) (theme Theme, ok bool, typed []byte) {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		return Dark, false, nil
	}
	defer tty.Close()
	fd := int(tty.Fd())
	if pgrp, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP); err != nil || pgrp != unix.Getpgrp() {
		return Dark, false, nil // in the background: the terminal is not ours to ask
	}
	// Lines the terminal cooked before raw mode would lose their Ctrl-D
	// (an empty read, a NUL once raw): read them as they are first.
	typed = readPending(fd)
	old, err := term.MakeRaw(fd)
	if err != nil {
		return Dark, false, typed
	}
	defer term.Restore(fd, old)
	if _, err := tty.WriteString("\x1b]11;?\x1b\\\x1b[6n"); err != nil {
		return Dark, false, typed
	}
	deadline := time.Now().Add(timeout)
	var got []byte
	buf := make([]byte, 64)
	for len(got) < 256 {
		left := time.Until(deadline)
		if left <= 0 {
			break
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		if n, err := unix.Poll(fds, int(left.Milliseconds())+1); err != nil || n == 0 {
			break
		}
		n, err := tty.Read(buf)
		if err != nil {
			break
		}
		got = append(got, buf[:n]...)
		// The cursor report ends the answers: ESC [ row ; col R.
		if i := bytes.LastIndex(got, []byte("\x1b[")); i >= 0 && bytes.HasSuffix(got, []byte("R")) {
			break
		}
	}
	replies, keys := splitReplies(got)
	theme, ok = themeOfOSC11(replies)
	return theme, ok, append(typed, keys...)
}

// readPending reads what waits in the terminal without blocking: in
// cooked mode whole lines (a Ctrl-D on an empty line reads as nothing and
// comes back as 0x04), in raw mode the bytes.
func readPending(fd int) []byte {
	var typed []byte
	buf := make([]byte, 4096)
	// Bounded: a terminal that hung up reads as an endless end of file.
	for range 64 {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		if n, err := unix.Poll(fds, 0); err != nil || n == 0 || fds[0].Revents&unix.POLLIN == 0 || fds[0].Revents&unix.POLLHUP != 0 {
			break
		}
		n, err := unix.Read(fd, buf)
		if err != nil {
			break
		}
		if n == 0 {
			typed = append(typed, 0x04)
			continue
		}
		typed = append(typed, buf[:n]...)
	}
	return typed
}
