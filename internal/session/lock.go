package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"github.com/mcphost/mcphost/internal/nofollow"
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
//
// FILE.lock is never opened through a symbolic link: one planted there
// would have its target overwritten with the PID, so a link is an error
// naming the lock file, and the file is created readable by its owner
// only.
func Acquire(ctx context.Context, path string, opts LockOptions) (*Lock, error) {
	lockPath := path + ".lock"
	fl, err := nofollow.NewLock(lockPath)
	if err != nil {
		return nil, lockError(path, lockPath, err)
	}
	ok, err := fl.TryLock()
	if err != nil {
		return nil, lockError(path, lockPath, err)
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
				return nil, lockError(path, lockPath, err)
			}
			return nil, busy(path, holderOf(lockPath))
		}
	}
	if !nofollow.Locked(fl, lockPath) {
		fl.Unlock()
		return nil, lockError(path, lockPath, nofollow.ErrLink)
	}
	// Name this process for the runs that will wait.
	if f, err := nofollow.OpenFile(lockPath, os.O_WRONLY|os.O_TRUNC, 0o600); err == nil {
		_, _ = fmt.Fprintf(f, "%d\n", os.Getpid())
		f.Close()
	}
	return &Lock{path: path, fl: fl}, nil
}

// lockError is the error of a lock file that could not be opened or
// locked: for a link in its place, what to do about it.
func lockError(path, lockPath string, err error) error {
	if errors.Is(err, nofollow.ErrLink) || nofollow.IsLink(lockPath) {
		return fmt.Errorf("the lock file of session %s, %s, is a symbolic link, which mcphost does not write through: delete the link (mcphost makes the file again) and run again", path, lockPath)
	}
	return fmt.Errorf("locking session %s: %w", path, unwrapPath(err))
}

// busy is the error of a run that gave up waiting.
func busy(path, holder string) error {
	return fmt.Errorf("%w: %s is held by %s; wait for it to finish, or give a longer --session-wait", ErrBusy, path, holder)
}

// holderOf names the process that wrote its PID into the lock file. It
// reads a PID's worth, not through a link, and takes digits only: the
// name is quoted in messages.
func holderOf(lockPath string) string {
	f, err := nofollow.OpenFile(lockPath, os.O_RDONLY, 0)
	if err != nil {
		return "another process"
	}
	defer f.Close()
	buf := make([]byte, 32)
	n, _ := io.ReadFull(f, buf)
	pid := strings.TrimSpace(string(buf[:n]))
	if pid == "" || strings.IndexFunc(pid, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
		return "another process"
	}
	return "process " + pid
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
