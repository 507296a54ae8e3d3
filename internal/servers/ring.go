package servers

import (
	"strings"
	"sync"

	"github.com/mcphost/mcphost/internal/termtext"
)

// lineRing keeps the last lines a server wrote to stderr. It has its own
// lock because the stderr reader writes to it outside the manager's lock.
type lineRing struct {
	mu    sync.Mutex
	lines []string
	next  int // where the next line goes once the ring is full
	full  bool
	total int // lines added so far, kept or not
}

func newLineRing(size int) *lineRing {
	size = max(size, 1)
	return &lineRing{lines: make([]string, 0, size)}
}

// add keeps line, cleaned of what must not reach a terminal raw.
func (r *lineRing) add(line string) {
	line = cleanLine(line)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.total++
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

// mark is a point in the log: since(mark) returns what came after it.
func (r *lineRing) mark() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.total
}

// since returns the lines added after mark that are still kept, oldest
// first.
func (r *lineRing) since(mark int) []string {
	r.mu.Lock()
	n := r.total - mark
	r.mu.Unlock()
	lines := r.snapshot()
	if n < len(lines) {
		lines = lines[len(lines)-max(n, 0):]
	}
	return lines
}

// last returns the newest line that is not blank, or "".
func (r *lineRing) last() string { return r.lastExcept("") }

// lastExcept returns the newest line that is not blank and does not start
// with prefix (when prefix is not empty), or "".
func (r *lineRing) lastExcept(prefix string) string {
	lines := r.snapshot()
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.TrimSpace(lines[i]) != "" && (prefix == "" || !strings.HasPrefix(lines[i], prefix)) {
			return lines[i]
		}
	}
	return ""
}

// cleanLine makes a line a server wrote safe to print (see termtext):
// server output reaches the user in warnings, errors and logs, and must not
// be able to move the cursor, retitle the window or clear the screen.
func cleanLine(s string) string { return termtext.Line(s) }
