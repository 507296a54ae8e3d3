package ui

import (
	"io"
	"strings"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// answerView shows an answer on a terminal as it streams, so that it
// ends up once in the scrollback however tall it is. The Markdown is cut
// into blocks (paragraphs, lists, code blocks, tables…): a block known to
// be complete is rendered and committed, printed once and never touched
// again; only the block still being written is live, shown as raw text
// below the committed ones and replaced when it completes. The cursor can
// only go back up over what is still on the screen, so the live part is
// kept shorter than half the screen: when it grows too tall, its finished
// lines are committed as they are.
type answerView struct {
	out io.Writer
	// size reports the terminal's current width and height; it is asked
	// at every redraw, so a resize mid-answer re-renders the live part at
	// the new width.
	size   func() (int, int)
	render func(markdown string, width int) string

	// carry is the opening fence line of a code block whose first lines
	// were committed already; pending continues inside that block.
	carry   string
	pending string
	// live is the raw text on screen below the committed part, drawn at
	// liveWidth; the cursor is at its end.
	live      string
	liveWidth int
	// gap asks for a blank line before the next block; it is printed
	// (and committed) once that block starts.
	gap bool
	// footer is a line shown below the live text (what the user types
	// meanwhile, setFooter); while shown it is the end of live.
	footer string
}

// setFooter shows f below the live text from now on ("" for none).
func (v *answerView) setFooter(f string) {
	if f == v.footer {
		return
	}
	v.footer = f
	if v.pending != "" {
		width, _ := v.dims()
		v.draw(width)
	}
}

// Write adds streamed text of the answer.
func (v *answerView) Write(text string) {
	if text == "" {
		return
	}
	v.pending += text
	width, height := v.dims()
	if c, ok := v.commitPoint(); ok {
		v.commit(c, width)
	}
	// Half the screen: narrowing the terminal reflows the live text
	// into more rows, which must still be on the screen to be erased.
	if limit := max(1, (height-2)/2); screenRows(v.pending, width) > limit {
		v.commitLines(width)
	}
	v.draw(width)
}

// Flush renders and commits everything still live: the answer, or this
// model call's part of it, is complete.
func (v *answerView) Flush() {
	width, _ := v.dims()
	src := v.carry + v.pending
	if strings.TrimSpace(v.pending) != "" {
		v.clear(width)
		if v.gap {
			io.WriteString(v.out, "\n")
		}
		io.WriteString(v.out, v.render(src, width))
	} else {
		v.clear(width)
	}
	v.carry, v.pending, v.gap = "", "", false
}

// dims is the terminal's size now, 80×24 when it is not known.
func (v *answerView) dims() (width, height int) {
	width, height = v.size()
	if width <= 0 {
		width = 80
	}
	if height <= 0 {
		height = 24
	}
	return width, height
}

// commitPoint finds where the last block that may still grow starts in
// carry+pending: everything before it is complete.
func (v *answerView) commitPoint() (int, bool) {
	src := v.carry + v.pending
	var (
		open      *fence
		prevBlank bool
		point     int
		pos       int
	)
	for pos < len(src) {
		end := strings.IndexByte(src[pos:], '\n')
		complete := end >= 0
		line := src[pos:]
		if complete {
			line = src[pos : pos+end]
		}
		switch {
		case open != nil:
			if complete && open.closes(line) {
				open = nil
				point = pos + end + 1 // a closed code block is complete
			}
		case !complete:
			// The first character of a line says whether it starts a
			// block after a blank line (an indented line continues a
			// list item).
			if prevBlank && line != "" && line[0] != ' ' && line[0] != '\t' {
				point = pos
			}
		default:
			if f, ok := openFence(line); ok {
				point = pos
				open = &f
			} else if strings.TrimSpace(line) != "" && prevBlank && line[0] != ' ' && line[0] != '\t' {
				point = pos
			}
			prevBlank = strings.TrimSpace(line) == ""
		}
		if !complete {
			break
		}
		pos += end + 1
	}
	return point, point > len(v.carry)
}

// commit renders and prints carry+pending up to c, which ends complete
// blocks.
func (v *answerView) commit(c, width int) {
	src := v.carry + v.pending
	v.clear(width)
	if out := v.render(src[:c], width); strings.TrimSpace(out) != "" {
		if v.gap {
			io.WriteString(v.out, "\n")
		}
		io.WriteString(v.out, out)
		v.gap = true
	}
	v.carry, v.pending = "", src[c:]
}

// commitLines commits the finished lines of a block too tall to stay live
// (a long code block, a huge paragraph), so that the live part fits on
// the screen. Inside a code block the lines are committed as code and the
// rest stays in the block.
func (v *answerView) commitLines(width int) {
	src := v.carry + v.pending
	cut := strings.LastIndexByte(src, '\n') + 1
	if cut <= len(v.carry) {
		// One line taller than the screen: cut it at a space, or
		// anywhere.
		limit := len(v.carry) + len(v.pending)*3/4
		cut = strings.LastIndexByte(src[:limit], ' ') + 1
		if cut <= len(v.carry) {
			cut = limit
			for cut > 0 && !utf8.RuneStart(src[cut]) {
				cut--
			}
		}
	}
	// Is the cut inside a code block? Then its opening line goes on.
	var open *fence
	openLine := ""
	for _, line := range strings.SplitAfter(src[:cut], "\n") {
		l := strings.TrimSuffix(line, "\n")
		switch {
		case open != nil && open.closes(l):
			open = nil
		case open == nil:
			if f, ok := openFence(l); ok {
				open, openLine = &f, line
			}
		}
	}
	v.clear(width)
	if v.gap {
		io.WriteString(v.out, "\n")
	}
	io.WriteString(v.out, v.render(src[:cut], width))
	v.gap = false
	v.pending = src[cut:]
	v.carry = ""
	if open != nil {
		v.carry = openLine
	} else if segs := segments(src[:cut]); len(segs) > 0 && segs[len(segs)-1].kind == table && strings.Contains(strings.SplitN(v.pending, "\n", 2)[0], "|") {
		// The rest of a table goes on under its header again, not as
		// lines of pipes.
		t := segs[len(segs)-1]
		v.carry = t.lines[0] + "\n" + t.lines[1] + "\n"
	}
}

// clear takes the live text off the screen, leaving the cursor where it
// began. A terminal that was resized has reflowed it (tmux, iTerm2, kitty,
// VTE, Windows Terminal do), so its rows are counted at the current
// width. The rows are erased one by one: erasing to the end of the screen from its top left corner makes tmux push the
// screen into its history (scroll-on-clear), where the text would stay.
func (v *answerView) clear(width int) {
	if v.live == "" {
		return
	}
	eraseRows(v.out, screenRows(v.live, width))
	v.live = ""
}

// eraseRows erases the rows rows that end at the cursor's and leaves the
// cursor at the start of the first, one row at a time (see clear for why
// not to the end of the screen).
func eraseRows(w io.Writer, rows int) {
	up := ""
	if rows > 1 {
		up = "\x1b[" + itoa(rows-1) + "A"
	}
	io.WriteString(w, "\r"+up+strings.Repeat("\x1b[2K\x1b[B", max(0, rows-1))+"\x1b[2K"+up)
}

// draw shows pending as the live text: only what is new when nothing
// changed but the text's end, else all of it again.
func (v *answerView) draw(width int) {
	shown := v.pending
	if v.footer != "" && shown != "" {
		// On a row of its own, one column spare: a full row would leave
		// the cursor waiting to wrap on some terminals.
		shown += "\n" + Fit(v.footer, width-1)
	}
	if v.live != "" && width == v.liveWidth && strings.HasPrefix(shown, v.live) {
		io.WriteString(v.out, shown[len(v.live):])
		v.live = shown
		return
	}
	v.clear(width)
	if shown == "" {
		return
	}
	if v.gap && strings.TrimSpace(v.pending) != "" {
		io.WriteString(v.out, "\n")
		v.gap = false
	}
	io.WriteString(v.out, shown)
	v.live, v.liveWidth = shown, width
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

// screenRows counts the terminal rows text occupies at the given width,
// counting wrapped lines; the cursor is on the last of them. Tabs move to
// the next multiple of 8, as terminals do.
func screenRows(text string, width int) int {
	rows := 0
	for _, line := range strings.Split(text, "\n") {
		rows += lineRows(line, width)
	}
	return rows
}

// lineRows is the rows one line takes: a character that does not fit
// goes to the next row; the cursor stays on a full row until more comes.
func lineRows(line string, width int) int {
	rows, col := 1, 0
	for _, r := range line {
		if r == '\t' {
			if col < width {
				col = min((col/8+1)*8, width-1)
			}
			continue
		}
		w := runewidth.RuneWidth(r)
		if col+w > width {
			rows++
			col = 0
		}
		col += w
	}
	return rows
}
