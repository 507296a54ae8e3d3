package doctor

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcphost/mcphost/internal/termtext"
	"github.com/mcphost/mcphost/internal/ui"
)

// Mark is the mark of a status in the text output: ✓ works, ! works with
// a caveat, ✗ does not work, ? not known.
func Mark(s Status, st ui.Style) string {
	switch s {
	case StatusOK:
		return st.OK("✓")
	case StatusWarn:
		return st.Warning("!")
	case StatusFail:
		return st.Fail("✗")
	}
	return st.Dim("?")
}

// WriteCheck writes one check as the text output shows it: its mark, name
// and detail on one line, and what to do on the next. What engines and
// servers said is cleaned of escape sequences.
func WriteCheck(w io.Writer, c Check, st ui.Style) error {
	_, err := fmt.Fprintf(w, "%s %s: %s\n", Mark(c.Status, st), c.Name, termtext.Line(c.Detail))
	if err == nil && c.Fix != "" && c.Status != StatusOK {
		_, err = fmt.Fprintf(w, "    %s %s\n", st.Dim("→"), termtext.Line(c.Fix))
	}
	return err
}

// WriteRecommendations writes the recommendations after the checks.
func WriteRecommendations(w io.Writer, recs []string) error {
	if len(recs) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("\nRecommendations:\n")
	for _, r := range recs {
		fmt.Fprintf(&b, "  - %s\n", termtext.Line(r))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
