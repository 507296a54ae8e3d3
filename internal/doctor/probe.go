package doctor

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/toolcall"
)

// The probe: two tools of mcphost's own, one the prompt asks for and one
// it does not, so that a model that calls tools at random is told from
// one that reads the request; an integer argument, which small models
// often write as a string; and a result the answer should use.
const (
	// ProbeTool is the tool the probe asks the model to call, and
	// OtherTool the one it should leave alone.
	ProbeTool = "get_weather"
	OtherTool = "get_time"
	// ProbePrompt is what the model is asked.
	ProbePrompt = "What will the weather be in Paris over the next 2 days? Use the get_weather tool."
	probeCity   = "Paris"
	probeDays   = 2
)

// weatherArgs are get_weather's arguments.
type weatherArgs struct {
	City string `json:"city" jsonschema:"the city, e.g. Paris"`
	Days int    `json:"days" jsonschema:"how many days ahead, 1 to 7"`
}

// timeArgs are get_time's.
type timeArgs struct {
	Zone string `json:"zone" jsonschema:"an IANA time zone, e.g. Europe/Paris"`
}

// probeResult is what the probe saw.
type probeResult struct {
	// err is why the turn failed, if it did (the step limit included).
	err error
	// calls are the calls the model made, in order.
	calls []host.ToolCallFinished
	// format is how recovered calls were written.
	format string
	// answer is the final answer.
	answer string
	// weatherRan counts the runs of get_weather, and args are the
	// arguments of its first.
	weatherRan int
	args       weatherArgs
}

// probeTools are the probe's tools; r hears their calls.
func probeTools(r *probeResult) []host.Tool {
	var mu sync.Mutex
	weather := host.NewTool(ProbeTool, "Get the weather forecast for a city.",
		func(_ context.Context, in weatherArgs) (string, error) {
			mu.Lock()
			defer mu.Unlock()
			if r.weatherRan == 0 {
				r.args = in
			}
			r.weatherRan++
			return fmt.Sprintf("%s: sunny, 21 °C, for the next %d days.", in.City, in.Days), nil
		}, host.ReadOnly())
	clock := host.NewTool(OtherTool, "Get the current time in a time zone.",
		func(_ context.Context, in timeArgs) (string, error) {
			return "12:00 in " + in.Zone, nil
		}, host.ReadOnly())
	return []host.Tool{weather, clock}
}

