package ui

import (
	"io"
	"strings"
	"sync"
	"time"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/termtext"
)

// Startup shows the servers' start as it happens, on one line of a
// terminal redrawn in place: "starting fs ✓, git ✗, slow… 2.3s". The line
// is cleared once every server has answered (a failure is reported in
// full elsewhere, as a warning); off a terminal it shows nothing, so
// piped output gets nothing extra.
type Startup struct {
	spin spinner
	tty  bool
	st   Style

	mu    sync.Mutex
	order []string
	done  map[string]error
	since time.Time
	// closed is set by Stop: the line never comes back.
	closed bool
	// model is the model the engine is being asked about, if any: an
	// engine that does not answer (Ollama not running, retries) shows as
	// a wait rather than a blank screen.
	model string
}

// startupDelay is how long a start must take before it is shown: a warm
// start is over before it would flicker.
const startupDelay = 200 * time.Millisecond

// NewStartup returns the display of the start of servers on w; terminal
// says whether w is one, width is its width.
func NewStartup(w io.Writer, terminal bool, width int, st Style) *Startup {
	return &Startup{spin: spinner{w: w, width: width, delay: startupDelay}, tty: terminal, st: st, done: map[string]error{}}
}

// Handle takes news of the start (host.Options.OnStart); it may be called
// from several goroutines at once.
func (s *Startup) Handle(n host.StartNews) {
	if !s.tty {
		return
	}
	s.mu.Lock()
	if len(n.Starting) > 0 {
		s.order = append(s.order, n.Starting...)
		if s.since.IsZero() {
			s.since = time.Now()
		}
	}
	switch {
	case n.Model != "" && !n.Done:
		s.model = n.Model
		if s.since.IsZero() {
			s.since = time.Now()
		}
	case n.Model != "":
		s.model = ""
	case n.Server != "":
		s.done[n.Server] = n.Err
	}
	if s.closed || !s.pending() {
		s.mu.Unlock()
		s.spin.Stop()
		return
	}
	// Started under mu, so that a Stop cannot come between the check
	// and the start (the spinner's frames take mu only in its goroutine).
	s.spin.Start(s.frame)
	s.mu.Unlock()
}

func (s *Startup) frame() string { return s.line(time.Now()) }

// pending reports whether the line has anything to wait for; the caller
// holds mu.
func (s *Startup) pending() bool { return s.model != "" || len(s.done) < len(s.order) }

// Stop clears the line, whether or not every server has answered: what
// follows (a chat's prompt) takes the terminal.
func (s *Startup) Stop() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.spin.Stop()
}

// line is the display at now.
func (s *Startup) line(now time.Time) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	items := make([]string, 0, len(s.order)+1)
	if s.model != "" {
		items = append(items, "model "+termtext.Line(s.model)+"…")
	}
	for _, name := range s.order {
		label := termtext.Line(name)
		err, done := s.done[name]
		switch {
		case !done:
			items = append(items, label+"…")
		case err != nil:
			items = append(items, label+" "+s.st.Fail("✗"))
		default:
			items = append(items, label+" "+s.st.OK("✓"))
		}
	}
	return "starting " + strings.Join(items, ", ") + " " + s.st.Dim(elapsed(now.Sub(s.since)))
}

// Interrupt runs print (a warning) with the line out of its way, then
// shows the line again if servers are still starting.
func (s *Startup) Interrupt(print func()) {
	s.spin.Stop()
	print()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tty && !s.closed && s.pending() {
		s.spin.Start(s.frame)
	}
}
