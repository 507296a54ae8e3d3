package ui

import (
	"strings"

	"github.com/charmbracelet/glamour"
	"github.com/charmbracelet/glamour/styles"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// RenderMarkdown renders text for a terminal of the given width, in the
// colours of theme. Code blocks keep the model's bytes (see renderCode)
// and tables are as narrow as their cells (see renderTable); glamour lays
// out the rest. It falls back to the text itself when glamour fails, so
// the answer is never lost. With noColor the layout is kept but no colours
// are used. Nothing is asked of the terminal: the theme was decided
// before. No line ends in spaces.
func RenderMarkdown(text string, width int, noColor bool, theme Theme) string {
	if width <= 0 {
		width = 80
	}
	var parts []string
	for _, seg := range segments(text) {
		var out string
		switch seg.kind {
		case code:
			out = renderCode(seg, noColor, theme)
			if out == "" {
				continue
			}
		case table:
			out = renderTable(seg, width, noColor)
		default:
			out = renderProse(strings.Join(seg.lines, "\n"), width, noColor, theme)
			if strings.TrimSpace(out) == "" {
				continue
			}
		}
		parts = append(parts, out)
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "\n\n") + "\n"
}

// renderProse renders Markdown without code blocks and tables with
// glamour, without the blank lines around it and the spaces glamour pads
// lines with.
func renderProse(text string, width int, noColor bool, theme Theme) string {
	opts := []glamour.TermRendererOption{glamour.WithWordWrap(width)}
	switch {
	case noColor:
		// The layout of the dark style without its colours (bold and
		// the like stay: NO_COLOR is about colour).
		opts = append(opts, glamour.WithStandardStyle(styles.DarkStyle), glamour.WithColorProfile(termenv.Ascii))
	case theme == Dark:
		opts = append(opts, glamour.WithStandardStyle(styles.DarkStyle))
	default:
		opts = append(opts, glamour.WithStandardStyle(styles.LightStyle))
	}
	r, err := glamour.NewTermRenderer(opts...)
	if err != nil {
		return text
	}
	out, err := r.Render(text)
	if err != nil {
		return text
	}
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		lines[i] = trimRightSpace(l)
		if ansi.Strip(lines[i]) == "" {
			lines[i] = "" // a reset alone shows nothing
		}
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}
