package ui

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/termtext"
)

// TextOptions say where and how turns are shown as text.
type TextOptions struct {
	// Out receives the answer; Err the tool activity and warnings.
	Out, Err io.Writer
	// OutTTY renders the finished answer as Markdown over the streamed text.
	OutTTY bool
	// ErrTTY enables the spinner and colours on stderr.
	ErrTTY bool
	// Width is the terminal width, for wrapping; 0 means 80.
	Width int
	// Size, when not nil, reports the terminal's current width and
	// height; it is asked at every redraw of the streaming answer, so a
	// resize mid-answer is followed. Without it the size is Width and 24
	// rows.
	Size func() (width, height int)
	// NoColor keeps Markdown layout but drops colours (NO_COLOR).
	NoColor bool
	// Theme is the colour scheme of the Markdown (see ResolveTheme).
	Theme Theme
	// Quiet prints the answer alone.
	Quiet bool
	// HideThinking drops a reasoning model's thinking instead of showing
	// it dimmed on Err (it is only ever shown on a terminal).
	HideThinking bool
	// ThinkingHint follows the "thought for 3.2 s" line the thinking
	// collapses to: how to see it again ("/thinking shows it"), where
	// there is a way.
	ThinkingHint string
}

// Text renders the turns of a one-shot run or of a chat as text: the
// answer streams to Out as it arrives, cleaned of escape sequences and
// control characters (but newlines and tabs) whether Out is a terminal or
// not; tool calls are one line each on Err.
type Text struct {
	// mu serialises what is drawn: events come from the turn, notices and
	// questions from other goroutines, typed keys from the terminal's.
	mu   sync.Mutex
	opts TextOptions
	spin spinner
	// act is what the spinner shows; style colours the lines on Err.
	act   activity
	style Style
	// turn is the text streamed in the current model call; only the last
	// call's text is the answer, which gets the Markdown rendering.
	turn     strings.Builder
	wroteOut bool
	// think shows the thinking of the current model call while it
	// streams; nil when there is none on screen.
	think *thinkingView
	// answer and thought clean the model's text as it streams, holding
	// back an escape sequence split between two pieces.
	answer, thought termtext.Stream
	// view shows the answer as rendered Markdown while it streams, on a
	// terminal; nil when Out is not one.
	view *answerView
	// typed is what the user has typed for the next prompt (ShowTyped),
	// shown below the streaming answer and beside the spinner.
	typed atomic.Pointer[string]
}

// NewText returns a text renderer.
func NewText(opts TextOptions) *Text {
	if opts.Width <= 0 {
		opts.Width = 80
	}
	t := &Text{opts: opts, spin: spinner{w: opts.Err, width: opts.Width}, style: NewStyle(opts.ErrTTY, opts.NoColor)}
	if opts.OutTTY {
		size := opts.Size
		if size == nil {
			size = func() (int, int) { return opts.Width, 24 }
		}
		t.view = &answerView{out: opts.Out, size: size, render: func(md string, width int) string {
			return RenderMarkdown(md, width, opts.NoColor, opts.Theme)
		}}
	}
	return t
}

// Handle renders one event.
func (t *Text) Handle(ev host.Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch ev := ev.(type) {
	case host.ModelCallStarted:
		t.turn.Reset()
		t.act.waitModel(time.Now())
		t.spinner()
	case host.ThinkingDelta:
		if t.opts.HideThinking || !t.opts.ErrTTY || t.opts.Quiet {
			return
		}
		t.spin.Stop()
		t.act.modelDone() // its text is on screen: no spinner over it
		if t.think == nil {
			t.think = newThinkingView(t.opts.Err, t.opts.Width, t.opts.NoColor, time.Now())
			t.think.hint = t.opts.ThinkingHint
		}
		t.think.write(t.thought.Write(ev.Text))
	case host.TextDelta:
		t.spin.Stop()
		t.act.modelDone() // its text is on screen: no spinner over it
		t.endThinking()
		// The model's text never drives the terminal, nor reaches a file
		// or pipe with escape sequences in it: piped output is plain text.
		t.writeAnswer(t.answer.Write(ev.Text))
	case host.ModelCallFinished:
		t.spin.Stop()
		t.act.modelDone()
		t.endThinking()
		t.writeAnswer(t.answer.Flush())
		if t.view != nil {
			// This call's text is complete: rendered, before the tool
			// lines go below it.
			t.view.Flush()
			return
		}
		if ev.ToolCalls > 0 && t.turn.Len() > 0 && !strings.HasSuffix(t.turn.String(), "\n") {
			// Text the model wrote before calling tools stays on screen; keep
			// the next turn's text on a line of its own.
			io.WriteString(t.opts.Out, "\n")
		}
	case host.ToolCallStarted:
		t.act.started(ev, time.Now())
		t.spinner()
	case host.ToolCallApproved:
		// The question is answered: the call runs, timed from now.
		t.act.approved(ev, time.Now())
		t.spinner()
	case host.ToolProgress:
		t.act.progressed(ev)
		t.spinner()
	case host.ToolCallFinished:
		t.spin.Stop()
		t.act.finished(ev)
		if !t.opts.Quiet {
			line := t.toolLine(ev)
			t.print(func() { fmt.Fprintln(t.opts.Err, line) })
		}
		// Calls still in flight beside it keep their spinner.
		t.spinner()
	case host.Warning:
		t.warn(ev.Message)
	}
}

