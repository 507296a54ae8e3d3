package nofollow

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// opens are the two ways of opening: the system's (O_NOFOLLOW on Unix)
// and the look-before-and-after of systems without it, which runs here
// too so that it is tested where the tests run.
var opens = map[string]func(string, int, fs.FileMode) (*os.File, error){
	"OpenFile":    OpenFile,
	"openChecked": openChecked,
}

func TestALinkIsRefusedAndItsTargetLeftAlone(t *testing.T) {
	for name, open := range opens {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			target := filepath.Join(dir, "precious")
			if err := os.WriteFile(target, []byte("keep me\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(dir, "file")
			if err := os.Symlink(target, link); err != nil {
				t.Skipf("cannot make a symbolic link here: %v", err)
			}
			for _, flag := range []int{os.O_WRONLY | os.O_CREATE | os.O_TRUNC, os.O_WRONLY | os.O_APPEND | os.O_CREATE, os.O_RDONLY} {
				f, err := open(link, flag, 0o600)
				if err == nil {
					f.Close()
				}
				if !errors.Is(err, ErrLink) {
					t.Errorf("flag %#x: err = %v, want ErrLink", flag, err)
				}
			}
			if data, _ := os.ReadFile(target); string(data) != "keep me\n" {
				t.Errorf("the link's target was changed: %q", data)
			}

			// A link to nothing: nothing is created where it points.
			dangling := filepath.Join(dir, "dangling")
			if err := os.Symlink(filepath.Join(dir, "made"), dangling); err != nil {
				t.Fatal(err)
			}
			if _, err := open(dangling, os.O_WRONLY|os.O_CREATE, 0o600); !errors.Is(err, ErrLink) {
				t.Errorf("dangling link: err = %v, want ErrLink", err)
			}
			if _, err := os.Lstat(filepath.Join(dir, "made")); err == nil {
				t.Error("a file was created where the dangling link points")
			}
		})
	}
}

func TestAFileIsOpenedCreatedAndTruncated(t *testing.T) {
	for name, open := range opens {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "file")
			f, err := open(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("a long first line\n")
			f.Close()
			if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
				t.Errorf("created: %v, %v; want mode 0600", info, err)
			}
			f, err = open(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("second\n")
			f.Close()
			if data, _ := os.ReadFile(path); string(data) != "second\n" {
				t.Errorf("after O_TRUNC: %q", data)
			}
			if _, err := open(filepath.Join(t.TempDir(), "missing"), os.O_RDONLY, 0); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("a missing file: %v", err)
			}
		})
	}
}
