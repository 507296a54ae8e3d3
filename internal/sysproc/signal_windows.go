package sysproc

import (
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/windows"
)

// StopSignals are the signals, besides os.Interrupt, that ask mcphost to
// end cleanly. Go reports the console being closed, a logoff and a
// shutdown as SIGTERM.
func StopSignals() []os.Signal { return []os.Signal{syscall.SIGTERM} }

// CatchBrokenPipe: Windows has no SIGPIPE; a write to a closed pipe simply
// fails, as IsBrokenPipe recognises.
func CatchBrokenPipe() (stop func()) { return func() {} }

// IsBrokenPipe reports whether err is a write to a pipe whose reader has
// gone.
func IsBrokenPipe(err error) bool {
	return errors.Is(err, windows.ERROR_BROKEN_PIPE) || errors.Is(err, windows.ERROR_NO_DATA) ||
		errors.Is(err, windows.ERROR_PIPE_NOT_CONNECTED) || errors.Is(err, syscall.EPIPE)
}

// PeakRSS: not measured on Windows.
func PeakRSS() (kib int64, ok bool) { return 0, false }
