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
func QueryBackground(timeout time.Duration) (Theme, bool) {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		return Dark, false
	}
	defer tty.Close()
	fd := int(tty.Fd())
	if pgrp, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP); err != nil || pgrp != unix.Getpgrp() {
		return Dark, false // in the background: the terminal is not ours to ask
	}
	old, err := term.MakeRaw(fd)
	if err != nil {
		return Dark, false
	}
	defer term.Restore(fd, old)
	if _, err := tty.WriteString("\x1b]11;?\x1b\\\x1b[6n"); err != nil {
		return Dark, false
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
	return themeOfOSC11(string(got))
}
