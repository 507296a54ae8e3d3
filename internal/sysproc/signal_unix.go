//go:build unix

package sysproc

import (
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// StopSignals are the signals, besides os.Interrupt, that ask mcphost to
// end cleanly: SIGTERM (kill, service managers) and SIGHUP (the terminal
// went away).
func StopSignals() []os.Signal { return []os.Signal{syscall.SIGTERM, syscall.SIGHUP} }

// CatchBrokenPipe makes a write to a closed pipe on stdout or stderr
// (mcphost ... | head -1) fail with an error that IsBrokenPipe recognises,
// instead of killing mcphost with SIGPIPE before it can end its servers.
// It returns the function that undoes it. Call it from main.
func CatchBrokenPipe() (stop func()) {
	// Notify, not Ignore: an ignored signal would stay ignored in the
	// programs mcphost starts.
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGPIPE)
	return func() { signal.Stop(ch) }
}

// IsBrokenPipe reports whether err is a write to a pipe whose reader has
// gone.
func IsBrokenPipe(err error) bool { return errors.Is(err, syscall.EPIPE) }

// PeakRSS is the most memory this process has had resident, in KiB.
func PeakRSS() (kib int64, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return int64(ru.Maxrss) / maxrssPerKiB, true
}