// writeAnswer shows cleaned text of the answer.
func (t *Text) writeAnswer(text string) {
	if text == "" {
		return
	}
	t.turn.WriteString(text)
	if t.view != nil {
		t.view.Write(text)
	} else {
		io.WriteString(t.opts.Out, text)
	}
	t.wroteOut = true
}

// endThinking collapses the thinking block to its one summary line, so the
// answer starts on a line of its own.
func (t *Text) endThinking() {
	if t.think != nil {
		t.think.end(t.thought.Flush(), time.Now())
		t.think = nil
	}
}

// spinner shows the activity on a terminal, unless there is none or a
// question has the terminal.
func (t *Text) spinner() {
	if t.opts.ErrTTY && !t.opts.Quiet && t.act.showing() {
		t.spin.Start(func() string {
			line := t.act.line(time.Now(), t.style)
			if typed := typedLine(t.typed.Load()); typed != "" {
				line += t.style.Dim("  · next: " + typed)
			}
			return line
		})
	}
}

// ShowTyped shows what the user has typed meanwhile for the next prompt
// (its last line): below the answer while it streams, else beside the
// spinner. Keys typed during a turn are not echoed; this is where they
// can be seen.
func (t *Text) ShowTyped(text string) {
	t.typed.Store(&text)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.view != nil {
		footer := typedLine(&text)
		if footer != "" {
			footer = "> " + footer
		}
		t.view.setFooter(footer)
	}
}

// typedLine is the last line of the text typed ahead, as the prompt
// will show it, or "" when nothing is typed.
func typedLine(text *string) string {
	if text == nil || strings.TrimSpace(*text) == "" {
		return ""
	}
	s := strings.TrimRight(*text, "\n")
	if i := strings.LastIndexAny(s, "\n\r"); i >= 0 {
		s = "… " + s[i+1:]
	}
	return Sanitize(s)
}

// Pause stops the spinner so that something else (a question to the user)
// can use the terminal, until the question gives it back (Resume or
// Release). The answer so far is committed: the question goes below it.
// Questions count: the spinner is back once each has given it back, and
// what was to be printed meanwhile (finished calls' lines, notices,
// warnings) is printed then, not into a question.
func (t *Text) Pause() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.act.ask(true)
	t.spin.Stop()
	t.flushAnswer()
}

// Interrupt prints something (a notice) with the spinner out of its way
// and below the answer so far, then shows the spinner again unless a
// question has the terminal.
func (t *Text) Interrupt(print func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.spin.Stop()
	t.flushAnswer()
	t.print(print)
	t.spinner()
}

// print runs print now, or, while a question has the terminal, once it is
// answered: nothing is drawn into a question.
func (t *Text) print(print func()) {
	if !t.act.hold(print) {
		print()
	}
}

// printHeld prints what was held back while questions had the terminal.
func (t *Text) printHeld(held []func()) {
	for _, print := range held {
		print()
	}
}

// Resume gives the terminal back once a question is answered, and shows
// the spinner again if anything is still in progress and no other
// question has the terminal.
func (t *Text) Resume() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.printHeld(t.act.ask(false))
	t.spinner()
}

// Release gives the terminal back without drawing the spinner: after a
// yes to an approval, the call's ToolCallApproved, which restarts its
// clock, draws it (drawing it now would show the wait for the answer as
// the call's time for a frame).
func (t *Text) Release() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.printHeld(t.act.ask(false))
}

