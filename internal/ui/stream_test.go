package ui

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/mattn/go-runewidth"

	"github.com/mcphost/mcphost/host"
)

// vterm is the little of a terminal the answer's output needs: printing
// with wrapping, CR, LF (as CR LF, like a tty's ONLCR), tabs, cursor up
// and down (which stop at the screen's edges) and erase below or the line. What scrolls
// off the top stays in rows, as a scrollback.
type vterm struct {
	w, h     int
	rows     [][]rune
	row, col int
}

func newVterm(w, h int) *vterm { return &vterm{w: w, h: h, rows: [][]rune{nil}} }

func (v *vterm) top() int { return max(0, len(v.rows)-v.h) }

func (v *vterm) newline() {
	v.row++
	v.col = 0
	if v.row == len(v.rows) {
		v.rows = append(v.rows, nil)
	}
}

func (v *vterm) Write(p []byte) (int, error) {
	s := string(p)
	for len(s) > 0 {
		if s[0] == '\x1b' {
			end := strings.IndexAny(s[1:], "ABCDJKmH") + 2
			seq := s[:end]
			switch seq[len(seq)-1] {
			case 'A':
				n, err := strconv.Atoi(seq[2 : len(seq)-1])
				if err != nil {
					n = 1
				}
				v.row = max(v.top(), v.row-n)
			case 'B':
				n, err := strconv.Atoi(seq[2 : len(seq)-1])
				if err != nil {
					n = 1
				}
				v.row = min(v.row+n, v.top()+v.h-1)
				for len(v.rows) <= v.row {
					v.rows = append(v.rows, nil)
				}
			case 'K':
				v.rows[v.row] = nil
			case 'J':
				v.rows[v.row] = v.rows[v.row][:min(v.col, len(v.rows[v.row]))]
				v.rows = v.rows[:v.row+1]
			}
			s = s[end:]
			continue
		}
		r, size := utf8.DecodeRuneInString(s)
		s = s[size:]
		switch r {
		case '\r':
			v.col = 0
		case '\n':
			v.newline()
		case '\t':
			if v.col < v.w {
				v.col = min((v.col/8+1)*8, v.w-1)
			}
		default:
			rw := runewidth.RuneWidth(r)
			if v.col+rw > v.w {
				v.newline()
			}
			line := v.rows[v.row]
			for len(line) < v.col+rw {
				line = append(line, ' ')
			}
			line[v.col] = r
			v.rows[v.row] = line
			v.col += rw
		}
	}
	return len(p), nil
}

// text is the scrollback and the screen, trailing spaces dropped.
func (v *vterm) text() string {
	var b strings.Builder
	for _, r := range v.rows {
		b.WriteString(strings.TrimRight(string(r), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// streamTo sends answer to a Text on a terminal of w×h in pieces of n
// bytes, as a model streams it.
func streamTo(answer string, w, h, n int) *vterm {
	term := newVterm(w, h)
	o := NewText(TextOptions{Out: term, Err: &bytes.Buffer{}, OutTTY: true, NoColor: true,
		Size: func() (int, int) { return w, h }})
	o.Handle(host.ModelCallStarted{Step: 1})
	for len(answer) > 0 {
		k := min(n, len(answer))
		o.Handle(host.TextDelta{Text: answer[:k]})
		answer = answer[k:]
	}
	o.Handle(host.ModelCallFinished{Step: 1})
	o.Finish(host.Result{}, nil, 0)
	return term
}

func TestAnAnswerTallerThanTheScreenIsInTheScrollbackOnce(t *testing.T) {
	var md strings.Builder
	md.WriteString("Here is the plan:\n\n")
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&md, "%d. answer line %d of 100\n", i, i)
	}
	md.WriteString("\n```sh\n")
	for i := 61; i <= 100; i++ {
		fmt.Fprintf(&md, "echo 'answer line %d of 100'\n", i)
	}
	md.WriteString("```\n\nThat is all.\n")
	for _, n := range []int{1, 7, 64, 10000} {
		term := streamTo(md.String(), 60, 20, n)
		screen := term.text()
		for i := 1; i <= 100; i++ {
			if c := strings.Count(screen, fmt.Sprintf("answer line %d of 100", i)); c != 1 {
				t.Fatalf("pieces of %d bytes: line %d is shown %d times:\n%s", n, i, c, screen)
			}
		}
		if !strings.Contains(screen, "\n  60. answer line 60 of 100\n\necho 'answer line 61 of 100'\n") ||
			!strings.Contains(screen, "echo 'answer line 100 of 100'\n\n  That is all.\n") {
			t.Fatalf("pieces of %d bytes: not rendered as Markdown:\n%s", n, screen)
		}
	}
}

func TestAStreamedAnswerEndsAsItsRendering(t *testing.T) {
	md := "# Title\n\nA paragraph that says *something*.\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nThe end.\n"
	for _, n := range []int{1, 5, 1000} {
		screen := streamTo(md, 80, 24, n).text()
		want := "   Title\n\n  A paragraph that says something.\n\n  • one\n  • two\n\n  a │ b\n  ──┼──\n  1 │ 2\n\n  The end.\n"
		if got := strings.TrimLeft(ansi.Strip(screen), "\n"); !strings.HasPrefix(got, want) {
			t.Errorf("pieces of %d bytes: screen\n%s\nwant\n%s", n, got, want)
		}
	}
}

func TestScreenRowsCountsTabs(t *testing.T) {
	if got := screenRows("\t\t\tx", 20); got != 1 {
		t.Errorf("tabs stop at the last column: %d rows", got)
	}
	if got := screenRows("\tabcdefghijklm", 20); got != 2 {
		t.Errorf("a tab takes 8 columns: %d rows", got)
	}
}

func TestATableTallerThanTheScreenKeepsItsHeader(t *testing.T) {
	var md strings.Builder
	md.WriteString("| n | row |\n|---|---|\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&md, "| %d | table row %d of 40 |\n", i, i)
	}
	md.WriteString("\nAfter the table.\n")
	screen := streamTo(md.String(), 60, 20, 9).text()
	for i := 1; i <= 40; i++ {
		if c := strings.Count(screen, fmt.Sprintf("│ table row %d of 40", i)); c != 1 {
			t.Fatalf("row %d is shown %d times as a table row:\n%s", i, c, screen)
		}
	}
	if strings.Contains(screen, "|") || !strings.HasPrefix(strings.TrimLeft(screen, "\n"), "  n │ row\n") {
		t.Errorf("the table is not laid out under its header:\n%s", screen)
	}
}
