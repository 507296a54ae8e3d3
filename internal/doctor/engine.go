package doctor

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/spell"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/provider/ollama"
)

// address is where an engine is reached and which setting said so.
type address struct {
	row    provider.Engine
	url    string
	source string // "OLLAMA_HOST", "--provider-url", "providers.x in FILE"; "" for the usual address
}

// where is the engine's address as the report says it.
func (a address) where() string {
	w := a.row.Display + " at " + a.url
	if a.source != "" {
		return w + " (from " + a.source + ")"
	}
	return w + " (its usual address)"
}

// addressOf finds where the settings send the requests of engine.
func addressOf(s *config.Settings, engine string) address {
	if i := slices.IndexFunc(s.Providers, func(p config.Engine) bool { return strings.EqualFold(p.Name, engine) }); i >= 0 {
		p := s.Providers[i]
		row, _ := provider.LookupEngine(p.Type)
		a := address{row: row, url: p.URL, source: fmt.Sprintf("providers.%s.url in %s", p.Name, p.Source)}
		if row.API == provider.APIOllama {
			if u, err := ollama.ParseHost(p.URL); err == nil {
				a.url = u.String()
			}
		}
		return a
	}
	row, _ := provider.LookupEngine(engine)
	if row.API == provider.APIOllama {
		a := address{row: row, url: row.URL, source: s.OllamaHostSource}
		if u, err := ollama.ParseHost(s.OllamaHost); err == nil {
			a.url = u.String()
		}
		return a
	}
	if s.ProviderURL != "" {
		return address{row: row, url: s.ProviderURL, source: s.ProviderURLSource}
	}
	return address{row: row, url: row.URL}
}

// engineOf splits the configured model reference; without one, the
// engine is Ollama, mcphost's default.
func engineOf(s *config.Settings) (engine, model string, err error) {
	if strings.TrimSpace(s.Model) == "" {
		return provider.EngineOllama, "", nil
	}
	var names []string
	for _, p := range s.Providers {
		names = append(names, p.Name)
	}
	return provider.ParseModelWith(s.Model, names)
}

// checkEngine: is the model's engine reachable, where, and which version.
// It also lists the engine's models, for "did you mean" and comparisons.
func (d *doctor) checkEngine(ctx context.Context) bool {
	engine, model, err := engineOf(d.s)
	if err != nil {
		d.add(Check{Name: "engine", Status: StatusFail, Model: true,
			Detail: fmt.Sprintf("the model reference %q names no engine mcphost knows: %v", d.s.Model, err),
			Fix:    "write -m ENGINE:MODEL with an engine of mcphost --help, or one under \"providers\" in a config file"})
		return false
	}
	d.engine, d.model = engine, model
	addr := addressOf(d.s, engine)
	c := *d.s
	c.Servers, c.Adhoc = nil, nil
	opts := d.hostOptions(&c)
	opts.ToolsOnly = true
	h, err := host.New(ctx, opts)
	if err != nil {
		d.add(Check{Name: "engine", Status: StatusFail, Model: true, Detail: oneLine(err), Fix: "correct the setting the message names"})
		return false
	}
	defer h.Close()
	d.mask = h.Mask
	models, statuses, err := h.Models(ctx)
	if err != nil {
		d.add(Check{Name: "engine", Status: StatusFail, Model: true, Detail: oneLine(err)})
		return false
	}
	i := slices.IndexFunc(statuses, func(st host.EngineStatus) bool { return strings.EqualFold(st.Name, engine) })
	if i < 0 {
		// An engine "mcphost models" does not ask (OpenAI's own without
		// --provider-url): the model check reaches it.
		d.add(Check{Name: "engine", Status: StatusUnknown, Model: true,
			Detail: fmt.Sprintf("%s: not known whether it answers until the model is asked", addr.where())})
		return true
	}
	if st := statuses[i]; st.Err != nil {
		fix := "start it: " + addr.row.Start
		if addr.row.Start == "" {
			fix = "check the address and the key"
		}
		if addr.source != "" {
			fix += ", or correct " + addr.source
		} else {
			fix += ", or give its address (--ollama-host, --provider-url, or providers in a config file)"
		}
		d.add(Check{Name: "engine", Status: StatusFail, Model: true, Detail: oneLine(st.Err), Fix: fix})
		return false
	}
	for _, m := range models {
		if strings.EqualFold(m.Engine, engine) {
			// Ollama's "qwen3:latest" is "qwen3" as people write it.
			m.Name = strings.TrimSuffix(m.Name, ":latest")
			d.listed = append(d.listed, m.ModelInfo)
		}
	}
	where, version := addr.where(), ""
	if addr.row.API == provider.APIOllama {
		version = ollamaVersion(ctx, addr.url)
	}
	if version != "" {
		where = addr.row.Display + " " + version + strings.TrimPrefix(where, addr.row.Display)
	}
	detail := fmt.Sprintf("%s answers, %d model(s)", where, len(d.listed))
	switch {
	case version != "":
	case addr.row.API == provider.APIOllama:
		detail += "; its version is not known"
	default:
		detail += "; its version is not known (the OpenAI-compatible API does not say)"
	}
	d.add(Check{Name: "engine", Status: StatusOK, Model: true, Detail: detail})
	return true
}

