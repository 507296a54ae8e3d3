package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcphost/mcphost/provider"
)

func TestAcquireWaitsForTheHolderAndNamesIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	first, err := Acquire(context.Background(), path, LockOptions{Wait: 0})
	if err != nil {
		t.Fatal(err)
	}
	// Wait 0: fail at once, naming the holder.
	_, err = Acquire(context.Background(), path, LockOptions{Wait: 0})
	if !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), fmt.Sprintf("process %d", os.Getpid())) {
		t.Fatalf("second Acquire: %v", err)
	}
	// A bounded wait gives up.
	start := time.Now()
	if _, err := Acquire(context.Background(), path, LockOptions{Wait: 100 * time.Millisecond}); !errors.Is(err, ErrBusy) || time.Since(start) < 100*time.Millisecond {
		t.Fatalf("bounded wait: %v after %s", err, time.Since(start))
	}
	// An unbounded wait is told once, and gets the file when it is released.
	told := make(chan string, 2)
	got := make(chan error, 1)
	go func() {
		l, err := Acquire(context.Background(), path, LockOptions{Wait: -1, OnWait: func(h string) { told <- h }})
		if err == nil {
			l.Release()
		}
		got <- err
	}()
	if holder := <-told; holder != fmt.Sprintf("process %d", os.Getpid()) {
		t.Errorf("waiter was told %q", holder)
	}
	first.Release()
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	if len(told) != 0 {
		t.Error("the waiter was told more than once")
	}
	// Cancelling the context ends a wait.
	held, _ := Acquire(context.Background(), path, LockOptions{})
	defer held.Release()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Acquire(ctx, path, LockOptions{Wait: -1}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled wait: %v", err)
	}
}

// TestCrashBeforeRenameKeepsTheOldFile runs a save in a child process that
// dies between writing the new file and renaming it.
func TestCrashBeforeRenameKeepsTheOldFile(t *testing.T) {
	if path := os.Getenv("SESSION_TEST_CRASH"); path != "" {
		_ = save(path, "m", []provider.Message{{Role: provider.RoleUser, Content: "new"}}, func(string) { os.Exit(3) })
		return
	}
	path := filepath.Join(t.TempDir(), "s.json")
	if err := Save(path, "m", []provider.Message{{Role: provider.RoleUser, Content: "old"}}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashBeforeRenameKeepsTheOldFile$")
	cmd.Env = append(os.Environ(), "SESSION_TEST_CRASH="+path)
	var exit *exec.ExitError
	if err := cmd.Run(); !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Fatalf("the child did not crash where asked: %v", err)
	}
	f, err := Load(path)
	if err != nil || len(f.Messages) != 1 || f.Messages[0].Content != "old" {
		t.Fatalf("after the crash: %+v, %v", f, err)
	}
	// The next save still works, beside the crashed one's leftover.
	if err := Save(path, "m", []provider.Message{{Role: provider.RoleUser, Content: "newer"}}); err != nil {
		t.Fatal(err)
	}
	if f, err := Load(path); err != nil || f.Messages[0].Content != "newer" {
		t.Errorf("after the next save: %+v, %v", f, err)
	}
}

// TestALinkAsTheLockFileIsRefused plants a symbolic link as FILE.lock:
// the session is not taken, the error names the lock file and what to
// do, and the link's target is neither written nor created.
func TestALinkAsTheLockFileIsRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	target := filepath.Join(dir, "precious")
	if err := os.WriteFile(target, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path+".lock"); err != nil {
		t.Skipf("cannot make a symbolic link here: %v", err)
	}
	for _, acquire := range []func() error{
		func() error { _, err := Acquire(context.Background(), path, LockOptions{Wait: -1}); return err },
		func() error { return Save(path, "m", []provider.Message{{Role: provider.RoleUser, Content: "hi"}}) },
	} {
		err := acquire()
		if err == nil || !strings.Contains(err.Error(), path+".lock") || !strings.Contains(err.Error(), "symbolic link") || !strings.Contains(err.Error(), "delete the link") {
			t.Errorf("err = %v, want one naming %s.lock as a link and saying what to do", err, path)
		}
	}
	if data, _ := os.ReadFile(target); string(data) != "keep me\n" {
		t.Errorf("the link's target was overwritten: %q", data)
	}

	// A link to a file that does not exist: it is not created.
	other := filepath.Join(dir, "t.json")
	if err := os.Symlink(filepath.Join(dir, "made"), other+".lock"); err != nil {
		t.Fatal(err)
	}
	if _, err := Acquire(context.Background(), other, LockOptions{}); err == nil {
		t.Error("a dangling link as the lock file was accepted")
	}
	if _, err := os.Lstat(filepath.Join(dir, "made")); err == nil {
		t.Error("a file was created where the dangling link points")
	}
}

func TestTheLockFileIsTheOwners(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	l, err := Acquire(context.Background(), path, LockOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	info, err := os.Lstat(path + ".lock")
	if err != nil || !info.Mode().IsRegular() || info.Mode().Perm() != 0o600 {
		t.Errorf("lock file: %v, %v; want a regular file, mode 0600", info, err)
	}
	if data, _ := os.ReadFile(path + ".lock"); strings.TrimSpace(string(data)) != fmt.Sprint(os.Getpid()) {
		t.Errorf("the lock file holds %q, want this process's PID", data)
	}
}
