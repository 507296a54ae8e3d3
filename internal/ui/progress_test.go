package ui

import (
	"bytes"
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/provider"
)

func TestStyleColoursOnlyOnATerminalWithoutNoColor(t *testing.T) {
	for _, tc := range []struct {
		name    string
		st      Style
		want    []string // OK, Fail, Warning, Error, Question, Dim of "x"
		colored bool
	}{
		{"terminal", NewStyle(true, false), []string{"\x1b[32mx\x1b[39m", "\x1b[31mx\x1b[39m", "\x1b[33mx\x1b[39m",
			"\x1b[1;31mx\x1b[22;39m", "\x1b[1;36mx\x1b[22;39m", "\x1b[2mx\x1b[22m"}, true},
		{"NO_COLOR", NewStyle(true, true), []string{"x", "x", "x", "x", "x", "x"}, false},
		{"piped", NewStyle(false, false), []string{"x", "x", "x", "x", "x", "x"}, false},
	} {
		got := []string{tc.st.OK("x"), tc.st.Fail("x"), tc.st.Warning("x"), tc.st.Error("x"), tc.st.Question("x"), tc.st.Dim("x")}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: style %d = %q, want %q", tc.name, i, got[i], tc.want[i])
			}
		}
		if tc.st.Color() != tc.colored {
			t.Errorf("%s: Color() = %v", tc.name, tc.st.Color())
		}
	}
}

