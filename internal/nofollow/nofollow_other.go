//go:build !unix

package nofollow

import (
	"io/fs"
	"os"
)

// Flag is 0 where the system has no O_NOFOLLOW: code that opens a file by
// its name itself compares it with OpenFile's afterwards (os.SameFile).
const Flag = 0

func openFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return openChecked(name, flag, perm)
}
