package sysproc

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"time"
)

// tagPrefix starts the name of the environment variable that marks every
// process of a tree: MCPHOST_TREE_<random hex>=1. A name of its own per
// tree, rather than one variable with the tree in its value, keeps the
// marks of enclosing trees (mcphost run by mcphost's bash tool) instead
// of replacing them.
const tagPrefix = "MCPHOST_TREE_"

// pollInterval is how often WaitGone looks again where the system offers
// no event for "the last process of a group is gone".
const pollInterval = 5 * time.Millisecond

// Tree is a started command and the processes it starts: its process group
// and the descendants that left it (Linux), or its Job Object (Windows).
type Tree struct {
	cmd  *exec.Cmd
	tag  string        // the environment variable that marks the tree, "" where unused
	done chan struct{} // closed once the root has been waited for
	err  error         // what cmd.Wait returned; read after done
	sys  sysTree       // what the platform keeps
}

// Start starts cmd as the root of a new tree, in its own process group
// (Unix) or Job Object (Windows), bound to this process's life where the
// system allows it (see the package doc). It sets the fields of
// cmd.SysProcAttr it needs and keeps the others, and adds the tree's mark
// to cmd.Env (the current environment when cmd.Env is nil).
//
// The tree waits for the root itself: callers use Done and Err, never
// cmd.Wait. After Done, cmd.ProcessState is set.
func Start(cmd *exec.Cmd) (*Tree, error) {
	t := &Tree{cmd: cmd, done: make(chan struct{})}
	if useTag {
		var b [12]byte
		_, _ = rand.Read(b[:]) // never fails (crypto/rand)
		t.tag = tagPrefix + fmt.Sprintf("%X", b[:])
		if cmd.Env == nil {
			cmd.Env = os.Environ()
		}
		cmd.Env = append(cmd.Env, t.tag+"=1")
	}
	if err := t.prepare(); err != nil {
		return nil, err
	}
	started := make(chan error, 1)
	go t.run(started)
	if err := <-started; err != nil {
		t.release()
		return nil, err
	}
	return t, nil
}

// run starts the root and waits for it on one locked OS thread. Linux sends
// the parent-death signal when the thread that started the child ends, not
// the process (go.dev/issue/27505); a goroutine locked to its thread keeps
// every other goroutine off that thread, so none can end it by exiting
// while locked, and the thread stays until the root has been waited for.
func (t *Tree) run(started chan<- error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := t.cmd.Start(); err != nil {
		started <- err
		return
	}
	if err := t.afterStart(); err != nil {
		_ = t.cmd.Process.Kill()
		_ = t.cmd.Wait()
		started <- err
		return
	}
	started <- nil
	t.err = t.cmd.Wait()
	close(t.done)
}

// Pid is the root's process id.
func (t *Tree) Pid() int { return t.cmd.Process.Pid }

// Done is closed once the root has exited and been waited for; the rest of
// the tree may still run.
func (t *Tree) Done() <-chan struct{} { return t.done }

// Err is what waiting for the root returned (an *exec.ExitError when it
// failed); it is meaningful once Done is closed.
func (t *Tree) Err() error {
	select {
	case <-t.done:
		return t.err
	default:
		return errors.New("the process is still running")
	}
}

// Terminate asks every process of the tree to stop (SIGTERM); on Windows,
// where there is no such request, it ends them as Kill does.
func (t *Tree) Terminate() error { return t.terminate() }

// Kill ends every process of the tree at once (SIGKILL, or
// TerminateJobObject). Processes are gone a moment later: see WaitGone.
func (t *Tree) Kill() error { return t.kill() }

// Alive reports whether a process of the tree is still running. Exited
// processes that nobody has reaped yet (zombies) do not count.
func (t *Tree) Alive() bool { return t.alive() }

// WaitGone waits until no process of the tree is running, or ctx ends, and
// reports whether the tree is gone.
func (t *Tree) WaitGone(ctx context.Context) bool {
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	for {
		if !t.alive() {
			return true
		}
		select {
		case <-ctx.Done():
			return !t.alive()
		case <-tick.C:
		}
	}
}

// End kills the whole tree, waits until it is gone or ctx ends, and then
// releases what the tree holds (the Job Object). It reports whether the
// tree is gone. A tree whose root exited by itself still needs End: what
// the root started may still run.
func (t *Tree) End(ctx context.Context) bool {
	_ = t.kill()
	gone := t.WaitGone(ctx)
	t.release()
	return gone
}
