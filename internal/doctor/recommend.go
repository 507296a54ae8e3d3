package doctor

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mcphost/mcphost/internal/budget"
	"github.com/mcphost/mcphost/provider"
)

// lowTemperature is what a lower temperature means in a recommendation:
// small models call tools most reliably near greedy decoding.
const lowTemperature = 0.2

// recommend turns what the checks found into what to change, and, when
// the model failed the probe, probes up to Options.Compare other models of
// the engine for one that does better.
func (d *doctor) recommend(ctx context.Context) {
	if d.probe != nil {
		k := d.probe.kind()
		shaky := k == "text" || k == "text unread" || k == "wrong" || !d.probe.good()
		if t := d.temperature; shaky && (t == nil || *t > lowTemperature) {
			if t == nil {
				d.advise(fmt.Sprintf("Set a low temperature: --temperature %g (temperature: %g in the config); mcphost now leaves it to the engine and the model's own settings, and small models call tools more reliably near 0.", lowTemperature, lowTemperature))
			} else {
				d.advise(fmt.Sprintf("Lower the temperature from %g: --temperature %g (temperature: %g in the config); small models call tools more reliably near 0.", *t, lowTemperature, lowTemperature))
			}
		}
	}
	if d.info.Has(provider.CapabilityThinking) && d.thinkOff == StatusOK && (d.s.Think == nil || *d.s.Think) {
		d.advise("Turn thinking off for tool use: --think=false (think: false in the config) takes effect with this model and saves the thinking's time and tokens on every step.")
	}
	if d.toolsFit == StatusWarn {
		share := d.s.ToolShare
		if share <= 0 {
			share = defaultToolShare
		}
		need := int(float64(d.toolTokens)/share) + 1
		trained := d.info.ContextLength
		switch {
		case trained > d.window && !d.info.FixedContext:
			n := min(roundUp(need), trained)
			d.advise(fmt.Sprintf("Give the model a larger window so that every tool is offered: --num-ctx %d (the model was trained on %d; a larger window takes more memory).", n, trained))
		default:
			d.advise(fmt.Sprintf("The tools (about %s tokens) do not fit the model's window: mcphost offers the most relevant tools and a search tool in each request. Name the tool you want in the prompt, or disable the servers you do not need (enabled: false) for this model.", budget.Short(d.toolTokens)))
		}
	}
	noTools := d.info.Name != "" && !d.info.Has(provider.CapabilityTools)
	if noTools || (d.probe != nil && !d.probe.good()) {
		d.compare(ctx)
	}
}

// compare probes up to Options.Compare other models of the engine that
// have tools, smallest first, and recommends the first that passes.
func (d *doctor) compare(ctx context.Context) {
	if d.opts.Compare < 0 {
		return
	}
	var others []provider.ModelInfo
	for _, m := range d.listed {
		if sameModel(m.Name, d.model) || !m.Has(provider.CapabilityTools) || strings.Contains(strings.ToLower(m.Name), "embed") {
			continue
		}
		others = append(others, m)
	}
	// Smallest first: the quickest to load, and the likeliest to fit.
	slices.SortStableFunc(others, func(a, b provider.ModelInfo) int {
		switch {
		case a.Size == b.Size:
			return 0
		case a.Size == 0:
			return 1
		case b.Size == 0:
			return -1
		case a.Size < b.Size:
			return -1
		}
		return 1
	})
	if len(others) == 0 {
		d.advise(fmt.Sprintf("Try a model that calls tools natively, such as qwen3 or llama3.1: %s has no other model with tools to compare.", d.engineDisplay()))
		return
	}
	others = others[:min(len(others), d.opts.Compare)]
	// The first that calls natively wins; one whose text-written calls
	// were recovered is kept in case none does.
	var tried []string
	recovered := ""
	for _, m := range others {
		if ctx.Err() != nil {
			return
		}
		ref := d.engine + ":" + m.Name
		tried = append(tried, ref)
		r, err := d.runProbe(ctx, ref)
		switch {
		case err != nil || !r.good():
		case r.kind() == "native":
			d.advise(fmt.Sprintf("Another model does better: %s calls the probe's tool natively, with the right arguments, and stops: mcphost doctor -m %s", ref, ref))
			return
		case recovered == "":
			recovered = ref
		}
	}
	if recovered != "" {
		d.advise(fmt.Sprintf("Another model does better: %s calls the probe's tool (written as text, which mcphost recovers), with the right arguments, and stops: mcphost doctor -m %s", recovered, recovered))
		return
	}
	d.advise(fmt.Sprintf("None of the other models tried (%s) passed the probe either; a model known for tool calling (qwen3, llama3.1) is the surest choice.", strings.Join(tried, ", ")))
}

// roundUp rounds a window up to a multiple of 1024 tokens.
func roundUp(n int) int {
	return (n + 1023) / 1024 * 1024
}

// sameModel reports whether two names are one model: Ollama's "qwen3" is
// "qwen3:latest".
func sameModel(a, b string) bool {
	return strings.EqualFold(strings.TrimSuffix(a, ":latest"), strings.TrimSuffix(b, ":latest"))
}
