//go:build unix

package sysproc

import (
	"errors"
	"sync"
	"syscall"
)

// sysTree is what a Unix tree keeps besides the command.
type sysTree struct {
	mu sync.Mutex
	// groupGone is set once the root has been reaped and its group found
	// empty: from then on its id may be reused by a stranger's group, so
	// it is never signalled again.
	groupGone bool
	// killing is set by Kill: alive kills what it still finds.
	killing bool
	// settled is set when a kill found nothing to kill: the group empty and
	// no process outside it. Nothing can appear after that, so alive need
	// not look again.
	settled bool
	osTree  //lint:ignore U1000 empty on the BSDs
}

// prepare puts the root in a process group of its own, whose id is its
// pid, so that one signal reaches everything it starts that stays in the
// group; the group also keeps the terminal's Ctrl-C away from it.
func (t *Tree) prepare() error {
	if t.cmd.SysProcAttr == nil {
		t.cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	t.cmd.SysProcAttr.Setpgid = true
	t.cmd.SysProcAttr.Pgid = 0
	setParentDeathSignal(t.cmd.SysProcAttr)
	return nil
}

// terminate sends SIGTERM to the group and to what left it.
func (t *Tree) terminate() error { return t.signal(syscall.SIGTERM) }

// kill sends SIGKILL to the group and to what left it, and has alive go on
// killing any process of the tree it still finds.
func (t *Tree) kill() error {
	t.sys.mu.Lock()
	t.sys.killing = true
	t.sys.mu.Unlock()
	return t.signal(syscall.SIGKILL)
}

// signal sends sig to the tree's processes outside the process group, as
// found before the group is signalled (a dying root would take the way to
// its children with it), and then to the group.
func (t *Tree) signal(sig syscall.Signal) error {
	outside := t.outside()
	var err error
	empty := t.groupIsGone()
	if !empty {
		err = syscall.Kill(-t.Pid(), sig)
		if errors.Is(err, syscall.ESRCH) {
			err, empty = nil, true // nothing left in the group, not even an unreaped root
			t.noteGroupEmpty()
		}
	}
	t.signalOutside(outside, sig)
	if sig == syscall.SIGKILL && empty && len(outside) == 0 {
		t.sys.mu.Lock()
		t.sys.settled = true
		t.sys.mu.Unlock()
	}
	return err
}

func (t *Tree) isSettled() bool {
	t.sys.mu.Lock()
	defer t.sys.mu.Unlock()
	return t.sys.settled
}

func (t *Tree) groupIsGone() bool {
	t.sys.mu.Lock()
	defer t.sys.mu.Unlock()
	return t.sys.groupGone
}

// noteGroupEmpty records that the group had no process at a moment after
// the root was reaped: then it never will again.
func (t *Tree) noteGroupEmpty() {
	select {
	case <-t.done:
	default:
		return // the root's pid holds the group's id until it is reaped
	}
	t.sys.mu.Lock()
	t.sys.groupGone = true
	t.sys.mu.Unlock()
}

func (t *Tree) isKilling() bool {
	t.sys.mu.Lock()
	defer t.sys.mu.Unlock()
	return t.sys.killing
}
