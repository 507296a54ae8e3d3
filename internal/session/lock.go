package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"github.com/mcphost/mcphost/provider"
)

// ErrBusy is returned by Acquire when another process holds the session
// file and the wait ran out.
var ErrBusy = errors.New("session file is in use")

// retryDelay is how often a waiting run tries the lock again: an OS file
// lock cannot be waited on with a deadline, so the wait polls.
const retryDelay = 20 * time.Millisecond

// LockOptions say how long Acquire waits for another process.
type LockOptions struct {
	// Wait bounds the wait for the process that holds the file; 0 fails
	// at once, a negative value waits as long as it takes.
	Wait time.Duration
	// OnWait, when not nil, is told once that the file is held, and by
	// which process ("process 1234"), before the wait begins.
	OnWait func(holder string)
}

// Lock is a session file held by this process: until Release, other runs
// that use the same file wait. The lock is an OS file lock on FILE.lock,
// beside the file (the file itself is replaced on every save, so it cannot
// carry the lock); the OS releases it when the process ends in any way.
// FILE.lock is left in place, empty of meaning once released.
type Lock struct {
	path string
	fl   *flock.Flock
}

// Acquire takes the session file at path for this process, waiting for
// another process that holds it as opts say. Giving up is an error
// matching ErrBusy that names the holder; cancelling ctx ends the wait.
func Acquire(ctx context.Context, path string, opts LockOptions) (*Lock, error) {
	lockPath := path + ".lock"
	fl := flock.New(lockPath, flock.SetPermissions(0o600))
	ok, err := fl.TryLock()
	if err != nil {
		return nil, fmt.Errorf("locking session %s: %w", path, unwrapPath(err))
	}
	if !ok {
		holder := holderOf(lockPath)
		if opts.OnWait != nil && opts.Wait != 0 {
			opts.OnWait(holder)
		}
		if opts.Wait == 0 {
			return nil, busy(path, holder)
		}
		wctx := ctx
		if opts.Wait > 0 {
			var cancel context.CancelFunc
			wctx, cancel = context.WithTimeout(ctx, opts.Wait)
			defer cancel()
		}
		if ok, err = fl.TryLockContext(wctx, retryDelay); !ok {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if err != nil && !errors.Is(err, context.DeadlineExceeded) {
				return nil, fmt.Errorf("locking session %s: %w", path, unwrapPath(err))
			}
			return nil, busy(path, holderOf(lockPath))
		}
	}
	// Name this process for the runs that will wait.
	_ = os.WriteFile(lockPath, fmt.Appendf(nil, "%d\n", os.Getpid()), 0o600)
	return &Lock{path: path, fl: fl}, nil
}

// busy is the error of a run that gave up waiting.
func busy(path, holder string) error {
	return fmt.Errorf("%w: %s is held by %s; wait for it to finish, or give a longer --session-wait", ErrBusy, path, holder)
}

// holderOf names the process that wrote its PID into the lock file.
func holderOf(lockPath string) string {
	data, err := os.ReadFile(lockPath)
	if pid := strings.TrimSpace(string(data)); err == nil && pid != "" {
		return "process " + pid
	}
	return "another process"
}

// Path is the session file.
func (l *Lock) Path() string { return l.path }

// Load reads the held file; a file that does not exist is ErrNotExist.
func (l *Lock) Load() (File, error) { return load(l.path) }

// Save replaces the held file with the conversation, durably (see Save).
func (l *Lock) Save(model string, messages []provider.Message) error {
	return save(l.path, model, messages, nil)
}

// Release lets the next run have the file. It may be called more than once.
func (l *Lock) Release() error {
	return l.fl.Unlock()
}
