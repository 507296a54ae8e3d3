package chat

import (
	"io"
	"testing"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/sys/unix"

	"github.com/mcphost/mcphost/internal/ptytest"
)

// TestPromptLeavesWhatFollowsItsEnter: two lines typed in one burst (a
// paste without bracketed paste, a fast typist, tmux send-keys) reach the
// prompt at once; the prompt takes the first, and the second stays in the
// terminal for whoever reads next, as it would have with a slower typist.
// Bubble Tea alone reads both and drops the second with the program.
func TestPromptLeavesWhatFollowsItsEnter(t *testing.T) {
	ptm, pts, err := ptytest.Open()
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	defer ptm.Close()
	defer pts.Close()
	restore := charMode(pts)
	defer restore()
	// The program's drawing, read so that the terminal never blocks it.
	go io.Copy(io.Discard, ptm)

	if _, err := ptm.Write([]byte("first line\rsecond line\r")); err != nil {
		t.Fatal(err)
	}
	// Both lines are in the terminal before the prompt starts.
	fds := []unix.PollFd{{Fd: int32(pts.Fd()), Events: unix.POLLIN}}
	if n, err := unix.Poll(fds, 10_000); err != nil || n == 0 {
		t.Fatalf("the keys never reached the terminal: %v", err)
	}
	ed := newEditor(nil, nil, 80, true)
	ed.input = newLineInput(pts)
	p := tea.NewProgram(ed, tea.WithInput(ed.input), tea.WithOutput(pts), tea.WithoutSignalHandler())
	if _, err := p.Run(); err != nil {
		t.Fatal(err)
	}
	ed.input.Close()
	if ed.value != "first line" {
		t.Errorf("the prompt got %q, want the first line", ed.value)
	}
	a := &typeAhead{}
	for pendingInput(pts) {
		buf := make([]byte, 64)
		n, err := pts.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		a.feed(buf[:n])
	}
	// Left in the terminal, not read by the prompt at all.
	if got := string(a.text); got != "second line\n" || ed.after != "" {
		t.Errorf("left in the terminal: %q (read by the prompt after its end: %q), want the second line with its Enter", got, ed.after)
	}
}
