//go:build unix

package nofollow

import (
	"io/fs"
	"os"
	"syscall"
)

// Flag, added to the flags of an open, makes it fail on a symbolic link,
// for code that opens a file by its name itself (a file-lock library).
const Flag = syscall.O_NOFOLLOW

func openFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	f, err := os.OpenFile(name, flag|syscall.O_NOFOLLOW, perm)
	if err != nil && IsLink(name) {
		// ELOOP on most systems, EMLINK or EFTYPE on some BSDs: the
		// link, not the error number, is what the caller is told.
		return nil, linkError(name)
	}
	return f, err
}
