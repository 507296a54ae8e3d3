package ui

import (
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Style colours the short marks of what mcphost says on a terminal, by
// the usual conventions: a green ✓, a red ✗, a yellow "warning:", a red
// "error:", bold cyan questions and dim metadata (durations, previews).
// The zero Style adds nothing: it is what NO_COLOR and anything but a
// terminal get.
type Style struct{ color bool }

// NewStyle returns the Style of an output: colours when it is a terminal
// and NO_COLOR is not set.
func NewStyle(terminal, noColor bool) Style { return Style{color: terminal && !noColor} }

// Color reports whether the Style adds colours.
func (s Style) Color() bool { return s.color }

// sgr wraps text in the attribute on and the matching off sequence (not a
// full reset, so that what surrounds it keeps its own).
func (s Style) sgr(on, off, text string) string {
	if !s.color || text == "" {
		return text
	}
	return "\x1b[" + on + "m" + text + "\x1b[" + off + "m"
}

// OK is a success mark: green.
func (s Style) OK(text string) string { return s.sgr("32", "39", text) }

// Fail is a failure mark: red.
func (s Style) Fail(text string) string { return s.sgr("31", "39", text) }

// Warning is the "warning:" label: yellow.
func (s Style) Warning(text string) string { return s.sgr("33", "39", text) }

// Error is the "error:" label: bold red.
func (s Style) Error(text string) string { return s.sgr("1;31", "22;39", text) }

// Question is a question to the user: bold cyan.
func (s Style) Question(text string) string { return s.sgr("1;36", "22;39", text) }

// Dim is metadata: durations, previews, elapsed times.
func (s Style) Dim(text string) string { return s.sgr("2", "22", text) }

// Mark is the ✓ of a call that worked or the ✗ of one that failed,
// coloured.
func (s Style) Mark(failed bool) string {
	if failed {
		return s.Fail("✗")
	}
	return s.OK("✓")
}

// Fit cuts each line of text to width terminal columns, ending it with
// "…" where it is cut, so that no line wraps into a second row; escape
// sequences are kept (and cost no width), wide characters count two. A
// width of 0 or less leaves text whole: the output is not a terminal.
func Fit(text string, width int) string {
	if width <= 0 {
		return text
	}
	if !strings.Contains(text, "\n") {
		return ansi.Truncate(text, width, "…")
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, width, "…")
	}
	return strings.Join(lines, "\n")
}

// wrapText word-wraps text to width columns (0: leaves it as it is).
func wrapText(text string, width int) string {
	if width <= 0 {
		return text
	}
	return ansi.Wrap(text, width, "")
}

// WarnStyled prints msg as a "warning: ..." line on w, as Warn does, with
// the label coloured by s. For a width above 0 (a terminal) a long
// warning is word-wrapped under its first word rather than left to the
// terminal to break mid-word: what it says (often how to fix something)
// is all kept.
func WarnStyled(w io.Writer, s Style, width int, msg string) {
	const label = "warning: "
	text := Sanitize(msg)
	if width > len(label)+10 {
		text = ansi.Wrap(text, width-len(label), "")
		text = strings.ReplaceAll(text, "\n", "\n"+strings.Repeat(" ", len(label)))
	}
	fmt.Fprintln(w, s.Warning("warning:")+" "+text)
}

// ErrorLine is msg as one "error: ..." line, the label coloured by s.
func ErrorLine(s Style, msg string) string {
	return s.Error("error:") + " " + Sanitize(msg)
}

// FitOutput runs print, then writes what it printed to w with every line
// cut to width columns by Fit (0: as printed): for listings on a
// terminal, whose rows must not wrap into fragments.
func FitOutput(w io.Writer, width int, print func(io.Writer)) {
	if width <= 0 {
		print(w)
		return
	}
	var b strings.Builder
	print(&b)
	io.WriteString(w, Fit(b.String(), width))
}
