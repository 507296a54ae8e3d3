//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package chat

import (
	"io"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// lineInput is the terminal as the prompt's editor reads it: the keys up
// to and including an Enter, then nothing more until the editor has taken
// that Enter and goes on editing (next), or is done (close). Bubble Tea
// reads what the terminal has, decodes it and hands it to its program
// key by key; what it read past the Enter that ends the prompt is dropped
// with the program, so a line typed ahead with its Enter in one burst (a
// paste, a fast typist, tmux send-keys) would lose what follows the
// first Enter. Read this way, what follows stays in the terminal for
// whoever reads next: the type-ahead reader or the next prompt.
//
// Bytes are read one at a time, and only while the terminal has more:
// a read cannot stop at an Enter otherwise, and a terminal gives back
// nothing once read. It is a File (Fd, Name), so that Bubble Tea puts the
// terminal in raw mode and cancels a read that waits, as it does for the
// terminal itself.
type lineInput struct {
	*os.File

	mu   sync.Mutex
	cond *sync.Cond
	// held: an Enter was read and the editor has not taken it yet.
	held   bool
	closed bool
	// last is the end of what was read, to follow bracketed pastes, whose
	// Enters are text, not keys.
	last    []byte
	inPaste bool
}

// newLineInput returns f read a line at a time.
func newLineInput(f *os.File) *lineInput {
	l := &lineInput{File: f}
	l.cond = sync.NewCond(&l.mu)
	return l
}

// Read returns the keys waiting in the terminal, up to an Enter; after an
// Enter it waits for next or close.
func (l *lineInput) Read(p []byte) (int, error) {
	l.mu.Lock()
	for l.held && !l.closed {
		l.cond.Wait()
	}
	closed := l.closed
	l.mu.Unlock()
	if closed || len(p) == 0 {
		return 0, io.EOF
	}
	fd := int(l.Fd())
	n := 0
	for n < len(p) {
		// The first byte is there: Read is called once the terminal is
		// readable. Later ones only if the terminal has them now.
		if n > 0 && !pendingInput(l.File) {
			break
		}
		k, err := unix.Read(fd, p[n:n+1])
		if err == unix.EINTR {
			continue
		}
		if err == unix.EAGAIN && n == 0 {
			// A terminal left non-blocking by another program: wait for
			// the key rather than fail the prompt, unless it is over.
			if l.isClosed() {
				return 0, io.EOF
			}
			_, _ = unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, 100)
			continue
		}
		if err != nil || k == 0 {
			if n > 0 {
				break
			}
			if err == nil {
				err = io.EOF
			}
			return 0, err
		}
		b := p[n]
		n++
		if l.track(b) {
			l.mu.Lock()
			l.held = true
			l.mu.Unlock()
			break
		}
	}
	return n, nil
}

// track follows pastes and reports whether b is an Enter key (CR, or LF:
// Ctrl-J, which the editor takes as Enter too).
func (l *lineInput) track(b byte) (enter bool) {
	l.last = append(l.last, b)
	if len(l.last) > len(pasteStart) {
		l.last = l.last[1:]
	}
	switch string(l.last) {
	case pasteStart:
		l.inPaste = true
	case pasteEnd:
		l.inPaste = false
	}
	return (b == '\r' || b == '\n') && !l.inPaste
}

func (l *lineInput) isClosed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closed
}

// next lets the reading go on past the Enter the editor took.
func (l *lineInput) next() {
	if l == nil {
		return
	}
	l.mu.Lock()
	l.held = false
	l.cond.Broadcast()
	l.mu.Unlock()
}

// Close ends the reading for good: a Read waiting after an Enter returns
// at once, and nothing more is taken from the terminal. The terminal
// itself stays open.
func (l *lineInput) Close() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	l.closed = true
	l.cond.Broadcast()
	l.mu.Unlock()
	return nil
}
