package ui

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// spinner shows that something is in progress on a terminal line of its
// own. Stop clears the line before returning, so the caller can write to the
// same terminal without the spinner scribbling over it.
type spinner struct {
	w    io.Writer
	mu   sync.Mutex
	stop chan struct{}
	done chan struct{}
}

var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// Start shows label with an animation until Stop; a running spinner just
// changes its label.
func (s *spinner) Start(label string) {
	s.Stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stop = make(chan struct{})
	s.done = make(chan struct{})
	go s.spin(label, s.stop, s.done)
}

func (s *spinner) spin(label string, stop, done chan struct{}) {
	defer close(done)
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for i := 0; ; i++ {
		fmt.Fprintf(s.w, "\r\x1b[2K%s %s", spinnerFrames[i%len(spinnerFrames)], label)
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
