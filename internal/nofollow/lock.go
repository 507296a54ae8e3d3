package nofollow

import (
	"os"

	"github.com/gofrs/flock"
)

// NewLock returns a lock on the file lockPath that is never taken through
// a symbolic link: the file is made (or found) here, where a link is
// refused, so that the lock library only opens a file that exists, and
// opens it without following links where the system can. Where it cannot
// (Windows), call [Locked] once the lock is held. A link in the file's
// place is an error matching ErrLink.
func NewLock(lockPath string) (*flock.Flock, error) {
	f, err := OpenFile(lockPath, os.O_RDONLY|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	f.Close()
	return flock.New(lockPath, flock.SetFlag(os.O_RDONLY|Flag), flock.SetPermissions(0o600)), nil
}

// Locked reports whether the file fl holds is the regular file at
// lockPath, not one a link put there in between pointed at.
func Locked(fl *flock.Flock, lockPath string) bool {
	locked, err := fl.Stat()
	if err != nil {
		return false
	}
	named, err := os.Lstat(lockPath)
	return err == nil && named.Mode().IsRegular() && os.SameFile(locked, named)
}
