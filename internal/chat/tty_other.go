//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly && !windows

package chat

import "os"

// setEcho: terminal modes are not handled on this system.
func setEcho(*os.File, bool) (restore func()) { return noop }

// canReadAhead: terminal modes are not handled on this system.
const canReadAhead = false

// charMode is not used here (canReadAhead).
func charMode(*os.File) (restore func()) { return noop }

// discardInput: terminal input is not handled on this system.
func discardInput(*os.File) {}

// pendingInput: terminal input is not handled on this system; an Esc
// read is taken for the Esc key.
func pendingInput(*os.File) bool { return false }

// keyMode: terminal modes are not handled on this system.
func keyMode(*os.File, func([]byte)) (restore func()) { return noop }
