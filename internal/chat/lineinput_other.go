//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package chat

import "os"

// lineInput is the terminal itself here: the keys typed ahead are not
// read during a turn on this system (canReadAhead), so there is nothing
// to keep for the next prompt.
type lineInput struct{ *os.File }

func newLineInput(f *os.File) *lineInput { return &lineInput{File: f} }

func (l *lineInput) next() {}

// Close leaves the terminal open.
func (l *lineInput) Close() error { return nil }
