package builtin

import (
	"os/exec"
	"syscall"
)

// cmdCommand runs line with cmd.exe. cmd does not parse its command line
// as other programs do, so the line is passed as written, not quoted
// argument by argument: /s /c "LINE" takes everything between the first
// and the last quote; /d skips AutoRun commands from the registry.
func cmdCommand(path, line string) *exec.Cmd {
	cmd := exec.Command(path)
	cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: `"` + path + `" /d /s /c "` + line + `"`}
	return cmd
}
