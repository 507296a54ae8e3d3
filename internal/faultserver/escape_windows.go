package faultserver

import (
	"syscall"

	"golang.org/x/sys/windows"
)

// escapeAttr starts a process detached from the console, in a process
// group of its own: as far as a process can get from its parent without
// leaving the parent's job, which does not allow breakaway.
func escapeAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.DETACHED_PROCESS | windows.CREATE_NEW_PROCESS_GROUP}
}
