//go:build unix

package sysproc

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// processRunning reports whether pid runs; an exited process nobody has
// reaped yet does not.
func processRunning(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // no /proc: kill's answer is all there is
	}
	s := string(stat)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] != "Z"
}

func killPid(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }
