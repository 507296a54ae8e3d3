package chat

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/mcphost/mcphost/internal/ptytest"
)

// openPTY opens a pseudo-terminal and returns its terminal end.
func openPTY(t *testing.T) *os.File {
	t.Helper()
	ptm, pts, err := ptytest.Open()
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { ptm.Close(); pts.Close() })
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
