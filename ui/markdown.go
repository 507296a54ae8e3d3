package ui

import (
	"strings"

	"github.com/charmbracelet/glamour"
	"github.com/charmbracelet/glamour/styles"
	"github.com/muesli/termenv"
)

// RenderMarkdown renders text for a terminal of the given width, in the
// colours of theme. It falls back to the text itself when glamour fails, so
// the answer is never lost. With noColor the layout is kept but no colours
// are used. Nothing is asked of the terminal: the theme was decided
// before.
func RenderMarkdown(text string, width int, noColor bool, theme Theme) string {
	if width <= 0 {
		width = 80
	}
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
	return strings.Trim(out, "\n") + "\n"
}
