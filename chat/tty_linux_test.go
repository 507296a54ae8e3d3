package chat

import (
	"fmt"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal and returns its terminal end.
func openPTY(t *testing.T) *os.File {
	t.Helper()
	ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { ptm.Close() })
	if err := unix.IoctlSetPointerInt(int(ptm.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(ptm.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	pts, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pts.Close() })
	return pts
}

func lflag(t *testing.T, f *os.File) uint32 {
	t.Helper()
	tio, err := unix.IoctlGetTermios(int(f.Fd()), ioctlGetTermios)
	if err != nil {
		t.Fatal(err)
	}
	return tio.Lflag
}

// TestEchoModes: a turn runs with echo off and signals on; an answer is
// typed with echo and line editing on; each restore puts back what was.
func TestEchoModes(t *testing.T) {
	pts := openPTY(t)
	before := lflag(t, pts)
	if before&unix.ECHO == 0 || before&unix.ISIG == 0 {
		t.Fatalf("a new terminal has lflag %#x: the test proves nothing", before)
	}
	restore := noEcho(pts)
	during := lflag(t, pts)
	if during&unix.ECHO != 0 || during&unix.ISIG == 0 {
		t.Errorf("during a turn lflag = %#x: want echo off, signals on", during)
	}
	answer := withEcho(pts)
	if got := lflag(t, pts); got&unix.ECHO == 0 || got&unix.ICANON == 0 {
		t.Errorf("while answering lflag = %#x: want echo and line editing", got)
	}
	answer()
	if got := lflag(t, pts); got != during {
		t.Errorf("after the answer lflag = %#x, want %#x", got, during)
	}
	restore()
	if got := lflag(t, pts); got != before {
		t.Errorf("after the turn lflag = %#x, want %#x", got, before)
	}
	// Not a terminal: nothing happens, nothing fails.
	noEcho(os.Stdin)()
	noEcho(nil)()
}