// flushAnswer commits the live part of the answer, so that what is
// printed next goes below it and is never erased with it.
func (t *Text) flushAnswer() {
	if t.view != nil {
		t.view.Flush()
	}
}

// Warn prints a warning on stderr (not in quiet mode), as Warn does.
func (t *Text) Warn(msg string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.warn(msg)
}

func (t *Text) warn(msg string) {
	t.spin.Stop()
	if t.view != nil {
		t.view.Flush() // the warning goes below the answer so far
	}
	if !t.opts.Quiet {
		width := 0
		if t.opts.ErrTTY {
			width = t.opts.Width
		}
		t.print(func() { WarnStyled(t.opts.Err, t.style, width, msg) })
	}
	t.spinner()
}

// Warn prints msg as one "warning: ..." line on w, cleaned with Sanitize:
// warnings quote servers' errors and requests, which must not drive the
// terminal.
func Warn(w io.Writer, msg string) { WarnStyled(w, Style{}, 0, msg) }

// Start does nothing: the text output has no header.
func (t *Text) Start([]ServerRecord, []string) {}

// Finish ends the output once the run is over: on a terminal the rest of
// the answer is rendered as Markdown (see answerView); otherwise it ends
// the text with a newline. The answer is used when nothing streamed.
func (t *Text) Finish(res host.Result, _ error, _ int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.spin.Stop()
	t.endThinking() // a turn cancelled while the model thought
	t.writeAnswer(t.answer.Flush())
	if answer := Sanitize(res.Answer); !t.wroteOut && answer != "" {
		// A backend that did not stream: print the whole answer now.
		t.writeAnswer(answer)
	}
	if t.view != nil {
		t.view.Flush()
		return
	}
	if t.wroteOut && !strings.HasSuffix(t.turn.String(), "\n") {
		io.WriteString(t.opts.Out, "\n")
	}
}

// ToolLine is the one-line summary of a finished tool call:
// "✓ server › tool {args} · 12ms · preview", with "(recovered from text)"
// after the arguments for a call the model wrote as text. Characters a
// terminal does not draw are shown as escapes ("\u200b") in the arguments
// and the preview alike (termtext.RevealJSON).
func ToolLine(ev host.ToolCallFinished) string {
	return StyledToolLine(ev, Style{}, 0) // no colour, not cut
}

// ProgressText is the news of a running call for a person: "3/10 (30%)
// copying", or a task's "working: Gathering sources…", cleaned.
func ProgressText(ev host.ToolProgress) string {
	var parts []string
	switch {
	case ev.Status != "":
		parts = append(parts, ev.Status+":")
	case ev.Total > 0:
		parts = append(parts, fmt.Sprintf("%s/%s (%d%%)", number(ev.Progress), number(ev.Total), int(100*ev.Progress/ev.Total)))
	default:
		parts = append(parts, number(ev.Progress))
	}
	if ev.Message != "" {
		parts = append(parts, ev.Message)
	}
	return truncate(termtext.Line(strings.TrimSuffix(strings.Join(parts, " "), ":")), 80)
}

// number shows a progress value: whole numbers without decimals.
func number(f float64) string {
	if f == float64(int64(f)) {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'f', 1, 64)
}

// toolLabel names a tool call for a person: "server › tool", cleaned, since
// a tool's own name is whatever its server sent.
func toolLabel(server, tool, exposed string) string {
	if server == "" {
		return exposed
	}
	return termtext.Reveal(server + " › " + tool)
}

// shortArgs is a call's arguments on one line: their JSON, hidden
// characters escaped (termtext.RevealJSON), cut to limit characters.
func shortArgs(args map[string]any, limit int) string {
	if len(args) == 0 {
		return "{}"
	}
	b, err := json.Marshal(args)
	if err != nil {
		return "{…}"
	}
	// Characters a terminal does not draw are written as JSON escapes,
	// so the line shows every character the tool got.
	return truncate(termtext.RevealJSON(Sanitize(string(b))), limit)
}

// Preview is the first line of s, cleaned of control characters and cut
// to limit characters.
func Preview(s string, limit int) string {
	s = strings.TrimSpace(Sanitize(s))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	return truncate(s, limit)
}

func truncate(s string, limit int) string {
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	r := []rune(s)
	return string(r[:limit-1]) + "…"
}

// Sanitize drops terminal control sequences and other control characters
// (keeping newlines and tabs) and replaces invalid UTF-8, so text from a
// tool or a model cannot drive the terminal.
func Sanitize(s string) string { return termtext.Clean(s) }

func formatDuration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	default:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
}