func TestFitCutsToTheTerminalWidth(t *testing.T) {
	for _, tc := range []struct {
		in    string
		width int
		want  string
	}{
		{"short", 10, "short"},
		{"exactly ten", 11, "exactly ten"},
		{"a line that is too long", 10, "a line th…"},
		{"世界世界世界", 7, "世界世…"}, // wide characters count two
		{"\x1b[32m✓\x1b[39m done and more", 8, "\x1b[32m✓\x1b[39m done …"},
		{"no terminal, no cut", 0, "no terminal, no cut"},
		{"each line is cut\nshort\n\na second long line", 10, "each line…\nshort\n\na second …"},
	} {
		got := Fit(tc.in, tc.width)
		if got != tc.want {
			t.Errorf("Fit(%q, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
		}
		for _, line := range strings.Split(got, "\n") {
			if tc.width > 0 && ansi.StringWidth(line) > tc.width {
				t.Errorf("Fit(%q, %d) has a line %d columns wide", tc.in, tc.width, ansi.StringWidth(line))
			}
		}
	}
}

func TestStyledToolLineIsColouredAndFits(t *testing.T) {
	ev := host.ToolCallFinished{Call: provider.ToolCall{Name: "fs__read", Arguments: map[string]any{"path": strings.Repeat("x", 50)}},
		Server: "fs", Tool: "read", Duration: 1500 * time.Millisecond, Output: "contents"}
	line := StyledToolLine(ev, NewStyle(true, false), 40)
	if !strings.HasPrefix(line, "\x1b[32m✓\x1b[39m fs › read ") {
		t.Errorf("the ✓ is not green: %q", line)
	}
	if w := ansi.StringWidth(line); w != 40 || !strings.HasSuffix(ansi.Strip(line), "…") {
		t.Errorf("%d columns, not cut with …: %q", w, line)
	}
	ev.IsError = true
	if line := StyledToolLine(ev, NewStyle(true, false), 0); !strings.HasPrefix(line, "\x1b[31m✗\x1b[39m") || !strings.Contains(line, "\x1b[2m· 1.5s · contents\x1b[22m") {
		t.Errorf("not a red ✗ with dim metadata: %q", line)
	}
	if line := StyledToolLine(ev, NewStyle(true, true), 0); strings.Contains(line, "\x1b") || line != ToolLine(ev) {
		t.Errorf("NO_COLOR: %q, want %q", line, ToolLine(ev))
	}
}

func TestActivityLineCountsFromTheApproval(t *testing.T) {
	var a activity
	t0 := time.Now()
	st := Style{}
	a.waitModel(t0)
	if got := a.line(t0.Add(3200*time.Millisecond), st); got != "waiting for the model… 3.2s" {
		t.Errorf("model: %q", got)
	}
	call := provider.ToolCall{ID: "c1", Name: "fs__read"}
	a.started(host.ToolCallStarted{Call: call, Server: "fs", Tool: "read"}, t0)
	if got := a.line(t0.Add(1400*time.Millisecond), st); got != "running fs › read… 1.4s" {
		t.Errorf("tool: %q", got)
	}
	// A question is on screen: nothing is drawn over it.
	a.ask(true)
	if a.showing() {
		t.Error("the spinner shows over a question")
	}
	// A second question is taken before the first gives the terminal
	// back: the spinner stays away until both have.
	a.ask(true)
	a.ask(false)
	if a.showing() {
		t.Error("the spinner shows over the second question")
	}
	a.approved(host.ToolCallApproved{Call: call, Server: "fs", Tool: "read"}, t0.Add(9*time.Second))
	if a.showing() {
		t.Error("another call's approval drew the spinner over a question")
	}
	// The user answers yes at t0+10s: the call's time starts there.
	a.ask(false)
	a.approved(host.ToolCallApproved{Call: call, Server: "fs", Tool: "read"}, t0.Add(10*time.Second))
	if !a.showing() {
		t.Error("no spinner after the approval")
	}
	a.progressed(host.ToolProgress{Call: call, Progress: 2, Total: 5, Message: "reading"})
	if got := a.line(t0.Add(11*time.Second), st); got != "running fs › read… 1.0s · 2/5 (40%) reading" {
		t.Errorf("after approval: %q", got)
	}
	other := provider.ToolCall{ID: "c2", Name: "git__log"}
	a.started(host.ToolCallStarted{Call: other, Server: "git", Tool: "log"}, t0.Add(11*time.Second))
	if got := a.line(t0.Add(12*time.Second), st); got != "running git › log… 1.0s (+1 more)" {
		t.Errorf("two calls: %q", got)
	}
	a.finished(host.ToolCallFinished{Call: other})
	a.finished(host.ToolCallFinished{Call: call})
	if a.showing() {
		t.Error("a spinner with nothing in flight")
	}
}

// syncBuffer is a bytes.Buffer the spinner's goroutine may write to.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// last is the spinner's last frame: what follows the last line clear.
func (s *syncBuffer) last() string {
	out := s.String()
	return out[strings.LastIndex(out, "\r\x1b[2K")+len("\r\x1b[2K"):]
}

// The spinner runs on synctest's fake clock: synctest.Wait returns once
// its goroutine has drawn a frame and waits on its ticker, so each frame
// is known exactly, with no polling of real time.
func TestSpinnerShowsProgressAndComesBackAfterAQuestion(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var errOut syncBuffer
		o := NewText(TextOptions{Out: &bytes.Buffer{}, Err: &errOut, ErrTTY: true, Width: 60, NoColor: true})
		call := provider.ToolCall{ID: "c1", Name: "fs__read"}
		o.Handle(host.ToolCallStarted{Call: call, Server: "fs", Tool: "read"})
		o.Handle(host.ToolProgress{Call: call, Server: "fs", Tool: "read", Progress: 1, Total: 4})
		// A frame every 100ms, the time counting from the call's start:
		// the fifteenth frame at 1.4s.
		time.Sleep(1450 * time.Millisecond)
		synctest.Wait()
		if got, want := errOut.last(), "⠼ running fs › read… 1.4s · 1/4 (25%)"; got != want {
			t.Errorf("frame at 1.45s = %q, want %q", got, want)
		}
		o.Pause()
		if !strings.HasSuffix(errOut.String(), "\r\x1b[2K") {
			t.Errorf("the spinner stays over a question: %q", errOut.String())
		}
		// Nothing is drawn while the question is on screen.
		mark := len(errOut.String())
		time.Sleep(10 * time.Second)
		synctest.Wait()
		if after := errOut.String()[mark:]; after != "" {
			t.Errorf("the spinner drew over a question: %q", after)
		}
		// The answer comes: the call is shown again, its time from zero.
		o.Release()
		synctest.Wait()
		if after := errOut.String()[mark:]; after != "" {
			t.Errorf("the spinner drew before the call's approval: %q", after)
		}
		o.Handle(host.ToolCallApproved{Call: call, Server: "fs", Tool: "read"})
		synctest.Wait()
		if got, want := errOut.last(), "⠋ running fs › read… 0.0s · 1/4 (25%)"; got != want {
			t.Errorf("frame after the answer = %q, want %q", got, want)
		}
		time.Sleep(250 * time.Millisecond)
		synctest.Wait()
		if got, want := errOut.last(), "⠹ running fs › read… 0.2s · 1/4 (25%)"; got != want {
			t.Errorf("frame at 0.25s after the answer = %q, want %q", got, want)
		}
		o.Handle(host.ToolCallFinished{Call: call, Server: "fs", Tool: "read", Output: "ok"})
		if !strings.HasSuffix(errOut.String(), "\r\x1b[2K✓ fs › read {} · 0µs · ok\n") {
			t.Errorf("the spinner was not cleared before the tool line: %q", errOut.String())
		}
	})
}

