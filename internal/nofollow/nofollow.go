// Package nofollow opens the files mcphost writes without following a
// symbolic link in their place. A link planted where mcphost writes (a
// session's lock file, the audit log) would otherwise redirect the write
// to whatever file it points at.
package nofollow

import (
	"errors"
	"io/fs"
	"os"
)

// ErrLink is returned, inside an *fs.PathError, by OpenFile for a path
// whose last element is a symbolic link (or, on Windows, another reparse
// point such as a junction).
var ErrLink = errors.New("is a symbolic link")

// OpenFile is os.OpenFile, except that it fails with ErrLink rather than
// follow a symbolic link that is the file's own name (links among the
// directories above it are followed, as the user may have made them).
// Nothing is created, truncated or written through a link: on Unix the
// system refuses the link (O_NOFOLLOW); elsewhere the name is looked at
// before the file is opened and compared with what was opened after, and
// O_TRUNC is applied only once they match.
func OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return openFile(name, flag, perm)
}

// IsLink reports whether name itself is a symbolic link or another kind
// of reparse point, which OpenFile refuses.
func IsLink(name string) bool {
	info, err := os.Lstat(name)
	return err == nil && isLink(info)
}

func isLink(info fs.FileInfo) bool {
	return info.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0
}

func linkError(name string) error {
	return &fs.PathError{Op: "open", Path: name, Err: ErrLink}
}

// openChecked is OpenFile where the system has no O_NOFOLLOW (Windows):
// it looks at the name before opening it and at what was opened
// after. A new file is created with O_EXCL, which no link satisfies; an
// existing one is opened without O_CREATE and O_TRUNC, so that a link
// put there in between is opened but not changed, then found out and
// closed.
func openChecked(name string, flag int, perm fs.FileMode) (*os.File, error) {
	for range 3 {
		before, err := os.Lstat(name)
		switch {
		case err == nil && isLink(before):
			return nil, linkError(name)
		case errors.Is(err, fs.ErrNotExist) && flag&os.O_CREATE != 0:
			f, err := os.OpenFile(name, flag|os.O_EXCL, perm)
			if errors.Is(err, fs.ErrExist) {
				continue // made in between: look again
			}
			return f, err
		case err != nil:
			return nil, err
		}
		f, err := os.OpenFile(name, flag&^(os.O_CREATE|os.O_TRUNC), perm)
		if err != nil {
			return nil, err
		}
		opened, err := f.Stat()
		after, lerr := os.Lstat(name)
		if err != nil || lerr != nil || isLink(after) || !os.SameFile(opened, after) || !os.SameFile(before, after) {
			f.Close()
			return nil, linkError(name)
		}
		if flag&os.O_TRUNC != 0 {
			if err := f.Truncate(0); err != nil {
				f.Close()
				return nil, err
			}
		}
		return f, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("keeps changing while it is opened")}
}
