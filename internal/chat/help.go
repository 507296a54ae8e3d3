package chat

import (
	"io"
	"strings"

	"github.com/mattn/go-runewidth"
)

// The layout of /help: commands whose name and arguments fit in
// helpColumn columns have their description beside them, in a column of
// its own; a longer one has it on the next row, in the same column. A
// terminal too narrow for a description column of helpMinDescription
// columns gets every description below its command, indented.
const (
	helpColumn         = 28
	helpMinDescription = 40
	helpIndent         = 6
)

// helpKeys are the keys /help lists, each kept whole on a row when it
// fits.
func helpKeys() []string {
	return []string{
		"Enter sends",
		`Alt+Enter or a trailing \ start a new line`,
		"Up/Down browse history",
		"Ctrl-R searches it",
		"Ctrl-X Ctrl-E edits the input in $EDITOR",
		"Ctrl-L clears the screen",
		"Ctrl-Z suspends",
		"Tab completes commands, servers, tools (server__tool), prompts, their arguments, @SERVER:URI resources and @path files (@path attaches a file)",
		"Esc or Ctrl-C cancel the running turn; Ctrl-C clears the input",
		"Esc at a question answers no",
		"Ctrl-D on an empty line (or Ctrl-C twice) quits",
	}
}

// writeHelp writes the commands and the keys, wrapped at width between
// words.
func writeHelp(w io.Writer, cmds []command, width int) {
	if width <= 0 {
		width = 80
	}
	lefts := make([]string, len(cmds))
	col := 0
	for i, cmd := range cmds {
		lefts[i] = strings.TrimRight("  "+cmd.name+" "+cmd.args, " ")
		if n := runewidth.StringWidth(lefts[i]) + 2; n <= helpColumn && n > col {
			col = n
		}
	}
	narrow := width-col < helpMinDescription
	if narrow {
		col = helpIndent
	}
	var b strings.Builder
	for i, cmd := range cmds {
		desc := wrapWords(cmd.help, width-col)
		pad := col - runewidth.StringWidth(lefts[i])
		if narrow || pad < 2 {
			b.WriteString(lefts[i] + "\n")
			pad = col
			if len(desc) > 0 {
				b.WriteString(strings.Repeat(" ", pad))
			}
		} else {
			b.WriteString(lefts[i] + strings.Repeat(" ", pad))
		}
		for j, line := range desc {
			if j > 0 {
				b.WriteString(strings.Repeat(" ", col))
			}
			b.WriteString(line + "\n")
		}
	}
	b.WriteString("\n")
	for _, line := range wrapItems("Keys: ", helpKeys(), " · ", width, strings.Repeat(" ", helpIndent)) {
		b.WriteString(line + "\n")
	}
	io.WriteString(w, b.String())
}

// wrapItems lays items out after prefix, joined by sep, on rows of at
// most width columns, every row after the first starting with indent. An
// item is broken between words only when it does not fit on a row of its
// own.
func wrapItems(prefix string, items []string, sep string, width int, indent string) []string {
	var rows []string
	row := prefix
	start := true // nothing on the row yet after its prefix or indent
	for i, item := range items {
		piece := item
		if i < len(items)-1 {
			piece += strings.TrimRight(sep, " ")
		}
		add := piece
		if !start {
			add = " " + piece
		}
		if runewidth.StringWidth(row+add) <= width {
			row += add
			start = false
			continue
		}
		if !start {
			rows = append(rows, row)
			row, start = indent, true
		}
		lines := wrapWords(piece, width-runewidth.StringWidth(row))
		for j, line := range lines {
			if j > 0 {
				rows = append(rows, row)
				row = indent
			}
			row += line
		}
		start = false
	}
	return append(rows, row)
}

// wrapWords breaks text into rows of at most width columns between
// words; a word wider than a row is broken where the row ends.
func wrapWords(text string, width int) []string {
	width = max(width, 10)
	var rows []string
	row := ""
	for _, word := range strings.Fields(text) {
		for runewidth.StringWidth(word) > width {
			if row != "" {
				rows = append(rows, row)
				row = ""
			}
			head := runewidth.Truncate(word, width, "")
			rows = append(rows, head)
			word = word[len(head):]
		}
		switch {
		case row == "":
			row = word
		case runewidth.StringWidth(row)+1+runewidth.StringWidth(word) <= width:
			row += " " + word
		default:
			rows = append(rows, row)
			row = word
		}
	}
	if row != "" || len(rows) == 0 {
		rows = append(rows, row)
	}
	return rows
}
