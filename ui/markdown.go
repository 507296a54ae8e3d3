package ui

import (
	"strings"

	"github.com/charmbracelet/glamour"
	"github.com/charmbracelet/glamour/styles"
	"github.com/muesli/termenv"
)

// RenderMarkdown renders text for a terminal of the given width. It falls
// back to the text itself when glamour fails, so the answer is never lost.
// With noColor the layout is kept but no colours are used.
func RenderMarkdown(text string, width int, noColor bool) string {
	style := styles.DarkStyle
	switch {
	case noColor:
		style = styles.NoTTYStyle
	case !termenv.HasDarkBackground():
		style = styles.LightStyle
	}
	if width <= 0 {
		width = 80
	}
	r, err := glamour.NewTermRenderer(glamour.WithStandardStyle(style), glamour.WithWordWrap(width))
	if err != nil {
		return text
	}
	out, err := r.Render(text)
	if err != nil {
		return text
	}
	return strings.Trim(out, "\n") + "\n"
}
