//go:build !windows

package builtin

import "os/exec"

// cmdCommand: cmd is a Windows shell; kindOf never picks it elsewhere.
func cmdCommand(path, line string) *exec.Cmd { return exec.Command(path, "-c", line) }
