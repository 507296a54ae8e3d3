//go:build linux

// Package ptytest opens pseudo-terminals for tests: the terminal end is
// what a program under test gets as its terminal, and the test holds the
// other end, reading what the program writes and answering, or not, as a
// given terminal would.
package ptytest

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// Open opens a pseudo-terminal and returns its controlling end (ptm) and
// its terminal end (pts). Both are the caller's to close.
func Open() (ptm, pts *os.File, err error) {
	ptm, err = os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		return nil, nil, err
	}
	if err := unix.IoctlSetPointerInt(int(ptm.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		ptm.Close()
		return nil, nil, fmt.Errorf("unlocking the pseudo-terminal: %w", err)
	}
	n, err := unix.IoctlGetInt(int(ptm.Fd()), unix.TIOCGPTN)
	if err != nil {
		ptm.Close()
		return nil, nil, fmt.Errorf("numbering the pseudo-terminal: %w", err)
	}
	pts, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		ptm.Close()
		return nil, nil, err
	}
	return ptm, pts, nil
}

// SetSize sets the terminal's size in character cells, as a terminal
// window does.
func SetSize(pts *os.File, cols, rows int) error {
	return unix.IoctlSetWinsize(int(pts.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: uint16(cols), Row: uint16(rows)})
}