func TestWarnStyledIsYellowAndWrapsWhole(t *testing.T) {
	var b bytes.Buffer
	WarnStyled(&b, NewStyle(true, false), 30, "the server fs logged an error that is long")
	want := "\x1b[33mwarning:\x1b[39m the server fs logged\n         an error that is long\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	b.Reset()
	WarnStyled(&b, NewStyle(false, false), 0, "plain \x1b[31mred\x1b[0m")
	if b.String() != "warning: plain red\n" {
		t.Errorf("piped: %q", b.String())
	}
}

func TestStartupShowsEachServerAsItAnswers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var w syncBuffer
		s := NewStartup(&w, true, 80, Style{})
		s.Handle(host.StartNews{Model: "tiny"})
		s.Handle(host.StartNews{Starting: []string{"fs", "slow", "bad"}})
		// A start that is over sooner than startupDelay is never shown.
		time.Sleep(startupDelay - time.Millisecond)
		synctest.Wait()
		if w.String() != "" {
			t.Errorf("shown before %s: %q", startupDelay, w.String())
		}
		time.Sleep(time.Millisecond)
		synctest.Wait()
		if got, want := w.last(), "⠋ starting model tiny…, fs…, slow…, bad… 0.2s"; got != want {
			t.Errorf("first frame = %q, want %q", got, want)
		}
		s.Handle(host.StartNews{Model: "tiny", Done: true})
		s.Handle(host.StartNews{Server: "fs"})
		s.Handle(host.StartNews{Server: "bad", Err: errors.New("exit 1")})
		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		if got, want := w.last(), "⠙ starting fs ✓, slow…, bad ✗ 0.3s"; got != want {
			t.Errorf("second frame = %q, want %q", got, want)
		}
		s.Handle(host.StartNews{Server: "slow"})
		if !strings.HasSuffix(w.String(), "\r\x1b[2K") {
			t.Errorf("the line stays once all have answered: %q", w.String())
		}
	})

	var piped bytes.Buffer
	p := NewStartup(&piped, false, 0, Style{})
	p.Handle(host.StartNews{Starting: []string{"fs"}})
	p.Handle(host.StartNews{Server: "fs"})
	p.Stop()
	if piped.Len() != 0 {
		t.Errorf("piped: %q", piped.String())
	}
}

func TestNoSpinnerOverAStreamingAnswer(t *testing.T) {
	var errOut syncBuffer
	o := NewText(TextOptions{Out: &errOut, Err: &errOut, ErrTTY: true, Width: 60, NoColor: true})
	o.Handle(host.ModelCallStarted{Step: 1})
	o.Handle(host.TextDelta{Text: "The answer so far"})
	// A notice or a warning while the answer streams does not bring the
	// spinner back over it.
	o.Interrupt(func() {})
	o.Handle(host.Warning{Message: "careful"})
	o.Handle(host.ModelCallFinished{Step: 1})
	if s := errOut.String(); strings.Contains(s[strings.Index(s, "The answer"):], "waiting for the model") {
		t.Errorf("the spinner came back over the answer: %q", s)
	}
}

// TestNothingIsPrintedIntoAQuestion: a call that finishes, a notice or a
// warning while a question has the terminal is printed once the question
// is answered, below it.
func TestNothingIsPrintedIntoAQuestion(t *testing.T) {
	var errOut bytes.Buffer
	o := NewText(TextOptions{Out: &bytes.Buffer{}, Err: &errOut, NoColor: true})
	call := provider.ToolCall{ID: "c1", Name: "fs__read"}
	o.Handle(host.ToolCallStarted{Call: call, Server: "fs", Tool: "read"})
	o.Pause()
	errOut.WriteString("? the question: ")
	o.Handle(host.ToolCallFinished{Call: call, Server: "fs", Tool: "read", Output: "ok"})
	o.Interrupt(func() { errOut.WriteString("· a notice\n") })
	o.Warn("a warning")
	if got := errOut.String(); got != "? the question: " {
		t.Errorf("printed into the question: %q", got)
	}
	errOut.WriteString("yes\n")
	o.Resume()
	if got, want := errOut.String(), "? the question: yes\n✓ fs › read {} · 0µs · ok\n· a notice\nwarning: a warning\n"; got != want {
		t.Errorf("after the answer:\n%q\nwant\n%q", got, want)
	}
}
