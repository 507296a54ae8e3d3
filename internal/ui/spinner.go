package ui

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// spinner shows that something is in progress on a terminal line of its
// own, redrawn every frame from label (which may change meanwhile: an
// elapsed time, a server's progress). Stop clears the line before
// returning, so the caller can write to the same terminal without the
// spinner scribbling over it.
type spinner struct {
	w io.Writer
	// width is the terminal's; the line is cut to fit, since a line that
	// wraps could not be cleared by the next frame.
	width int
	// delay holds the first frame back: what is over sooner never
	// flickers on screen.
	delay time.Duration
	mu    sync.Mutex
	stop  chan struct{}
	done  chan struct{}
}

var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// Start shows label() with an animation until Stop; a running spinner
// keeps running, its next frame reading label again.
func (s *spinner) Start(label func() string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stop != nil {
		return
	}
	s.stop = make(chan struct{})
	s.done = make(chan struct{})
	go s.spin(label, s.stop, s.done)
}

func (s *spinner) spin(label func() string, stop, done chan struct{}) {
	defer close(done)
	if s.delay > 0 {
		wait := time.NewTimer(s.delay)
		defer wait.Stop()
		select {
		case <-stop:
			return
		case <-wait.C:
		}
	}
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for i := 0; ; i++ {
		line := spinnerFrames[i%len(spinnerFrames)] + " " + label()
		if s.width > 0 {
			// One column spare: a line that fills the row leaves the
			// cursor waiting to wrap on some terminals.
			line = Fit(line, s.width-1)
		}
		fmt.Fprintf(s.w, "\r\x1b[2K%s", line)
		select {
		case <-stop:
			fmt.Fprint(s.w, "\r\x1b[2K")
			return
		case <-t.C:
		}
	}
}

// Stop removes the spinner; it is a no-op when none runs.
func (s *spinner) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stop == nil {
		return
	}
	close(s.stop)
	<-s.done
	s.stop, s.done = nil, nil
}
