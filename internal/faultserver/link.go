package faultserver

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Name is the program name under which a test binary is the fault server.
const Name = "faultserver"

// Invoked reports whether this process was started as the fault server,
// that is under the name [Link] gives the test binary. A TestMain calls it
// before m.Run, and [Main] instead when it reports true.
func Invoked() bool { return InvokedAs(Name) }

// InvokedAs reports whether this process was started under name: whether
// the last element of os.Args[0] is name (name.exe on Windows). A name
// survives every way a test starts a program (exec, a shell, tmux, a
// terminal, $BROWSER), where an environment variable may not.
func InvokedAs(name string) bool {
	if len(os.Args) == 0 {
		return false
	}
	base := filepath.Base(os.Args[0])
	if runtime.GOOS == "windows" {
		base = strings.TrimSuffix(strings.ToLower(base), ".exe")
	}
	return base == name
}

// Link makes a second name for the running test binary in dir, under
// which it is the fault server, and returns its path: the command of an
// MCP server config. dir is usually a temporary folder TestMain removes.
func Link(dir string) (string, error) { return LinkSelf(dir, Name) }

// LinkSelf makes dir/name (name.exe on Windows) run the running
// executable and returns its path: a hard link, else a symbolic link, else
// a copy (a folder on another file system, a Windows without the right to
// make links). A TestMain that re-runs its test binary as another program
// links it under that program's name and dispatches on [InvokedAs].
func LinkSelf(dir, name string) (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot find the running test binary to re-run it as %s: %w", name, err)
	}
	path := filepath.Join(dir, name)
	if runtime.GOOS == "windows" {
		path += ".exe"
	}
	if os.Link(self, path) == nil || os.Symlink(self, path) == nil {
		return path, nil
	}
	if err := copyFile(self, path); err != nil {
		return "", fmt.Errorf("cannot link or copy the test binary %s to %s: %w", self, path, err)
	}
	return path, nil
}

// copyFile copies the executable from to the new file to.
func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
