package servers

import (
	"strings"
	"sync"
)

// lineRing keeps the last lines a server wrote to stderr. It has its own
// lock because the stderr reader writes to it outside the manager's lock.
type lineRing struct {
	mu    sync.Mutex
	lines []string
	next  int // where the next line goes once the ring is full
	full  bool
}

func newLineRing(size int) *lineRing {
	size = max(size, 1)
	return &lineRing{lines: make([]string, 0, size)}
}

func (r *lineRing) add(line string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.full {
		r.lines = append(r.lines, line)
		r.full = len(r.lines) == cap(r.lines)
		return
	}
	r.lines[r.next] = line
	r.next = (r.next + 1) % len(r.lines)
}

// snapshot returns the kept lines, oldest first.
func (r *lineRing) snapshot() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, 0, len(r.lines))
	out = append(out, r.lines[r.next:]...)
	return append(out, r.lines[:r.next]...)
}

// last returns the newest line that is not blank, or "".
func (r *lineRing) last() string {
	lines := r.snapshot()
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.TrimSpace(lines[i]) != "" {
			return lines[i]
		}
	}
	return ""
}
