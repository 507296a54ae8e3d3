package configload

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// maxConfigBytes bounds a config file (and a hooks file, a trust record
// entry's file): the largest real ones are a few kilobytes, so 1 MiB
// leaves a hundred times the room any configuration needs while a file
// that is not one (a symbolic link to /dev/zero, a log someone renamed)
// cannot fill the memory before the trust check even runs.
const maxConfigBytes = 1 << 20

// maxTrustRecordBytes bounds the record of trusted project files, which
// grows by one short entry per trusted file.
const maxTrustRecordBytes = 16 << 20

// errNotRegular and errTooLarge say why a file was not read: it is not a
// regular file (a directory, a device, a FIFO), or it is larger than the
// bound.
var (
	errNotRegular = errors.New("not a regular file")
	errTooLarge   = errors.New("too large")
)

// readRegular reads the regular file at path, at most limit bytes. A
// directory, device, FIFO or socket (also through a symbolic link) is
// errNotRegular and is never opened, so that neither a FIFO that blocks
// nor a device that never ends is read; a file over limit is errTooLarge,
// found after reading limit+1 bytes at most. The file is checked again
// once open, in case it was replaced in between.
func readRegular(path string, limit int64) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, errNotRegular
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	opened, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !opened.Mode().IsRegular() || !os.SameFile(info, opened) {
		return nil, errNotRegular
	}
	if opened.Size() > limit {
		return nil, errTooLarge
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, errTooLarge
	}
	return data, nil
}

// unreadable reports whether err is a file that readRegular refuses to
// read (not regular, too large): a warning for a file found by its name,
// an error for one the user named.
func unreadable(err error) bool {
	return errors.Is(err, errNotRegular) || errors.Is(err, errTooLarge)
}

// readProblem words why the config file at path was not read, for a
// warning or an error that names the path before it.
func readProblem(err error) string {
	switch {
	case errors.Is(err, errNotRegular):
		return "it is not a regular file (a directory, a device or a pipe), so mcphost does not read it: remove or rename it"
	case errors.Is(err, errTooLarge):
		return fmt.Sprintf("it is larger than %d MiB, more than any config file needs, so mcphost does not read it: check that it is the file you meant", maxConfigBytes>>20)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // the path is already in the message
	}
	return fmt.Sprintf("cannot read the config file: %v", err)
}
