//go:build unix

package main

import (
	"log/slog"
	"syscall"
)

// logResources writes mcphost's own peak memory to the --debug log; the
// benchmarks read it, since a parent's view of the process includes the
// servers it reaped.
func logResources(l *slog.Logger) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		l.Debug("exiting", "peak_rss_kb", ru.Maxrss)
	}
}
