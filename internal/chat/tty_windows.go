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

// canReadAhead: the console is not read during a turn on Windows
// (cancelreader empties the console's input buffer when it starts), so
// typed-ahead keys wait in the console for the next prompt.
const canReadAhead = false

// charMode is not used on Windows (canReadAhead).
func charMode(*os.File) (restore func()) { return noop }

// discardInput drops the console's pending input: keys typed before a
// question was drawn are not its answer. Not a console: nothing to drop.
func discardInput(f *os.File) {
	if f != nil {
		_ = windows.FlushConsoleInputBuffer(windows.Handle(f.Fd()))
	}
}

// pendingInput: a console's keys come as events, not escape sequences;
// an Esc read is the Esc key.
func pendingInput(*os.File) bool { return false }

// keyMode is not used on Windows (canReadAhead): the console keeps typed
// keys for the next prompt without it.
func keyMode(*os.File, func([]byte)) (restore func()) { return noop }
