package ui

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/termtext"
)

// EvalReport writes an evaluation's report as text (mcphost eval): tasks ×
// models, then the figures of each model, its verdict, and why runs
// failed.
func EvalReport(w io.Writer, rep host.EvalReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "TASK")
	for _, m := range rep.Models {
		fmt.Fprintf(tw, "\t%s", termtext.Line(m.Model))
	}
	fmt.Fprintln(tw)
	if len(rep.Models) > 0 {
		for i, t := range rep.Models[0].Tasks {
			fmt.Fprint(tw, termtext.Line(t.Name))
			for _, m := range rep.Models {
				fmt.Fprintf(tw, "\t%d/%d", m.Tasks[i].Passed, m.Tasks[i].Runs)
			}
			fmt.Fprintln(tw)
		}
	}
	fmt.Fprintln(tw)
	fmt.Fprintln(tw, "MODEL\tPASSED\tNATIVE\tRECOVERED\tREPAIRED\tREJECTED\tSTEPS\tTOKENS\tTIME")
	for _, m := range rep.Models {
		fmt.Fprintf(tw, "%s\t%d/%d\t%d\t%d\t%d\t%d\t%.1f\t%d\t%s\n", termtext.Line(m.Model), m.Passed, m.Runs,
			m.Native, m.Recovered, m.Repaired, m.Rejected, m.MeanSteps, m.Tokens, shortDuration(m.Duration))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	for _, m := range rep.Models {
		fmt.Fprintf(w, "%s: %s\n", termtext.Line(m.Model), termtext.Line(m.Verdict))
	}
	var failures []string
	for _, m := range rep.Models {
		for _, t := range m.Tasks {
			for _, f := range t.Failures {
				failures = append(failures, fmt.Sprintf("  %s, %s: %s", termtext.Line(m.Model), termtext.Line(t.Name), termtext.Line(f)))
			}
		}
	}
	if len(failures) > 0 {
		fmt.Fprintf(w, "\nFailures:\n%s\n", strings.Join(failures, "\n"))
	}
	return nil
}

// shortDuration rounds d for the table: milliseconds under a second,
// tenths of a second under a minute, seconds above.
func shortDuration(d time.Duration) time.Duration {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond)
	case d < time.Minute:
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}
