//go:build unix && !linux

package sysproc

import (
	"errors"
	"syscall"
)

// useTag: without /proc the mark could not be read back, so none is set.
const useTag = false

// osTree: a tree is its process group alone; there is nothing more to keep.
//
//lint:ignore U1000 embedded in sysTree, which every Unix shares.
type osTree struct{}

// setParentDeathSignal: these systems have no parent-death signal.
func setParentDeathSignal(*syscall.SysProcAttr) {}

func (t *Tree) afterStart() error { return nil }

func (t *Tree) release() {}

// outside: processes that left the group are not tracked here.
func (t *Tree) outside() []struct{} { return nil }

func (t *Tree) signalOutside([]struct{}, syscall.Signal) {}

// alive reports whether the group has a process, exited but unreaped ones
// included (their parent, or init, reaps them soon).
func (t *Tree) alive() bool {
	if t.groupIsGone() || t.isSettled() {
		return false
	}
	err := syscall.Kill(-t.Pid(), 0)
	if errors.Is(err, syscall.ESRCH) {
		t.noteGroupEmpty()
		return false
	}
	if err == nil && t.isKilling() {
		_ = syscall.Kill(-t.Pid(), syscall.SIGKILL)
	}
	return err == nil || errors.Is(err, syscall.EPERM)
}
