package chat

import (
	"os"

	"golang.org/x/sys/windows"
)

// setEcho turns the console's echo (and, with it, line input, without
// which Windows ignores echo) on, or echo off, and returns the function
// that restores the console mode.
func setEcho(f *os.File, on bool) (restore func()) {
	if f == nil {
		return noop
	}
	h := windows.Handle(f.Fd())
	var old uint32
	if windows.GetConsoleMode(h, &old) != nil {
		return noop
	}
	mode := old &^ windows.ENABLE_ECHO_INPUT
	if on {
		mode = old | windows.ENABLE_ECHO_INPUT | windows.ENABLE_LINE_INPUT
	}
	if windows.SetConsoleMode(h, mode) != nil {
		return noop
	}
	return func() { _ = windows.SetConsoleMode(h, old) }
}
