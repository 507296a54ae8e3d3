//go:build unix

package faultserver

import "syscall"

// escapeAttr starts a process in a session and process group of its own,
// as a daemon (or setsid, or a double fork) would.
func escapeAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
