package ui

import (
	"os"

	"golang.org/x/term"
)

// IsTerminal reports whether f is a terminal that takes escape sequences:
// TERM=dumb gets plain text, as a pipe does.
func IsTerminal(f *os.File) bool {
	return term.IsTerminal(int(f.Fd())) && os.Getenv("TERM") != "dumb"
}

// Width is the width of the terminal f in columns, 80 when f is not one.
func Width(f *os.File) int {
	if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
		return w
	}
	return 80
}
