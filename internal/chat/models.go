package chat

// /model without a name: the engines' models, the current one marked; Tab
// completion of their names; the closest names for one that is not there.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/spell"
	"github.com/mcphost/mcphost/internal/termtext"
	"github.com/mcphost/mcphost/internal/ui"
	"github.com/mcphost/mcphost/provider"
)

// modelLister lists the models of the engines mcphost knows; *host.Host
// implements it.
type modelLister interface {
	Models(ctx context.Context) ([]host.ModelEntry, []host.EngineStatus, error)
}

// listWait bounds the listing /model asks of the engines: one that does
// not answer by then is left out rather than holding the prompt.
const listWait = 5 * time.Second

// fetchModels asks the engines for their models and keeps the list for
// Tab.
func (c *Chat) fetchModels(ctx context.Context, wait time.Duration) ([]host.ModelEntry, []host.EngineStatus, error) {
	l, ok := c.opts.Host.(modelLister)
	if !ok {
		return nil, nil, errors.New("this chat cannot list models")
	}
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	models, statuses, err := l.Models(ctx)
	if err == nil {
		c.models = models
	}
	return models, statuses, err
}

// modelRef is the name /model takes for m: the bare name for Ollama's
// models, which a bare name means, ENGINE:NAME for the others.
func modelRef(m host.ModelEntry) string {
	if m.Engine == provider.EngineOllama {
		return m.Name
	}
	return m.Engine + ":" + m.Name
}

// withTag gives a name without a tag Ollama's default one, so that "qwen3"
// and "qwen3:latest" compare equal.
func withTag(name string) string {
	if strings.Contains(name[strings.LastIndexByte(name, '/')+1:], ":") {
		return name
	}
	return name + ":latest"
}

// isCurrent reports whether m is the conversation's model.
func (c *Chat) isCurrent(m host.ModelEntry) bool {
	conv := c.opts.Conversation
	return strings.EqualFold(m.Engine, conv.Engine()) && strings.EqualFold(withTag(m.Name), withTag(conv.Model().Name))
}

// listModels is /model without a name: the current model, its generation
// parameters, and the models it can switch to.
func (c *Chat) listModels(ctx context.Context, w io.Writer) bool {
	conv := c.opts.Conversation
	if !conv.HasModel() {
		fmt.Fprintln(w, "No model is chosen yet.")
	} else {
		m := conv.Model()
		fmt.Fprintf(w, "model: %s (capabilities: %s)\n", m.Name, strings.Join(m.Capabilities, ", "))
		fmt.Fprintf(w, "generation: %s\n", ui.GenerationLine(conv.Generation()))
	}
	fmt.Fprintln(w)
	c.modelChoices(ctx, w, listWait)
	return false
}

// modelChoices lists the engines' models to choose from, and says how to
// choose; wait bounds the listing.
func (c *Chat) modelChoices(ctx context.Context, w io.Writer, wait time.Duration) {
	models, statuses, err := c.fetchModels(ctx, wait)
	if err != nil {
		fmt.Fprintf(w, "The engines' models cannot be listed: %s\n", ui.Sanitize(c.opts.Mask(err.Error())))
		return
	}
	if len(models) == 0 {
		var asked []string
		for _, s := range statuses {
			asked = append(asked, s.Name)
		}
		fmt.Fprintf(w, "No engine listed any model (asked: %s). Start one (ollama serve) or get a model (ollama pull qwen3), then /model NAME.\n", strings.Join(asked, ", "))
	} else {
		ui.ModelChoices(w, models, modelRef, c.isCurrent)
	}
	for _, s := range statuses {
		// Engines that are not running are the usual case, not news.
		if s.Err != nil && !errors.Is(s.Err, provider.ErrUnreachable) {
			fmt.Fprintf(w, "%s: %s\n", s.Name, ui.Sanitize(c.opts.Mask(s.Err.Error())))
		}
	}
	if len(models) > 0 {
		verb := "switches to"
		if !c.opts.Conversation.HasModel() {
			verb = "chooses"
		}
		fmt.Fprintf(w, "/model NAME %s one (Tab completes the names).\n", verb)
	}
}

// noModel says, where a model is needed, that none is chosen yet and how
// to choose one.
func (c *Chat) noModel(w io.Writer, what string) {
	fmt.Fprintf(w, "No model is chosen yet, so %s: choose one with /model NAME (Tab completes the names; /model lists them).\n", what)
}

// stillUsing says what the chat goes on with after a switch that failed.
func (c *Chat) stillUsing() string {
	if !c.opts.Conversation.HasModel() {
		return "the chat still has no model (/model lists the models)"
	}
	return "the chat is still using " + termtext.Line(c.opts.Conversation.Model().Name)
}

// offerModels follows the header of a chat opened without a model: the
// engines' models to choose from, so that the first thing typed is not a
// dead end. The listing is brief: engines that are not running refuse at
// once, and one that hangs is left out after completeWait.
func (c *Chat) offerModels(ctx context.Context, w io.Writer) {
	fmt.Fprintln(w, "No model is chosen yet: choose one of these with /model NAME, or start with -m NAME (or model: NAME in a config file).")
	c.modelChoices(ctx, w, completeWait)
	// A --session file names the model its conversation was had with.
	if held := c.opts.Session; held != nil {
		if f, err := held.Load(); err == nil && f.Model != "" {
			fmt.Fprintf(w, "%s was saved with %s: /model %s goes on with it.\n", held.Path(), termtext.Line(f.Model), termtext.Line(f.Model))
		}
	}
}

// modelNames are the names Tab completes after /model, fetched on the
// first Tab when /model has not listed them yet.
func (c *Chat) modelNames() []string {
	if c.models == nil {
		c.fetchModels(context.Background(), completeWait)
	}
	names := make([]string, len(c.models))
	for i, m := range c.models {
		names[i] = modelRef(m)
	}
	return names
}

// suggestModels prints the installed models nearest to a name that is not
// there, if any is near.
func (c *Chat) suggestModels(ctx context.Context, w io.Writer, name string) {
	models, _, err := c.fetchModels(ctx, listWait)
	if err != nil {
		return
	}
	refs := make([]string, len(models))
	for i, m := range models {
		refs[i] = modelRef(m)
	}
	if near := closestNames(name, refs, 3); len(near) > 0 {
		fmt.Fprintf(w, "did you mean %s? (/model lists them all)\n", strings.Join(near, ", "))
	}
}

// closestNames returns up to n of names near name, nearest first: within
// a third of its length in edits (at least 2), ignoring case and the
// default ":latest" tag; a name one starts the other counts as near.
func closestNames(name string, names []string, n int) []string {
	target := strings.ToLower(strings.TrimSuffix(name, ":latest"))
	limit := max(2, len(target)/3)
	return spell.Nearest(names, n, func(cand string) (int, bool) {
		c := strings.ToLower(strings.TrimSuffix(cand, ":latest"))
		d := spell.Distance(target, c)
		if strings.HasPrefix(c, target) || strings.HasPrefix(target, c) {
			d = min(d, 1)
		}
		return d, d <= limit
	})
}
