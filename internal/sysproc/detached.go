package sysproc

import (
	"os"
	"os/exec"
)

// detachedTag marks, in its environment, a program started with
// StartDetached and everything it starts, so that KillAdopted leaves them
// alone.
const detachedTag = "MCPHOST_DETACHED"

// StartDetached starts cmd as a program that is meant to outlive mcphost
// (a web browser opened on a URL): in a session of its own, not tied to
// mcphost's life, and left running by KillAdopted even when it is handed
// to mcphost as an orphan. The caller still waits for cmd, as for any
// started command, to release it.
func StartDetached(cmd *exec.Cmd) error {
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, detachedTag+"=1")
	detach(cmd)
	return cmd.Start()
}
