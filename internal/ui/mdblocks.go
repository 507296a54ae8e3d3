package ui

import (
	"regexp"
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/formatters"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/charmbracelet/x/ansi"
	"github.com/mattn/go-runewidth"
)

// The Markdown of an answer is cut into segments: fenced code blocks and
// tables are laid out here, the prose between them by glamour. glamour
// pads code to the width with spaces, wraps long code lines and miscounts
// tabs (a blank row after each tab-indented line), and stretches every
// table to the full width or drops its header when it is too wide; code
// must copy out of the terminal as the model wrote it.

// segment is a run of lines of one kind.
type segment struct {
	kind  segmentKind
	lines []string
	// lang is a code block's info string's first word.
	lang string
}

type segmentKind int

const (
	prose segmentKind = iota
	code
	table
)

// fence is an open fenced code block: its marker (``` or ~~~ of some
// length) and the indentation of its opening line.
type fence struct {
	marker string
	indent int
	lang   string
}

// openFence reports whether line opens a fenced code block.
func openFence(line string) (fence, bool) {
	indent := len(line) - len(strings.TrimLeft(line, " "))
	if indent > 3 {
		return fence{}, false
	}
	rest := line[indent:]
	for _, c := range []byte{'`', '~'} {
		n := len(rest) - len(strings.TrimLeft(rest, string(c)))
		if n < 3 {
			continue
		}
		info := strings.TrimSpace(rest[n:])
		if c == '`' && strings.Contains(info, "`") {
			return fence{}, false // an inline code span, not a fence
		}
		lang, _, _ := strings.Cut(info, " ")
		return fence{marker: rest[:n], indent: indent, lang: lang}, true
	}
	return fence{}, false
}

// closes reports whether line ends the fenced block f.
func (f fence) closes(line string) bool {
	t := strings.TrimRight(line, " \t")
	indent := len(t) - len(strings.TrimLeft(t, " "))
	if indent > 3 {
		return false
	}
	t = t[indent:]
	return strings.HasPrefix(t, f.marker) && strings.Trim(t, f.marker[:1]) == ""
}

// content is a code line without the fence's indentation, as CommonMark
// reads it.
func (f fence) content(line string) string {
	for i := 0; i < f.indent && strings.HasPrefix(line, " "); i++ {
		line = line[1:]
	}
	return line
}

var delimiterRow = regexp.MustCompile(`^ {0,3}\|? *:?-+:? *(\| *:?-+:? *)*\|? *$`)

// isTableStart reports whether lines[i] is a table's header row: cells
// separated by pipes, then a delimiter row with as many cells.
func isTableStart(lines []string, i int) bool {
	if i+1 >= len(lines) || !strings.Contains(lines[i], "|") || !delimiterRow.MatchString(lines[i+1]) {
		return false
	}
	return len(splitRow(lines[i])) == len(splitRow(lines[i+1]))
}

// segments cuts Markdown into prose, code blocks and tables.
func segments(text string) []segment {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	var out []segment
	add := func(kind segmentKind, line string) {
		if n := len(out); n > 0 && out[n-1].kind == kind && kind == prose {
			out[n-1].lines = append(out[n-1].lines, line)
			return
		}
		out = append(out, segment{kind: kind, lines: []string{line}})
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if f, ok := openFence(line); ok {
			seg := segment{kind: code, lang: f.lang}
			for i++; i < len(lines) && !f.closes(lines[i]); i++ {
				seg.lines = append(seg.lines, f.content(lines[i]))
			}
			out = append(out, seg)
			continue
		}
		if isTableStart(lines, i) {
			seg := segment{kind: table}
			for ; i < len(lines) && strings.TrimSpace(lines[i]) != "" && strings.Contains(lines[i], "|"); i++ {
				seg.lines = append(seg.lines, lines[i])
			}
			i--
			out = append(out, seg)
			continue
		}
		add(prose, line)
	}
	return out
}

// renderCode lays out a code block as the model wrote it: one terminal
// line per line of code, tabs kept, nothing added before or after, long
// lines left to the terminal, so that what a user copies is the code.
// Colours come from chroma when allowed, and only if they change nothing
// but the colours.
func renderCode(seg segment, noColor bool, theme Theme) string {
	src := strings.Join(seg.lines, "\n")
	if noColor || src == "" {
		return src
	}
	lexer := lexers.Get(seg.lang)
	if lexer == nil {
		return src
	}
	style := styles.Get("monokai")
	if theme == Light {
		style = styles.Get("github")
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, src+"\n")
	if err != nil {
		return src
	}
	var b strings.Builder
	if err := formatters.TTY256.Format(&b, style, it); err != nil {
		return src
	}
	colored := strings.TrimSuffix(b.String(), "\n")
	// Every line must read back as the source: a formatter that pads,
	// drops or adds anything loses to plain text.
	lines := strings.Split(colored, "\n")
	if len(lines) < len(seg.lines) {
		return src
	}
	lines = lines[:len(seg.lines)]
	for i, l := range lines {
		lines[i] = l + "\x1b[0m"
		if ansi.Strip(l) != seg.lines[i] {
			return src
		}
	}
	return strings.Join(lines, "\n")
}

