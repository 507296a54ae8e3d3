package ui

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/provider"
)

// ModelRecord is one model in "mcphost models --output json".
type ModelRecord struct {
	// Model is the reference -m takes: engine:name.
	Model  string `json:"model"`
	Engine string `json:"engine"`
	Name   string `json:"name"`
	// Size in bytes, 0 when the engine does not say.
	Size int64 `json:"size,omitempty"`
	// Tools is whether the model can call tools; null when the engine
	// does not say (it is then assumed).
	Tools *bool `json:"tools"`
	// ContextLength is the window in tokens, 0 when unknown;
	// ContextFixed says the engine serves the model with that window.
	ContextLength int      `json:"context_length,omitempty"`
	ContextFixed  bool     `json:"context_fixed,omitempty"`
	Capabilities  []string `json:"capabilities,omitempty"`
}

// EngineRecord is one engine in "mcphost models --output json".
type EngineRecord struct {
	Name   string `json:"name"`
	Models int    `json:"models"`
	Error  string `json:"error,omitempty"`
}

// ModelRecords turns a listing into records.
func ModelRecords(models []host.ModelEntry) []ModelRecord {
	out := make([]ModelRecord, 0, len(models))
	for _, m := range models {
		r := ModelRecord{Model: m.Engine + ":" + m.Name, Engine: m.Engine, Name: m.Name, Size: m.Size,
			ContextLength: m.ContextLength, ContextFixed: m.FixedContext}
		if !m.CapabilitiesAssumed {
			tools := m.Has(provider.CapabilityTools)
			r.Tools = &tools
			r.Capabilities = m.Capabilities
		}
		out = append(out, r)
	}
	return out
}

// EngineRecords turns the engines' statuses into records; mask hides
// secrets in their errors.
func EngineRecords(statuses []host.EngineStatus, mask func(string) string) []EngineRecord {
	out := make([]EngineRecord, 0, len(statuses))
	for _, s := range statuses {
		r := EngineRecord{Name: s.Name, Models: s.Models}
		if s.Err != nil {
			r.Error = mask(s.Err.Error())
		}
		out = append(out, r)
	}
	return out
}

// ModelTable prints one line per model: the reference -m takes, its size,
// whether it can call tools ("yes?" when the engine does not say, so it
// is assumed) and its context window ("served" when the engine fixed it).
// Engines that did not answer follow: those not running on one line,
// others with their error.
func ModelTable(w io.Writer, models []host.ModelEntry, statuses []host.EngineStatus, mask func(string) string) {
	if len(models) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "MODEL\tSIZE\tTOOLS\tCONTEXT")
		for _, m := range models {
			size, tools, ctx := modelCells(m)
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", Sanitize(m.Engine+":"+m.Name), size, tools, ctx)
		}
		tw.Flush()
	} else {
		fmt.Fprintln(w, "no models")
	}
	var down []string
	for _, s := range statuses {
		switch {
		case s.Err == nil:
		case errors.Is(s.Err, provider.ErrUnreachable):
			down = append(down, s.Name)
		default:
			fmt.Fprintf(w, "%s: %s\n", s.Name, Sanitize(mask(s.Err.Error())))
		}
	}
	if len(down) > 0 {
		fmt.Fprintf(w, "not running: %s (--debug says where each was looked for)\n", strings.Join(down, ", "))
	}
}

// modelCells are a model's size, tool capability and context window as
// the listings show them.
func modelCells(m host.ModelEntry) (size, tools, ctx string) {
	tools = "no"
	switch {
	case m.CapabilitiesAssumed:
		tools = "yes?"
	case m.Has(provider.CapabilityTools):
		tools = "yes"
	}
	ctx = "-"
	if m.ContextLength > 0 {
		ctx = strconv.Itoa(m.ContextLength)
		if m.FixedContext {
			ctx += " (served)"
		}
	}
	size = "-"
	if m.Size > 0 {
		size = Bytes(m.Size)
	}
	return size, tools, ctx
}

// ModelChoices prints the models the chat's /model can switch to, one a
// line, under the names /model takes (ref), the current one marked with
// "*": size, tool capability and context window, as ModelTable shows.
func ModelChoices(w io.Writer, models []host.ModelEntry, ref func(host.ModelEntry) string, current func(host.ModelEntry) bool) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  MODEL\tSIZE\tTOOLS\tCONTEXT")
	for _, m := range models {
		mark := " "
		if current(m) {
			mark = "*"
		}
		size, tools, ctx := modelCells(m)
		fmt.Fprintf(tw, "%s %s\t%s\t%s\t%s\n", mark, Sanitize(ref(m)), size, tools, ctx)
	}
	tw.Flush()
}

// Bytes renders a size as people read it: 4.9 GB, 230 KB.
func Bytes(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "kMGTPE"[exp])
}

// PullProgress returns a progress callback for a model download that
// draws one line on w, redrawn in place: the step, the bytes and the
// percentage ("pulling qwen3:8b: 1.2 GB / 4.9 GB (24%)"). Call the returned
// done when the pull ends, to finish the line. It is for a terminal: the
// callers leave it out when w is a pipe, which gets nothing.
func PullProgress(w io.Writer, model string) (progress func(provider.PullProgress), done func()) {
	var mu sync.Mutex
	drawn := false
	progress = func(p provider.PullProgress) {
		mu.Lock()
		defer mu.Unlock()
		line := fmt.Sprintf("pulling %s: %s", model, p.Status)
		if p.Total > 0 {
			line = fmt.Sprintf("pulling %s: %s / %s (%d%%)", model, Bytes(p.Completed), Bytes(p.Total), p.Completed*100/p.Total)
		}
		// \r and erase to the end of the line: the line is redrawn in
		// place.
		fmt.Fprintf(w, "\r%s\x1b[K", Sanitize(line))
		drawn = true
	}
	done = func() {
		mu.Lock()
		defer mu.Unlock()
		if drawn {
			fmt.Fprintln(w)
			drawn = false
		}
	}
	return progress, done
}
