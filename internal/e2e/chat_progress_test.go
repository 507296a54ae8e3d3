//go:build linux

package e2e

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/ollamatest"
)

// waitForMatch polls the screen until re matches it and returns the
// submatches of the last match.
func (term *terminal) waitForMatch(re *regexp.Regexp) []string {
	term.t.Helper()
	var s string
	var m []string
	if !poll(50*time.Millisecond, func() bool {
		s = term.screen()
		all := re.FindAllStringSubmatch(s, -1)
		if len(all) == 0 {
			return false
		}
		m = all[len(all)-1]
		return true
	}) {
		term.t.Fatalf("the terminal never showed %v; it shows:\n%s", re, s)
	}
	return m
}

// waitForGrowing waits until re's first group, a number of seconds, has
// shown two different values: a counter that moves.
func (term *terminal) waitForGrowing(re *regexp.Regexp) {
	term.t.Helper()
	first := term.waitForMatch(re)[1]
	var s string
	if !poll(50*time.Millisecond, func() bool {
		s = term.screen()
		m := re.FindStringSubmatch(s)
		if m == nil {
			return false
		}
		a, _ := strconv.ParseFloat(first, 64)
		b, _ := strconv.ParseFloat(m[1], 64)
		return b > a
	}) {
		term.t.Fatalf("%v stayed at %s; the terminal shows:\n%s", re, first, s)
	}
}

// TestChatShowsElapsedTimeAndProgress: while the model thinks, the
// spinner counts the seconds; after the user approves server-everything's
// long-running operation the call's line is back, with its own elapsed
// time and the server's progress notifications.
func TestChatShowsElapsedTimeAndProgress(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{Hold: hold, ToolCalls: []api.ToolCall{ollamatest.Call("everything__trigger-long-running-operation",
			map[string]any{"duration": 4, "steps": 4})}},
		ollamatest.Reply{Content: "All done."},
	)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	writeConfig(t, dir, ".mcphost.yml", "approval:\n  ask: [\"everything__trigger-long-running-operation\"]\n")
	term := startTerminal(t, dir, chatEnv(t, ollama.URL), "-m", "tiny")
	term.waitFor("servers ready")

	term.typeLine("run the long operation")
	term.waitForGrowing(regexp.MustCompile(`waiting for the model… (\d+\.\d)s`))
	close(hold)
	term.waitFor("[r] no, and say why")
	term.keys("y")
	// After the question, the call's own line: elapsed time counting and
	// the progress the server reports, as "2/4 (50%)".
	running := regexp.MustCompile(`running everything › trigger-long-running-operation… (\d+\.\d)s · (\d)/4 \((\d+)%\)`)
	m := term.waitForMatch(running)
	if n, _ := strconv.Atoi(m[2]); n < 1 || m[3] != strconv.Itoa(25*n) {
		t.Errorf("progress %s/4 shown as %s%%", m[2], m[3])
	}
	term.waitForGrowing(running)
	term.waitFor("All done.")
	term.waitFor("✓ everything › trigger-long-running-operation")
	term.keys("C-d")
	term.waitExit()
}

// waitForListing waits until the screen, after the last from, shows a
// header matching head, whose first group is a count, followed by that
// many rows starting with indent: a listing drawn to its end, not one
// captured while the terminal is still drawing it. It returns the screen
// from the last from on.
func (term *terminal) waitForListing(from string, head *regexp.Regexp, indent string) string {
	term.t.Helper()
	var s string
	if !poll(50*time.Millisecond, func() bool {
		s = term.screen()
		i := strings.LastIndex(s, from)
		if i < 0 {
			return false
		}
		s = s[i:]
		loc := head.FindStringSubmatchIndex(s)
		if loc == nil {
			return false
		}
		n, _ := strconv.Atoi(s[loc[2]:loc[3]])
		rows := 0
		for line := range strings.Lines(s[loc[1]:]) {
			if rows > 0 || strings.HasPrefix(line, indent) {
				if !strings.HasPrefix(line, indent) {
					break
				}
				rows++
			}
		}
		return rows >= n
	}) {
		term.t.Fatalf("the terminal never showed the whole listing after %q (%v); it shows:\n%s", from, head, s)
	}
	return s
}
