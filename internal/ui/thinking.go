package ui

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mattn/go-runewidth"
)

// maxThinkingRows is how many rows of thinking stay on screen: past it
// only the latest rows are shown, redrawn in place, so that the block
// never scrolls out of reach of the erasing that collapses it.
const maxThinkingRows = 10

// thinkingView shows a reasoning model's thinking on a terminal as it
// streams, dimmed and word-wrapped at the width, and collapses it to one
// dim line ("thought for 3.2 s") once the answer comes: the thinking is
// for watching the model work, not for the scrollback.
type thinkingView struct {
	w     io.Writer
	style Style
	start time.Time
	wrap  wordWrap
	// rows are the rows of the thinking that may still be shown (the
	// last is the one being written); shown is how many are on screen;
	// tail is set once there were more than maxThinkingRows.
	rows  []string
	shown int
	tail  bool
	// started is set by the first piece that is not blank.
	started bool
	// hint follows the line the block collapses to (TextOptions.ThinkingHint).
	hint string
}

// newThinkingView starts the thinking block with its "thinking: " label.
func newThinkingView(w io.Writer, width int, noColor bool, now time.Time) *thinkingView {
	v := &thinkingView{w: w, style: NewStyle(true, noColor), start: now, wrap: wordWrap{width: width}}
	v.show(v.wrap.Write("thinking: "))
	return v
}

// write shows a cleaned piece of the thinking; a word split between two
// pieces is held back until it ends, so that it is wrapped whole. The
// blank lines models start their thinking with are left out.
func (v *thinkingView) write(text string) {
	if !v.started {
		text = strings.TrimLeft(text, " \t\n")
		v.started = text != ""
	}
	v.show(v.wrap.Write(text))
}

// show adds wrapped text: written as it comes while the block is short,
// the last rows redrawn in place once it is long.
func (v *thinkingView) show(s string) {
	if s == "" {
		return
	}
	for i, part := range strings.Split(s, "\n") {
		if i > 0 || len(v.rows) == 0 {
			v.rows = append(v.rows, "")
		}
		v.rows[len(v.rows)-1] += part
	}
	if !v.tail && len(v.rows) <= maxThinkingRows {
		io.WriteString(v.w, v.style.Dim(s))
		v.shown = len(v.rows)
		return
	}
	v.tail = true
	v.rows = v.rows[max(0, len(v.rows)-maxThinkingRows):]
	v.erase()
	io.WriteString(v.w, v.style.Dim(strings.Join(v.rows, "\n")))
	v.shown = len(v.rows)
}

// erase moves to the first row of the block on screen and clears from
// there to the end of the screen.
func (v *thinkingView) erase() {
	io.WriteString(v.w, "\r")
	if up := v.shown - 1; up > 0 {
		fmt.Fprintf(v.w, "\x1b[%dA", up)
	}
	io.WriteString(v.w, "\x1b[J")
}

// end erases the thinking and leaves one line saying how long it took.
// rest is what the cleaner held back.
func (v *thinkingView) end(rest string, now time.Time) {
	v.show(v.wrap.Write(rest))
	v.show(v.wrap.Flush())
	v.erase()
	line := "thought for " + thoughtDuration(now.Sub(v.start))
	if v.hint != "" {
		line += " · " + v.hint
	}
	io.WriteString(v.w, v.style.Dim(line)+"\n")
}

// thoughtDuration is how long a model thought, as people say it: "3.2 s",
// "1 min 5 s".
func thoughtDuration(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	d = d.Round(time.Second)
	return fmt.Sprintf("%d min %d s", int(d.Minutes()), int(d.Seconds())%60)
}

// wordWrap breaks streamed text into rows of at most width columns at
// spaces, as it arrives. A word longer than a row is cut. It counts the
// rows it has started, for erasing them later.
type wordWrap struct {
	width int
	// col is the cursor's column in the current row; rows the rows
	// started so far (the first one counts once anything is written).
	col, rows int
	// word is the word being read, not written yet; space says a space
	// comes before it.
	word  strings.Builder
	space bool
}

// Write takes the next piece of text and returns what can be written.
func (ww *wordWrap) Write(s string) string {
	var out strings.Builder
	for _, r := range s {
		switch r {
		case '\n':
			ww.flushWord(&out)
			ww.startRow(&out)
			out.WriteByte('\n')
			ww.col, ww.space = 0, false
			ww.rows++
		case ' ', '\t':
			ww.flushWord(&out)
			ww.space = ww.col > 0
		default:
			ww.word.WriteRune(r)
		}
	}
	return out.String()
}

// Flush returns the word held back.
func (ww *wordWrap) Flush() string {
	var out strings.Builder
	ww.flushWord(&out)
	return out.String()
}

// startRow counts the first row when the first thing is written.
func (ww *wordWrap) startRow(out *strings.Builder) {
	if ww.rows == 0 {
		ww.rows = 1
	}
}

// newline ends the current row.
func (ww *wordWrap) newline(out *strings.Builder) {
	out.WriteByte('\n')
	ww.rows++
	ww.col = 0
}

// flushWord writes the word read so far: on this row when it fits after
// its space, else on the next; cut into rows when longer than one.
func (ww *wordWrap) flushWord(out *strings.Builder) {
	word := ww.word.String()
	ww.word.Reset()
	if word == "" {
		return
	}
	ww.startRow(out)
	w := runewidth.StringWidth(word)
	gap := 0
	if ww.space {
		gap = 1
	}
	ww.space = false
	switch {
	case ww.col+gap+w <= ww.width:
		if gap > 0 {
			out.WriteByte(' ')
		}
		out.WriteString(word)
		ww.col += gap + w
		return
	case ww.col > 0:
		ww.newline(out)
	}
	for _, r := range word {
		rw := runewidth.RuneWidth(r)
		if ww.col+rw > ww.width && ww.col > 0 {
			ww.newline(out)
		}
		out.WriteRune(r)
		ww.col += rw
	}
}