// ollamaVersion asks Ollama for its version; "" when it does not say.
func ollamaVersion(ctx context.Context, base string) string {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	p, err := ollama.New(base, nil)
	if err != nil {
		return ""
	}
	v, _ := p.Version(ctx)
	return v
}

// checkModel: is the model there (else what was meant), what can it do,
// and how its trained context compares with the window mcphost asks for.
func (d *doctor) checkModel(ctx context.Context) bool {
	if d.model == "" {
		d.noModel()
		return false
	}
	ref := d.s.Model
	c := probeSettings(d.s, ref)
	c.Pull = d.s.Pull
	h, err := host.New(ctx, d.hostOptions(c))
	if err != nil {
		d.modelError(ref, err)
		return false
	}
	defer h.Close()
	conv := h.Conversation()
	d.info, d.window, d.temperature = conv.Model(), conv.ContextWindow(), conv.Generation().Temperature
	detail := fmt.Sprintf("%s is there", ref)
	if d.info.Size > 0 {
		detail += fmt.Sprintf(" (%.1f GB)", float64(d.info.Size)/1e9)
	}
	d.add(Check{Name: "model", Status: StatusOK, Model: true, Detail: detail})
	d.checkCapabilities()
	d.checkContext()
	return true
}

// modelError reports a model the engine could not give.
func (d *doctor) modelError(ref string, err error) {
	if !errors.Is(err, host.ErrModelNotFound) {
		d.add(Check{Name: "model", Status: StatusFail, Model: true, Detail: oneLine(err)})
		return
	}
	var names []string
	for _, m := range d.listed {
		names = append(names, m.Name)
	}
	detail := fmt.Sprintf("%s does not have %s", d.engineDisplay(), d.model)
	near := spell.Nearest(names, 3, func(name string) (int, bool) {
		dist := spell.Distance(strings.ToLower(d.model), strings.ToLower(name))
		base, _, _ := strings.Cut(name, ":")
		if bd := spell.Distance(strings.ToLower(d.model), strings.ToLower(base)); bd < dist {
			dist = bd
		}
		return dist, dist <= max(2, len(d.model)/3) || strings.HasPrefix(strings.ToLower(name), strings.ToLower(d.model))
	})
	var fixes []string
	if len(near) > 0 {
		refs := make([]string, len(near))
		for i, n := range near {
			refs[i] = d.engine + ":" + n
		}
		detail += "; did you mean " + orList(refs) + "?"
		fixes = append(fixes, "mcphost doctor -m "+refs[0])
	} else if len(names) > 0 {
		detail += "; it has " + listSome(names, 8)
	}
	if addressOf(d.s, d.engine).row.API == provider.APIOllama {
		fixes = append(fixes, fmt.Sprintf("download it: mcphost doctor -m %s --pull (or ollama pull %s)", ref, d.model))
	}
	d.add(Check{Name: "model", Status: StatusFail, Model: true, Detail: detail, Fix: strings.Join(fixes, "; or ")})
}