// runProbe puts the probe to model (a model reference) on a Host of its
// own; err is a Host that could not be made.
func (d *doctor) runProbe(ctx context.Context, model string) (*probeResult, error) {
	r := &probeResult{}
	opts := d.hostOptions(probeSettings(d.s, model))
	opts.Tools = probeTools(r)
	h, err := host.New(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	res, err := h.PromptFunc(ctx, ProbePrompt, func(ev host.Event) {
		if e, ok := ev.(host.ModelCallFinished); ok && e.Format != "" && r.format == "" {
			r.format = e.Format
		}
	})
	r.err, r.calls, r.answer = err, res.ToolCalls, strings.TrimSpace(res.Answer)
	return r, nil
}

// kind says how the model called: "native", "text", "wrong", "text
// unread" or "none".
func (r *probeResult) kind() string {
	if len(r.calls) == 0 {
		if looksLikeCall(r.answer) {
			return "text unread"
		}
		return "none"
	}
	first := r.calls[0]
	switch {
	case first.Call.Name != ProbeTool && first.Tool != ProbeTool:
		return "wrong"
	case first.Recovered:
		return "text"
	}
	return "native"
}

// looksLikeCall reports whether an answer holds what reads as a call of
// the probe's tool that mcphost did not take as one.
func looksLikeCall(answer string) bool {
	if cands, _ := toolcall.Extract(answer); len(cands) > 0 {
		return true
	}
	return strings.Contains(answer, ProbeTool) && strings.ContainsAny(answer, "{(<")
}

// good reports whether the probe went as it should: the right tool, with
// the right arguments, once, and an answer.
func (r *probeResult) good() bool {
	k := r.kind()
	return (k == "native" || k == "text") && r.weatherRan == 1 && r.err == nil && r.answer != "" && r.argsRight()
}

// argsRight: Paris and 2, as asked.
func (r *probeResult) argsRight() bool {
	return strings.EqualFold(strings.TrimSpace(r.args.City), probeCity) && r.args.Days == probeDays
}

// checkToolCalling probes the model and reports how it called, with
// which arguments, and whether it stopped.
func (d *doctor) checkToolCalling(ctx context.Context) {
	start := time.Now()
	r, err := d.runProbe(ctx, d.s.Model)
	if err != nil {
		d.add(Check{Name: "tool call", Status: StatusFail, Model: true, Detail: "the probe could not run: " + oneLine(err)})
		return
	}
	d.probe = r
	took := time.Since(start)
	var first host.ToolCallFinished
	if len(r.calls) > 0 {
		first = r.calls[0]
	}
	switch r.kind() {
	case "native":
		d.add(Check{Name: "tool call", Status: StatusOK, Model: true, Detail: fmt.Sprintf("calls %s natively (the probe took %s)", ProbeTool, seconds(took))})
	case "text":
		format := r.format
		if format == "" {
			format = "text"
		}
		d.add(Check{Name: "tool call", Status: StatusWarn, Model: true,
			Detail: fmt.Sprintf("writes the call of %s as text (%s), which mcphost recovered; the engine did not read it as a call", ProbeTool, format),
			Fix:    "this works, but a model or template that calls natively is more reliable: see the recommendations"})
	case "text unread":
		d.add(Check{Name: "tool call", Status: StatusFail, Model: true,
			Detail: fmt.Sprintf("wrote a tool call as text that mcphost could not take as a call of %s (a name no tool has, or a form it cannot read): %s", ProbeTool, quote(r.answer)),
			Fix:    "try a lower temperature or another model: see the recommendations"})
	case "wrong":
		d.add(Check{Name: "tool call", Status: StatusFail, Model: true,
			Detail: fmt.Sprintf("called %s when asked to call %s", first.Call.Name, ProbeTool),
			Fix:    "try a lower temperature, fewer tools at once (--tool-share), or another model: see the recommendations"})
	default:
		detail := "never called a tool"
		if r.answer != "" {
			detail += ": it answered " + quote(r.answer)
		} else {
			detail += ", and gave no answer"
		}
		d.add(Check{Name: "tool call", Status: StatusFail, Model: true, Detail: detail,
			Fix: "the model does not use tools as mcphost offers them: pick another model (see the recommendations)"})
	}
	d.checkArguments(r)
	d.checkStops(r)
}

// checkArguments: were the probe's arguments of the right types and
// values.
func (d *doctor) checkArguments(r *probeResult) {
	var call *host.ToolCallFinished
	for i := range r.calls {
		if r.calls[i].Tool == ProbeTool || r.calls[i].Call.Name == ProbeTool {
			call = &r.calls[i]
			break
		}
	}
	if call == nil {
		d.add(Check{Name: "arguments", Status: StatusUnknown, Model: true, Detail: "not known: " + ProbeTool + " was not called"})
		return
	}
	switch {
	case call.Rejected:
		d.add(Check{Name: "arguments", Status: StatusFail, Model: true,
			Detail: fmt.Sprintf("%s's arguments %s do not fit its schema, and no safe repair made them: %s", ProbeTool, argsText(call.Call.Arguments), firstLine(call.Output)),
			Fix:    "try a lower temperature or another model: see the recommendations"})
	case !r.argsRight():
		d.add(Check{Name: "arguments", Status: StatusFail, Model: true,
			Detail: fmt.Sprintf("%s was called with %s, not city %q and days %d as asked", ProbeTool, argsText(call.Call.Arguments), probeCity, probeDays)})
	case len(call.Repairs) > 0:
		d.add(Check{Name: "arguments", Status: StatusWarn, Model: true,
			Detail: fmt.Sprintf("right values, wrong types, repaired by mcphost: %s", strings.Join(call.Repairs, "; ")),
			Fix:    "a lower temperature often fixes this: see the recommendations"})
	default:
		d.add(Check{Name: "arguments", Status: StatusOK, Model: true, Detail: fmt.Sprintf("city %q (string), days %d (integer), as asked", probeCity, probeDays)})
	}
}

// checkStops: once it had the result, did the model answer rather than
// call again.
func (d *doctor) checkStops(r *probeResult) {
	switch {
	case r.weatherRan == 0 && len(r.calls) == 0:
		d.add(Check{Name: "stops", Status: StatusUnknown, Model: true, Detail: "not known: no tool was called"})
	case errors.Is(r.err, host.ErrMaxSteps) || len(r.calls) > 1:
		detail := fmt.Sprintf("kept calling after it had the result (%d calls", len(r.calls))
		if errors.Is(r.err, host.ErrMaxSteps) {
			detail += ", stopped by mcphost's loop guard or step limit"
		}
		d.add(Check{Name: "stops", Status: StatusFail, Model: true, Detail: detail + ")",
			Fix: "a lower temperature often helps; else another model: see the recommendations"})
	case r.err != nil:
		d.add(Check{Name: "stops", Status: StatusFail, Model: true, Detail: "the probe failed after the call: " + oneLine(r.err)})
	case r.answer == "":
		d.add(Check{Name: "stops", Status: StatusFail, Model: true, Detail: "stopped after the result, but its answer was empty",
			Fix: "try another model: see the recommendations"})
	default:
		d.add(Check{Name: "stops", Status: StatusOK, Model: true, Detail: "answered after one call: " + quote(r.answer)})
	}
}

// quote is a model's text, cut and quoted for one line.
func quote(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 80 {
		s = string(r[:79]) + "…"
	}
	return fmt.Sprintf("%q", s)
}

// firstLine is the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// argsText writes arguments compactly.
func argsText(args map[string]any) string {
	var parts []string
	for _, k := range []string{"city", "days"} {
		if v, ok := args[k]; ok {
			parts = append(parts, fmt.Sprintf("%s: %#v", k, v))
		}
	}
	var others []string
	for k := range args {
		if k != "city" && k != "days" {
			others = append(others, k)
		}
	}
	slices.Sort(others)
	for _, k := range others {
		parts = append(parts, fmt.Sprintf("%s: %#v", k, args[k]))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
