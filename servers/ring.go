package servers

import (
	"strings"
	"sync"
	"unicode/utf8"
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

// add keeps line, cleaned of what must not reach a terminal raw.
func (r *lineRing) add(line string) {
	line = cleanLine(line)
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

// cleanLine makes a line a server wrote safe to print: invalid UTF-8
// becomes U+FFFD, terminal escape sequences and other control characters
// are dropped (a tab becomes a space). Server output reaches the user in
// warnings, errors and logs, and must not be able to move the cursor,
// retitle the window or clear the screen.
func cleanLine(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r == 0x1b:
			i += escapeLen(s[i:])
			continue
		case r == '\t':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			// dropped
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// escapeLen is the length of the terminal escape sequence at the start of
// s: CSI (ESC [ ... final byte), OSC (ESC ] ... BEL or ESC \), or ESC and
// one more byte.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1
			}
		}
		return len(s)
	case ']':
		for i := 2; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
		return len(s)
	}
	return 2
}
