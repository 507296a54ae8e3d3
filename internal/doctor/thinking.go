package doctor

import (
	"context"
	"fmt"
	"time"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/provider"
)

// speedPrompt is what the model answers for the speed check: a short
// answer, without tools, so that nothing is held back from the stream.
const speedPrompt = "In one short sentence: why is the sky blue?"

// checkThinking asks the model a short question without tools, with
// --think=false for a model that thinks: it says whether that took effect
// and how fast the model answers.
func (d *doctor) checkThinking(ctx context.Context) {
	thinks := d.info.Has(provider.CapabilityThinking) || d.info.CapabilitiesAssumed
	c := probeSettings(d.s, d.s.Model)
	if thinks {
		off := false
		c.Think = &off
	}
	h, err := host.New(ctx, d.hostOptions(c))
	if err != nil {
		d.add(Check{Name: "speed", Status: StatusFail, Model: true, Detail: "the model could not be asked: " + oneLine(err)})
		return
	}
	defer h.Close()
	var first, last time.Time
	var thought int
	start := time.Now()
	res, err := h.PromptFunc(ctx, speedPrompt, func(ev host.Event) {
		switch e := ev.(type) {
		case host.TextDelta:
			if first.IsZero() && e.Text != "" {
				first = time.Now()
			}
			last = time.Now()
		case host.ThinkingDelta:
			if first.IsZero() && e.Text != "" {
				first = time.Now()
			}
			thought += len(e.Text)
			last = time.Now()
		case host.Finished:
			last = time.Now()
		}
	})
	if err != nil {
		d.add(Check{Name: "speed", Status: StatusFail, Model: true, Detail: "the model could not answer a short question: " + oneLine(err)})
		return
	}
	switch {
	case !thinks:
		d.thinkOff = StatusOK
		d.add(Check{Name: "thinking", Status: StatusOK, Model: true, Detail: "the model does not think (no thinking capability): nothing to turn off"})
	case thought > 0 && d.info.CapabilitiesAssumed:
		d.thinkOff = StatusWarn
		d.add(Check{Name: "thinking", Status: StatusWarn, Model: true, Detail: "the model thinks even when asked not to (--think=false): the engine does not pass it on to this model",
			Fix: "turn thinking off in the engine's own settings for the model, or budget for it"})
	case thought > 0:
		// A failure when the user asked for it; else a caveat: the
		// model works, at the cost of its thinking.
		d.thinkOff = StatusWarn
		if d.s.Think != nil && !*d.s.Think {
			d.thinkOff = StatusFail
		}
		d.add(Check{Name: "thinking", Status: d.thinkOff, Model: true, Detail: "the model thinks even when asked not to (--think=false)",
			Fix: "upgrade the engine, or pick a model whose template honours think=false"})
	case d.info.CapabilitiesAssumed:
		d.thinkOff = StatusUnknown
		d.add(Check{Name: "thinking", Status: StatusUnknown, Model: true, Detail: "not known whether the model thinks: it did not, asked not to (--think=false)"})
	default:
		d.thinkOff = StatusOK
		d.add(Check{Name: "thinking", Status: StatusOK, Model: true, Detail: "--think=false takes effect: no thinking came back"})
	}
	d.speed(res, start, first, last)
}

// minMeasured is the shortest stream a rate is computed from: below it,
// the figure says more about the clock than about the model.
const minMeasured = 20 * time.Millisecond

// speed reports the time to the first token and the tokens per second.
func (d *doctor) speed(res host.Result, start, first, last time.Time) {
	if first.IsZero() {
		d.add(Check{Name: "speed", Status: StatusUnknown, Model: true, Detail: "not known: the answer was empty"})
		return
	}
	ttft := first.Sub(start)
	detail := fmt.Sprintf("first token after %s", seconds(ttft))
	// From the first token to the end of the stream: the rate of
	// generation, the prompt's processing left out.
	gen := last.Sub(first)
	if n := res.Usage.CompletionTokens; n > 0 && gen >= minMeasured {
		detail += fmt.Sprintf(", %.0f tokens/s (%d tokens)", float64(n)/gen.Seconds(), n)
	} else if n == 0 {
		detail += "; tokens/s not known (the engine did not count the tokens)"
	} else {
		detail += fmt.Sprintf("; the answer (%d tokens) came too fast to measure tokens/s", n)
	}
	d.add(Check{Name: "speed", Status: StatusOK, Model: true, Detail: detail})
}

// seconds writes a duration for people: "0.42 s", "3.1 s".
func seconds(t time.Duration) string {
	if t < time.Second {
		return fmt.Sprintf("%.2f s", t.Seconds())
	}
	return fmt.Sprintf("%.1f s", t.Seconds())
}
