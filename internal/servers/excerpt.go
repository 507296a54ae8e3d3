package servers

import (
	"strings"

	"github.com/mcphost/mcphost/internal/termtext"
)

// Bounds of the stderr a start error quotes: the first lines that look
// like an error (the cause is often the first thing a server says, before
// its usage text or a stack) and the last lines (where it says what it
// gave up on), each cut to excerptWidth.
const (
	excerptErrors = 3
	excerptTail   = 3
	excerptWidth  = 240
)

// errorWords mark a line as the likely cause of a failure.
var errorWords = []string{"error", "fatal", "exception", "panic", "traceback", "failed", "failure", "cannot", "can't",
	"could not", "couldn't", "unable", "not found", "no such", "denied", "invalid", "missing", "refused", "unknown",
	"not set", "required", "unsupported", "err!"}

// statusWords mark a line that says what a running server is doing
// ("Listening on http://localhost:8931/mcp", "Server running on stdio"):
// when a start or a call gets no answer, the line that says the server
// waits elsewhere (an HTTP server started as a stdio one) or for
// something is the explanation, however much it wrote after it.
var statusWords = []string{"listening", "running on", "running at", "serving on", "serving at", "server started",
	"started on", "started at", "waiting for", "ready on", "ready at", "bound to", "available at", "connecting to"}

// excerptRecent bounds the lines an ended server's excerpt looks at: the
// last ones before the end, not an error it reported and got over long ago.
const excerptRecent = 20

// noise is what servers write that explains nothing, such as npm's pointer
// to its own log.
var noise = []string{"a complete log of this run can be found in", "npm error a complete log"}

// stderrExcerpt picks the lines of a server's output that explain a
// failure: the first few that look like errors, the last that says what
// the server is doing (statusWords), and the last few, in their order,
// without repeats; empty when it wrote nothing useful.
func stderrExcerpt(lines []string) []string {
	var keep []int
	seen := map[string]bool{}
	add := func(i int) {
		l := strings.TrimSpace(lines[i])
		if l == "" || seen[l] {
			return
		}
		seen[l] = true
		keep = append(keep, i)
	}
	errs := 0
	for i, l := range lines {
		if errs < excerptErrors && looksLikeError(l) {
			add(i)
			errs++
		}
	}
	for i := len(lines) - 1; i >= 0; i-- {
		if looksLikeStatus(lines[i]) {
			add(i)
			break
		}
	}
	tail := 0
	for i := len(lines) - 1; i >= 0 && tail < excerptTail; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" && !isNoise(l) {
			add(i)
			tail++
		}
	}
	// In the server's order.
	for i := 1; i < len(keep); i++ {
		for j := i; j > 0 && keep[j] < keep[j-1]; j-- {
			keep[j], keep[j-1] = keep[j-1], keep[j]
		}
	}
	out := make([]string, 0, len(keep))
	for _, i := range keep {
		out = append(out, termtext.Truncate(strings.TrimSpace(lines[i]), excerptWidth))
	}
	return out
}

// endExcerpt is stderrExcerpt of the last lines a server wrote before it
// ended, those of its stdout that were not JSON-RPC left out.
func endExcerpt(lines []string) []string {
	var kept []string
	for _, l := range lines {
		if !strings.HasPrefix(l, junkPrefix) {
			kept = append(kept, l)
		}
	}
	return stderrExcerpt(kept[max(len(kept)-excerptRecent, 0):])
}

func looksLikeStatus(line string) bool {
	l := strings.ToLower(line)
	for _, w := range statusWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

func looksLikeError(line string) bool {
	l := strings.ToLower(line)
	if isNoise(l) {
		return false
	}
	for _, w := range errorWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

func isNoise(line string) bool {
	l := strings.ToLower(line)
	for _, n := range noise {
		if strings.Contains(l, n) {
			return true
		}
	}
	return false
}

// inline renders excerpt lines within a one-line message, such as a
// call's error, which a progress line or a model reads on one line.
func inline(lines []string) string {
	return strings.Join(lines, " | ")
}

// quoted renders excerpt lines under a message, indented.
func quoted(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return "\n  " + strings.Join(lines, "\n  ")
}
