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

// Size is the width and height of the terminal f, 80×24 when f is not
// one: the answer's live part is kept shorter than the height.
func Size(f *os.File) (width, height int) {
	if w, h, err := term.GetSize(int(f.Fd())); err == nil && w > 0 && h > 0 {
		return w, h
	}
	return 80, 24
}

// Height is the height of the terminal f in rows, 24 when f is not one.
func Height(f *os.File) int {
	_, h := Size(f)
	return h
}
