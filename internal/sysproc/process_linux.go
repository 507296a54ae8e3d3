package sysproc

import (
	"context"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// BecomeSubreaper makes this process the reaper of the orphans among its
// descendants (PR_SET_CHILD_SUBREAPER): a process that a tree's root or its
// children leave behind, by a double fork or after setsid, is handed to
// this process rather than to init, so it stays a descendant of mcphost
// (Trees reap the ones they kill; KillAdopted ends the rest at exit). It
// applies to the whole process and lasts until it exits, so the program's
// main calls it once, at start; a library must not. Elsewhere than on
// Linux it does nothing and returns an error wrapping
// errors.ErrUnsupported.
func BecomeSubreaper() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

// KillAdopted kills every child of this process and reaps it, waiting at
// most until ctx ends; it reports whether none is left. With
// BecomeSubreaper these include orphans that no Tree could claim (one that
// cleared its environment and whose parent exited). Call it when every Tree
// has ended, just before the program exits: it would kill a root that is
// still running too. Programs started with StartDetached, and theirs, are
// left running. Elsewhere than on Linux it does nothing.
func KillAdopted(ctx context.Context) bool {
	self := os.Getpid()
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	for {
		left := false
		for _, p := range listProcs(0) {
			if p.ppid != self {
				continue
			}
			if !p.zombie {
				if hasTag(p.pid, detachedTag) {
					continue // a browser StartDetached opened: the user's now
				}
				left = true
				_ = syscall.Kill(p.pid, syscall.SIGKILL)
				continue
			}
			var ws unix.WaitStatus
			_, _ = unix.Wait4(p.pid, &ws, unix.WNOHANG, nil)
		}
		if !left {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-tick.C:
		}
	}
}
