//go:build unix

package mcptest

import (
	"fmt"
	"os"
	"strings"
	"syscall"
)

func processRunning(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		// Without /proc (macOS), kill's answer is all there is.
		_, noProc := os.Stat("/proc/self/stat")
		return noProc != nil
	}
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

func killProcess(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }
