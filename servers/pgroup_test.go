package servers

import (
	"os/exec"
	"syscall"
	"testing"
	"time"
)

func TestWaitGroupGone(t *testing.T) {
	cmd := exec.Command("sh", "-c", "sleep 300 & sleep 300")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := cmd.Process.Pid
	defer cmd.Wait()
	if !groupAlive(pgid) {
		t.Fatal("a running group is reported gone")
	}
	syscall.Kill(-pgid, syscall.SIGKILL)
	waitGroupGone(pgid, 5*time.Second)
	if groupAlive(pgid) {
		t.Error("waitGroupGone returned while the group was still running")
	}
}