// splitRow cuts a table row into its cells, trimmed; a pipe after a
// backslash is part of the cell.
func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	if strings.HasSuffix(line, "|") && !strings.HasSuffix(line, `\|`) {
		line = line[:len(line)-1]
	}
	var cells []string
	var cell strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cell.WriteByte('|')
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(cell.String()))
			cell.Reset()
		default:
			cell.WriteByte(line[i])
		}
	}
	return append(cells, strings.TrimSpace(cell.String()))
}

// inlineMarks are the Markdown bold and code marks a table cell shows
// without: a cell is laid out as plain text. Underscores stay: tool names
// are server__tool.
var inlineMarks = strings.NewReplacer("**", "", "`", "")

// tableMargin is the indentation of a table, the same as glamour's
// prose around it.
const tableMargin = 2

// renderTable lays a table out as narrow as its cells allow: a small
// table stays small; a table wider than the terminal has its widest
// columns narrowed and their cells wrapped, the header row always shown.
func renderTable(seg segment, width int, noColor bool) string {
	header := splitRow(seg.lines[0])
	aligns := splitRow(seg.lines[1])
	cols := len(header)
	rows := [][]string{header}
	for _, l := range seg.lines[2:] {
		r := splitRow(l)
		// Rows have as many cells as the header: extra ones are
		// dropped, missing ones empty, as GFM says.
		r = append(r, make([]string, max(0, cols-len(r)))...)
		rows = append(rows, r[:cols])
	}
	widths := make([]int, cols)
	for _, r := range rows {
		for c := range r {
			r[c] = inlineMarks.Replace(r[c])
			widths[c] = max(widths[c], runewidth.StringWidth(r[c]))
		}
	}
	const sep = " │ "
	avail := width - tableMargin - 3*(cols-1) - 1
	shrink(widths, avail)

	var b strings.Builder
	for ri, r := range rows {
		cells := make([][]string, cols)
		height := 1
		for c := range r {
			cells[c] = strings.Split(ansi.Wrap(r[c], max(1, widths[c]), ""), "\n")
			height = max(height, len(cells[c]))
		}
		for h := 0; h < height; h++ {
			var line strings.Builder
			line.WriteString(strings.Repeat(" ", tableMargin))
			for c := range cells {
				if c > 0 {
					line.WriteString(sep)
				}
				var text string
				if h < len(cells[c]) {
					text = cells[c][h]
				}
				pad := max(0, widths[c]-runewidth.StringWidth(text))
				if strings.HasSuffix(aligns[min(c, len(aligns)-1)], ":") && !strings.HasPrefix(aligns[min(c, len(aligns)-1)], ":") {
					text = strings.Repeat(" ", pad) + text
				} else {
					text += strings.Repeat(" ", pad)
				}
				if ri == 0 && !noColor && strings.TrimSpace(text) != "" {
					text = "\x1b[1m" + text + "\x1b[22m"
				}
				line.WriteString(text)
			}
			b.WriteString(trimRightSpace(line.String()))
			b.WriteByte('\n')
		}
		if ri == 0 {
			parts := make([]string, cols)
			for c, w := range widths {
				parts[c] = strings.Repeat("─", w)
			}
			b.WriteString(strings.Repeat(" ", tableMargin) + strings.Join(parts, "─┼─") + "\n")
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// shrink narrows the widest columns, one column at a time, until their sum
// fits avail; no column gets narrower than a few columns, so a table with
// too many columns still overflows rather than showing nothing.
func shrink(widths []int, avail int) {
	const least = 6
	for {
		sum, widest := 0, 0
		for i, w := range widths {
			sum += w
			if w > widths[widest] {
				widest = i
			}
		}
		if sum <= avail || widths[widest] <= least {
			return
		}
		widths[widest] -= min(sum-avail, max(1, widths[widest]-secondWidest(widths, widest)))
		widths[widest] = max(widths[widest], least)
	}
}

// secondWidest is the width of the widest column other than skip.
func secondWidest(widths []int, skip int) int {
	w := 0
	for i, x := range widths {
		if i != skip {
			w = max(w, x)
		}
	}
	return w
}

// trimRightSpace drops the spaces at the end of a line, also those
// wrapped in colour sequences, ending the line with a reset in their place:
// a copied line must not carry padding.
func trimRightSpace(line string) string {
	reset := false
	for {
		switch {
		case strings.HasSuffix(line, " ") || strings.HasSuffix(line, "\t"):
			line = strings.TrimRight(line, " \t")
		case strings.HasSuffix(line, "m") && sgrTail.MatchString(line):
			line = line[:sgrTail.FindStringIndex(line)[0]]
			reset = true
		default:
			if reset {
				line += "\x1b[0m"
			}
			return line
		}
	}
}

var sgrTail = regexp.MustCompile(`\x1b\[[0-9;]*m$`)
