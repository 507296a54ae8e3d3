package approval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"

	"github.com/mcphost/mcphost/internal/termtext"
)

// The marks that start the rows of FormatArguments: one for the first row
// of each argument, another for every row after it. A value cannot make a
// row of its own start with anything but the continuation mark, so it can
// neither pass for another argument nor for the question around it.
const (
	ArgumentMark     = "▸ "
	ContinuationMark = "┆ "
)

// Visible stand-ins for characters that would otherwise be invisible or
// act on the terminal: a newline ends its row with NewlineMark, a tab is
// TabMark, and other control characters are shown as their Unicode control
// pictures ("␛" for escape).
const (
	NewlineMark = "⏎"
	TabMark     = "⇥"
)

// ArgumentsFormat says how FormatArguments lays arguments out.
type ArgumentsFormat struct {
	// Width is the most terminal columns a row may take, marks included;
	// 0 means 80.
	Width int
	// MaxRows folds a value longer than this many rows: its first and last
	// rows are shown, with the number of rows and bytes left out between
	// them. 0 shows every row.
	MaxRows int
	// Dim decorates the stand-ins and the fold notes (a faint attribute);
	// nil leaves them plain.
	Dim func(string) string
	// Removed and Added decorate the removed and the added lines of a
	// diff (FormatEdits): red and green, say; nil leaves them plain.
	Removed, Added func(string) string
}

// withDefaults fills in what f leaves out.
func (f ArgumentsFormat) withDefaults() ArgumentsFormat {
	plain := func(s string) string { return s }
	if f.Width <= 0 {
		f.Width = 80
	}
	if f.Dim == nil {
		f.Dim = plain
	}
	if f.Removed == nil {
		f.Removed = plain
	}
	if f.Added == nil {
		f.Added = plain
	}
	return f
}

// rowWidth is the columns a row has after its mark. One column is kept
// spare: a terminal that draws a character wider than runewidth says must
// not wrap a row by itself, which would start a row without a mark.
func (f ArgumentsFormat) rowWidth() int {
	return max(f.Width-runewidth.StringWidth(ArgumentMark)-1, 10)
}

// FormatArguments renders a call's arguments for a human to judge: one
// argument per ArgumentMark row, those that fit on one row first (a
// file's path before its content), each group sorted by key, strings as they are and
// other values as JSON; rows longer than the width continue on
// ContinuationMark rows. A folded value's name is followed by its size,
// in lines and bytes. Nothing in a value reaches the terminal as a
// control: newlines and tabs are shown (NewlineMark, TabMark), other
// control characters, escape sequences included, as visible symbols, and
// characters a terminal does not draw (termtext.Hidden: bidirectional
// controls, zero-width and other format characters, tag characters, line
// and paragraph separators) by their code, "<U+200B>". Folding, when
// asked for, says how much it left out.
func FormatArguments(args map[string]any, f ArgumentsFormat) string {
	f = f.withDefaults()
	short, long := argumentRows(args, f)
	var b strings.Builder
	writeRows(&b, append(short, long...))
	return strings.TrimPrefix(b.String(), "\n")
}

// argumentRows lays out each argument on its rows, sorted by key, the
// arguments that fit on one row (short) apart from the others (long): a
// write's path is read before its long content, not after it.
func argumentRows(args map[string]any, f ArgumentsFormat) (short, long [][]row) {
	width := f.rowWidth()
	for _, k := range sortedKeys(args) {
		value := valueText(args[k])
		rows := layout(append(visible(k+": "), visible(value)...), width, f.Dim)
		if f.MaxRows > 0 && len(rows) > f.MaxRows {
			// The size goes next to the name, where it is read first.
			size := fmt.Sprintf("%s (%d lines, %s): ", k, strings.Count(value, "\n")+1, termtext.Bytes(len(value)))
			rows = fold(layout(append(visible(size), visible(value)...), width, f.Dim), f.MaxRows, f.Dim)
		}
		if len(rows) == 1 {
			short = append(short, rows)
		} else {
			long = append(long, rows)
		}
	}
	return short, long
}

