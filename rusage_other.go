//go:build !unix

package main

import "log/slog"

// logResources logs nothing where getrusage does not exist.
func logResources(*slog.Logger) {}
