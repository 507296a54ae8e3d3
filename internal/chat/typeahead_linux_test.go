package chat

import (
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/mcphost/mcphost/internal/ptytest"
)

// TestTypeAheadOnATerminal runs the turn-time reader on a pseudo-terminal:
// keys typed are kept, a question holding the reader gets the next key
// itself, a lone Esc is reported, and stopping puts the modes back.
func TestTypeAheadOnATerminal(t *testing.T) {
	ptm, pts, err := ptytest.Open()
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	defer ptm.Close()
	defer pts.Close()
	before := lflag(t, pts)

	esc := make(chan struct{}, 1)
	a := &typeAhead{f: pts, onEsc: func() { esc <- struct{}{} }, restore: charMode(pts)}
	if got := lflag(t, pts); got&(unix.ECHO|unix.ICANON) != 0 || got&unix.ISIG == 0 {
		t.Fatalf("during a turn lflag = %#x: want no echo, no line mode, signals on", got)
	}
	a.start()
	kept := func() string { a.mu.Lock(); defer a.mu.Unlock(); return string(a.text) }
	waitKept := func(want string) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for kept() != want {
			if time.Now().After(deadline) {
				t.Fatalf("kept %q, want %q", kept(), want)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	ptm.Write([]byte("hello"))
	waitKept("hello")

	a.hold()
	ptm.Write([]byte("y"))
	b := make([]byte, 1)
	if n, err := pts.Read(b); n != 1 || b[0] != 'y' || err != nil {
		t.Fatalf("a question holding the reader read %q, %v", b[:n], err)
	}
	a.release()

	ptm.Write([]byte(" world"))
	waitKept("hello world")
	ptm.Write([]byte{0x1b})
	select {
	case <-esc:
	case <-time.After(5 * time.Second):
		t.Fatal("Esc was not reported")
	}
	if got := a.stop(); got != "hello world" {
		t.Errorf("stop returned %q", got)
	}
	if got := lflag(t, pts); got != before {
		t.Errorf("after the turn lflag = %#x, want %#x", got, before)
	}
}