// valueText is an argument as a person reads it: a string as it is,
// anything else as JSON.
func valueText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return "(not representable)"
	}
	return string(raw)
}

// cell is one character as shown: its text (a stand-in, for a control),
// its width in columns and its size in the value.
type cell struct {
	text    string
	width   int
	bytes   int
	standIn bool
	newline bool
}

// visible turns s into cells that cannot drive a terminal.
func visible(s string) []cell {
	cells := make([]cell, 0, len(s))
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		s = s[size:]
		c := cell{text: string(r), width: runewidth.RuneWidth(r), bytes: size}
		switch {
		case r == '\n':
			c = cell{text: NewlineMark, width: 1, standIn: true, newline: true}
		case r == '\t':
			c.text, c.width, c.standIn = TabMark, 1, true
		case r < 0x20:
			c.text, c.width, c.standIn = string(rune(0x2400+r)), 1, true
		case r == 0x7f:
			c.text, c.width, c.standIn = "␡", 1, true
		case r == utf8.RuneError && size == 1:
			c.text, c.width, c.standIn = "\uFFFD", 1, true
		case (r >= 0x80 && r < 0xa0) || termtext.Hidden(r):
			c.text = fmt.Sprintf("<U+%04X>", r)
			c.width, c.standIn = len(c.text), true
		}
		c.bytes = size
		cells = append(cells, c)
	}
	return cells
}

// FormatJSON renders a call's arguments as the exact JSON the tool gets,
// indented, for the question's [v]: every key and value as sent, with the
// characters a terminal would not draw written as JSON escapes
// (termtext.RevealJSON), so the text shown is still JSON of the same
// value. Each JSON line starts an ArgumentMark row; a line wider than
// f.Width goes on over ContinuationMark rows.
func FormatJSON(args map[string]any, f ArgumentsFormat) string {
	f = f.withDefaults()
	if args == nil {
		args = map[string]any{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(args); err != nil {
		return ArgumentMark + "(not representable as JSON)"
	}
	var b strings.Builder
	for line := range strings.Lines(termtext.RevealJSON(strings.TrimSuffix(buf.String(), "\n"))) {
		for i, r := range layout(visible(strings.TrimSuffix(line, "\n")), f.rowWidth(), f.Dim) {
			if i == 0 {
				b.WriteString(ArgumentMark)
			} else {
				b.WriteString(ContinuationMark)
			}
			b.WriteString(r.text + "\n")
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// row is one row of output and how many bytes of the value it shows.
type row struct {
	text  string
	bytes int
}

// layout breaks cells into rows of at most width columns, and a new row
// after each newline; stand-ins go through dim.
func layout(cells []cell, width int, dim func(string) string) []row {
	var rows []row
	var cur row
	var b strings.Builder
	used := 0
	flush := func() {
		cur.text = b.String()
		rows = append(rows, cur)
		cur, used = row{}, 0
		b.Reset()
	}
	for i, c := range cells {
		if used+c.width > width && used > 0 {
			flush()
		}
		if c.standIn {
			b.WriteString(dim(c.text))
		} else {
			b.WriteString(c.text)
		}
		used += c.width
		cur.bytes += c.bytes
		if c.newline && i < len(cells)-1 {
			flush()
		}
	}
	flush()
	return rows
}

// fold keeps the first and last rows of a long value, with a note of how
// many rows and bytes are left out between them.
func fold(rows []row, maxRows int, dim func(string) string) []row {
	keep := max(maxRows-1, 2)
	head := max(keep*2/3, 1)
	tail := keep - head
	hidden := 0
	for _, r := range rows[head : len(rows)-tail] {
		hidden += r.bytes
	}
	note := fmt.Sprintf("… %d more rows (%s) not shown; [v] shows everything …", len(rows)-head-tail, termtext.Bytes(hidden))
	out := append(rows[:head:head], row{text: dim(note)})
	return append(out, rows[len(rows)-tail:]...)
}
