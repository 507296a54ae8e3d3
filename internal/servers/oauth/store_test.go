package oauth

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestTheStoreIsNeverLockedThroughALink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("making symbolic links needs a privilege on Windows")
	}
	dir := t.TempDir()
	store := &Store{Path: filepath.Join(dir, "oauth.json")}
	target := filepath.Join(dir, "elsewhere")
	if err := os.Symlink(target, store.Path+".lock"); err != nil {
		t.Fatal(err)
	}
	err := store.Save(context.Background(), Record{Server: "remote"})
	if err == nil || !strings.Contains(err.Error(), "oauth.json.lock") || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("saving through a planted lock link: %v, want an error naming the lock file as a link", err)
	}
	if _, err := os.Lstat(target); !os.IsNotExist(err) {
		t.Fatalf("the link's target was created: %v", err)
	}
	if _, err := os.Stat(store.Path); !os.IsNotExist(err) {
		t.Fatalf("the store was written although its lock was refused: %v", err)
	}
}
