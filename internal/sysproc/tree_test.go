package sysproc

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

func gone(t *testing.T, tr *Tree) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if !tr.End(ctx) {
		t.Fatal("the tree is still running 10s after End")
	}
}

// TestEndKillsGrandchildren: what the root starts goes with it, while the
// root runs and after it has exited by itself.
func TestEndKillsGrandchildren(t *testing.T) {
	for _, then := range []string{"sleep", "exit"} {
		t.Run("root "+then+"s", func(t *testing.T) {
			pidfile := filepath.Join(t.TempDir(), "pids")
			tr, err := Start(helperCmd("spawn", "PIDFILE="+pidfile, "THEN="+then))
			if err != nil {
				t.Fatal(err)
			}
			endTree(t, tr)
			child := waitPids(t, pidfile, 1)[0]
			if then == "exit" {
				<-tr.Done()
				if err := tr.Err(); err != nil {
					t.Fatalf("the root failed: %v", err)
				}
			}
			if !tr.Alive() {
				t.Fatal("Alive is false while the grandchild runs")
			}
			gone(t, tr)
			waitDead(t, child, "the grandchild")
			if tr.Alive() {
				t.Error("Alive is true after End")
			}
		})
	}
}

// TestTerminateEndsTheRoot: the polite request ends a process that does
// not handle it.
func TestTerminateEndsTheRoot(t *testing.T) {
	tr, err := Start(helperCmd("sleep"))
	if err != nil {
		t.Fatal(err)
	}
	endTree(t, tr)
	if err := tr.Terminate(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-tr.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the root still runs 10s after Terminate")
	}
	var exitErr *exec.ExitError
	if !errors.As(tr.Err(), &exitErr) {
		t.Errorf("Err = %v, want an exit error", tr.Err())
	}
}

// TestStartFailure: a command that cannot start is an error, and Err says
// a running tree is running.
func TestStartFailure(t *testing.T) {
	if _, err := Start(exec.Command(filepath.Join(t.TempDir(), "missing"))); err == nil {
		t.Fatal("Start of a missing file succeeded")
	}
	tr, err := Start(helperCmd("sleep"))
	if err != nil {
		t.Fatal(err)
	}
	endTree(t, tr)
	if tr.Err() == nil {
		t.Error("Err is nil while the root runs")
	}
}

// TestParentDeathKillsRoot: when the process that started a tree is
// killed (SIGKILL, TerminateProcess), the system ends the root: Linux by
// the parent-death signal, Windows by closing the Job Object.
func TestParentDeathKillsRoot(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "windows" {
		t.Skip("not guaranteed on " + runtime.GOOS + ": see the package doc")
	}
	pidfile := filepath.Join(t.TempDir(), "pids")
	parent := helperCmd("parent-death", "PIDFILE="+pidfile)
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // on failure too: the helper would sleep for an hour
		_ = parent.Process.Kill()
		_ = parent.Wait()
	})
	root := waitPids(t, pidfile, 1)[0]
	if !processRunning(root) {
		t.Fatal("the root is not running: the test proves nothing")
	}
	if err := parent.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	waitDead(t, root, "the root of a killed parent's tree")
}

// BenchmarkTree measures what a tree adds to a command's life (its start,
// and the search for what the command left behind once it has ended)
// over exec.Cmd.Run of the same command.
func BenchmarkTree(b *testing.B) {
	true := "true"
	args := []string{}
	if runtime.GOOS == "windows" {
		true, args = "cmd", []string{"/c", "exit"}
	}
	b.Run("exec.Cmd.Run", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command(true, args...).Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Start+End", func(b *testing.B) {
		for b.Loop() {
			tr, err := Start(exec.Command(true, args...))
			if err != nil {
				b.Fatal(err)
			}
			<-tr.Done()
			if !tr.End(context.Background()) {
				b.Fatal("not gone")
			}
		}
	})
}