// noModel is the model check without a model: the engine's models, and
// how to check one.
func (d *doctor) noModel() {
	var names []string
	for _, m := range d.listed {
		if m.Has(provider.CapabilityTools) {
			names = append(names, m.Name)
		}
	}
	if len(names) == 0 {
		for _, m := range d.listed {
			names = append(names, m.Name)
		}
	}
	if len(names) == 0 {
		d.add(Check{Name: "model", Status: StatusUnknown, Detail: fmt.Sprintf("no model given, and %s has none", d.engineDisplay()),
			Fix: "download one (ollama pull qwen3:8b) and run mcphost doctor -m ollama:qwen3:8b"})
		return
	}
	d.add(Check{Name: "model", Status: StatusUnknown, Detail: fmt.Sprintf("no model given (-m or model in a config file); %s has %s", d.engineDisplay(), listSome(names, 12)),
		Fix: fmt.Sprintf("check one: mcphost doctor -m %s:%s", d.engine, names[0])})
}

// engineDisplay names the engine in a sentence.
func (d *doctor) engineDisplay() string {
	row := addressOf(d.s, d.engine).row
	if row.Display == "" {
		return d.engine
	}
	return row.Display
}

// checkCapabilities reports what the model can do, as the engine says.
func (d *doctor) checkCapabilities() {
	if d.info.CapabilitiesAssumed {
		d.add(Check{Name: "capabilities", Status: StatusUnknown, Model: true,
			Detail: "not known: " + d.engineDisplay() + " does not say what the model can do; tools are assumed, and the probe below tells"})
		return
	}
	var parts []string
	for _, c := range []string{provider.CapabilityTools, provider.CapabilityVision, provider.CapabilityThinking} {
		parts = append(parts, c+": "+yesNo(d.info.Has(c)))
	}
	detail := strings.Join(parts, ", ")
	if !d.info.Has(provider.CapabilityTools) {
		d.add(Check{Name: "capabilities", Status: StatusFail, Model: true, Detail: detail + ": the model cannot be given tools, so it never calls one",
			Fix: "pick a model with tools (mcphost models shows which have them), e.g. qwen3 or llama3.1"})
		return
	}
	d.add(Check{Name: "capabilities", Status: StatusOK, Model: true, Detail: detail})
}

// checkContext compares the trained context with the window asked for.
func (d *doctor) checkContext() {
	trained, window := d.info.ContextLength, d.window
	switch {
	case trained == 0 && window == 0:
		d.add(Check{Name: "context", Status: StatusUnknown, Model: true, Detail: "not known: the engine does not say the model's context length, and the window is left to it (--num-ctx sets one)"})
	case trained == 0:
		d.add(Check{Name: "context", Status: StatusUnknown, Model: true, Detail: fmt.Sprintf("trained context not known; mcphost asks for %d tokens", window)})
	case d.info.FixedContext:
		d.add(Check{Name: "context", Status: StatusOK, Model: true, Detail: fmt.Sprintf("the engine serves the model with a window of %d tokens, which mcphost uses", trained)})
	case window == 0:
		d.add(Check{Name: "context", Status: StatusOK, Model: true, Detail: fmt.Sprintf("trained on %d tokens; the window is left to the engine", trained)})
	default:
		how := "--num-ctx"
		if window == trained {
			how = "its trained length"
		}
		d.add(Check{Name: "context", Status: StatusOK, Model: true, Detail: fmt.Sprintf("trained on %d tokens; mcphost asks for %d (%s)", trained, window, how)})
	}
}

// yesNo is a capability as the report says it.
func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// orList joins names as "a, b or c".
func orList(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// listSome lists up to n names, then how many more.
func listSome(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
}

// oneLine is an error's text on one line.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}
