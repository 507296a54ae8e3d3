package ui

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/termtext"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/runner"
)

// activity is what the spinner line of a turn tells: the model call being
// waited for, or the tool calls in flight with how long each has run and
// the progress its server last reported. The runner's events update it;
// the spinner's goroutine reads it for every frame.
type activity struct {
	mu sync.Mutex
	// model is when the model call began; zero when none is waited for.
	model time.Time
	calls []*callActivity
	// asking counts the questions to the user that have the terminal
	// (the chat draws one at a time, but one is taken before the last
	// gives it back): no spinner is drawn over them.
	asking int
	// held is what was to be printed while a question had the terminal
	// (finished calls' lines, notices, warnings): printed once the last
	// question gives it back, never into a question.
	held []func()
}

// callActivity is one tool call in flight.
type callActivity struct {
	call     runner.ToolCall
	label    string
	start    time.Time
	progress string
}

func (a *activity) waitModel(now time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.model = now
}

func (a *activity) modelDone() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.model = time.Time{}
}

func (a *activity) started(ev host.ToolCallStarted, now time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.model = time.Time{}
	a.calls = append(a.calls, &callActivity{call: ev.Call, label: toolLabel(ev.Server, ev.Tool, ev.Call.Name), start: now})
}

// approved restarts the clock of a call the user just allowed: the time
// the question was on screen is not the tool's.
func (a *activity) approved(ev host.ToolCallApproved, now time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if c := a.find(ev.Call); c != nil {
		c.start = now
	}
}

func (a *activity) progressed(ev host.ToolProgress) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if c := a.find(ev.Call); c != nil {
		c.progress = ProgressText(ev)
	}
}

func (a *activity) finished(ev host.ToolCallFinished) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for i, c := range a.calls {
		if sameCall(c.call, ev.Call) {
			a.calls = append(a.calls[:i], a.calls[i+1:]...)
			return
		}
	}
}

// find returns the call in flight that call is, nil if none; the caller
// holds a.mu.
func (a *activity) find(call provider.ToolCall) *callActivity {
	for _, c := range a.calls {
		if sameCall(c.call, call) {
			return c
		}
	}
	return nil
}

// sameCall matches a call's events by ID and name: models that send no
// IDs get their calls matched in order, which is enough for a label.
func sameCall(a, b provider.ToolCall) bool { return a.ID == b.ID && a.Name == b.Name }

// ask notes a question that takes the terminal (on) or gives it back;
// once none has it, it returns what was held back meanwhile, to print.
func (a *activity) ask(on bool) (held []func()) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if on {
		a.asking++
		return nil
	}
	if a.asking > 0 {
		a.asking--
	}
	if a.asking == 0 {
		held, a.held = a.held, nil
	}
	return held
}

// hold keeps print for later if a question has the terminal, and says
// whether it did.
func (a *activity) hold(print func()) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.asking == 0 {
		return false
	}
	a.held = append(a.held, print)
	return true
}

// showing reports whether there is something to show and nothing in its
// way.
func (a *activity) showing() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.asking == 0 && (!a.model.IsZero() || len(a.calls) > 0)
}

// line is the spinner's text at now: "waiting for the model… 3.2s", or
// "running fs › read_file… 1.4s · 3/10 (30%) copying" for the call
// that started last, with "(+2 more)" when others run beside it.
func (a *activity) line(now time.Time, st Style) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.calls) == 0 {
		if a.model.IsZero() {
			return ""
		}
		return "waiting for the model… " + st.Dim(elapsed(now.Sub(a.model)))
	}
	c := a.calls[len(a.calls)-1]
	var b strings.Builder
	fmt.Fprintf(&b, "running %s… %s", c.label, st.Dim(elapsed(now.Sub(c.start))))
	if c.progress != "" {
		b.WriteString(" · " + c.progress)
	}
	if n := len(a.calls) - 1; n > 0 {
		b.WriteString(st.Dim(fmt.Sprintf(" (+%d more)", n)))
	}
	return b.String()
}

// elapsed shows a running time to the tenth of a second: "0.4s", "12.0s",
// "2m05s".
func elapsed(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	if d < time.Minute {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// StyledToolLine is ToolLine for a terminal: the mark coloured, the
// duration and the preview dim, and the whole cut to width columns (0:
// not cut).
func StyledToolLine(ev host.ToolCallFinished, st Style, width int) string {
	args := shortArgs(ev.Call.Arguments, 60)
	if ev.Recovered {
		args += " (recovered from text)"
	}
	line := fmt.Sprintf("%s %s %s %s", st.Mark(ev.IsError), toolLabel(ev.Server, ev.Tool, ev.Call.Name),
		args, st.Dim("· "+formatDuration(ev.Duration)+" · "+termtext.RevealJSON(Preview(ev.Output, 60))))
	return Fit(line, width)
}

// toolLine is the line of a finished call on Err: styled and cut to the
// width on a terminal, plain otherwise.
func (t *Text) toolLine(ev host.ToolCallFinished) string {
	if !t.opts.ErrTTY {
		return ToolLine(ev)
	}
	return StyledToolLine(ev, t.style, t.opts.Width)
}
