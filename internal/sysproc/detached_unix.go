//go:build unix

package sysproc

import (
	"os/exec"
	"syscall"
)

// detach puts cmd in a session of its own, away from mcphost's terminal
// and signals.
func detach(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setsid = true
}
