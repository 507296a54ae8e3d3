package host

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/provider/ollama"
	"github.com/mcphost/mcphost/provider/openai"
)

// engines builds and keeps the Host's model backends, one per engine name,
// so that a conversation can switch to a model of another engine
// ("/model llamacpp:qwen3") and back.
type engines struct {
	settings *config.Settings
	// fixed, when set, serves every model reference (Options.Provider).
	fixed provider.Provider
	// logRetry sets each new backend's retry policy: the command's (with
	// logs), or a single try for listings that must not wait.
	logRetry func(b provider.Provider)
	warn     func(string)
	// client makes every backend's requests: the Host's, closed with it.
	client *http.Client

	mu     sync.Mutex
	byName map[string]provider.Provider
}

// names are the engine names configured beyond the known ones.
func (e *engines) names() []string {
	var names []string
	for _, p := range e.settings.Providers {
		names = append(names, p.Name)
	}
	return names
}

// parse splits a model reference into its engine's name and the model.
func (e *engines) parse(ref string) (engine, model string, err error) {
	if e.fixed != nil {
		// The one provider serves every reference; its prefix, if any, is
		// dropped, and a reference that does not parse is a name too.
		if _, model, err := provider.ParseModelWith(ref, e.names()); err == nil {
			return e.fixed.Name(), model, nil
		}
		return e.fixed.Name(), strings.TrimSpace(ref), nil
	}
	return provider.ParseModelWith(ref, e.names())
}

// get returns the backend of an engine, building it on first use.
func (e *engines) get(name string) (provider.Provider, error) {
	if e.fixed != nil {
		return e.fixed, nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if b, ok := e.byName[name]; ok {
		return b, nil
	}
	b, err := e.build(name)
	if err != nil {
		return nil, err
	}
	if e.logRetry != nil {
		e.logRetry(b)
	}
	if e.byName == nil {
		e.byName = map[string]provider.Provider{}
	}
	e.byName[name] = b
	return b, nil
}

// build makes the backend an engine name stands for: an engine a config
// file names, or a row of provider.Engines: Ollama (at --ollama-host) or an
// OpenAI-compatible one at its usual address, which --provider-url moves.
func (e *engines) build(name string) (provider.Provider, error) {
	s := e.settings
	if i := slices.IndexFunc(s.Providers, func(p config.Engine) bool { return strings.EqualFold(p.Name, name) }); i >= 0 {
		p := s.Providers[i]
		if builtin, ok := provider.LookupEngine(p.Name); ok && p.Project && strings.EqualFold(builtin.Name, p.Name) && e.warn != nil {
			// A cloned folder's config must not silently send what -m
			// NAME:MODEL meant for the built-in engine elsewhere.
			e.warn(fmt.Sprintf("the project config file %s redirects the built-in engine %s: to %s (instead of %s): your prompts, tool results and its API key go there; if that is not meant, stop trusting the file with mcphost trust --revoke",
				p.Source, builtin.Name, p.URL, builtin.URL))
		}
		row, _ := provider.LookupEngine(p.Type)
		if row.API == provider.APIOllama {
			b, err := ollama.New(p.URL, e.client)
			if err != nil {
				return nil, configError(fmt.Errorf("provider %q in %s: %w", p.Name, p.Source, err))
			}
			b.SetSource(fmt.Sprintf("providers.%s.url in %s", p.Name, p.Source))
			return named{b, p.Name}, nil
		}
		b, err := openai.New(openai.Options{
			Name: p.Name, Kind: openai.Kind(row.Name), URL: p.URL, APIKey: p.APIKey, Headers: p.Headers,
			KeySource: fmt.Sprintf("providers.%s.api-key in %s", p.Name, p.Source), Warn: e.warn, HTTPClient: e.client,
		})
		if err != nil {
			return nil, configError(fmt.Errorf("provider %q in %s: %w", p.Name, p.Source, err))
		}
		return b, nil
	}
	row, ok := provider.LookupEngine(name)
	if !ok || row.Name != name {
		return nil, configError(fmt.Errorf("unknown engine %q: use one of %s, or name it under \"providers\" in a config file", name, strings.Join(provider.EngineNames(""), ", ")))
	}
	if row.API == provider.APIOllama {
		if s.OllamaHostProject != "" && e.warn != nil {
			e.warn(fmt.Sprintf("the project config file %s redirects the built-in engine %s: to %s (its ollama-host, instead of %s): your prompts and tool results go there; if that is not meant, stop trusting the file with mcphost trust --revoke",
				s.OllamaHostProject, name, s.OllamaHost, row.URL))
		}
		b, err := ollama.New(s.OllamaHost, e.client)
		if err != nil {
			return nil, configError(err)
		}
		b.SetSource(s.OllamaHostSource)
		return b, nil
	}
	url := row.URL
	if s.ProviderURL != "" {
		url = s.ProviderURL
		if s.ProviderURLProject != "" && e.warn != nil {
			e.warn(fmt.Sprintf("the project config file %s redirects the built-in engine %s: to %s (its provider-url, instead of %s): your prompts, tool results and its API key go there; if that is not meant, stop trusting the file with mcphost trust --revoke",
				s.ProviderURLProject, name, url, row.URL))
		}
	}
	key, source := s.ProviderAPIKey, s.ProviderKeySource
	if source == "OPENAI_API_KEY" && name != provider.EngineOpenAI {
		// OpenAI's key is for OpenAI (and servers named with openai:),
		// not for every local engine.
		key, source = "", ""
	}
	b, err := openai.New(openai.Options{Name: name, Kind: openai.Kind(row.Name), URL: url, APIKey: key, KeySource: source, Warn: e.warn, HTTPClient: e.client})
	if err != nil {
		return nil, configError(err)
	}
	return b, nil
}

// named is a backend under a configured name (an Ollama the config's
// providers name): references to it start with that name.
type named struct {
	*ollama.Provider
	name string
}

func (n named) Name() string { return n.name }

// resolve finds the backend of a model reference and asks it about the
// model.
func (e *engines) resolve(ctx context.Context, ref string) (provider.Provider, provider.ModelInfo, error) {
	engine, model, err := e.parse(ref)
	if err != nil {
		return nil, provider.ModelInfo{}, configError(err)
	}
	b, err := e.get(engine)
	if err != nil {
		return nil, provider.ModelInfo{}, err
	}
	info, err := b.Show(ctx, model)
	if err != nil {
		return b, info, err
	}
	info.Name = model
	return b, info, nil
}

// ModelEntry is one model an engine serves, as "mcphost models" lists it.
type ModelEntry struct {
	// Engine is the name model references use ("ollama", "llamacpp", a
	// configured name); the reference is Engine + ":" + Name.
	Engine string
	provider.ModelInfo
}

// EngineStatus says whether an engine answered a listing.
type EngineStatus struct {
	Name string
	// Err is why the engine could not list its models (not running, a
	// refused key); nil when it answered.
	Err error
	// Models is how many models it listed.
	Models int
}

// listed are the engines "mcphost models" asks: the rows of the engine
// table (those asked on request, OpenAI's, only when --provider-url is set,
// and after the others), and every configured one.
func (e *engines) listed() []string {
	var names, onRequest []string
	for _, row := range provider.Engines() {
		switch {
		case !row.OnRequest:
			names = append(names, row.Name)
		case e.settings.ProviderURL != "":
			onRequest = append(onRequest, row.Name)
		}
	}
	names = append(names, onRequest...)
	for _, p := range e.settings.Providers {
		if i := slices.IndexFunc(names, func(n string) bool { return strings.EqualFold(n, p.Name) }); i >= 0 {
			names[i] = p.Name // a configured entry moves a preset
			continue
		}
		names = append(names, p.Name)
	}
	return names
}

// Models lists the models of every engine mcphost knows (the rows of
// [provider.Engines]: Ollama and the local presets, OpenAI's when
// --provider-url is set; and the engines config files name), asking them
// all at once, each once, without retries: an engine that is not running
// is reported in the statuses, not waited for. Models are sorted by
// engine, then name. After [Host.Close] it returns [ErrClosed].
func (h *Host) Models(ctx context.Context) ([]ModelEntry, []EngineStatus, error) {
	type listing struct {
		models   []ModelEntry
		statuses []EngineStatus
	}
	l, err := guard(h, ctx, func(ctx context.Context) (listing, error) {
		models, statuses, err := h.models(ctx)
		return listing{models, statuses}, err
	})
	return l.models, l.statuses, err
}

// models does the work of Models.
func (h *Host) models(ctx context.Context) ([]ModelEntry, []EngineStatus, error) {
	if h.opts.Provider != nil {
		lister, ok := h.opts.Provider.(provider.Lister)
		if !ok {
			return nil, nil, fmt.Errorf("%w: the engine %q cannot list its models", ErrProvider, h.opts.Provider.Name())
		}
		models, err := lister.ListModels(ctx)
		out := make([]ModelEntry, len(models))
		for i, m := range models {
			out[i] = ModelEntry{Engine: h.opts.Provider.Name(), ModelInfo: m}
		}
		return out, []EngineStatus{{Name: h.opts.Provider.Name(), Err: hostError(err), Models: len(out)}}, nil
	}
	once := &engines{settings: h.settings, warn: h.warn, client: h.client, logRetry: func(b provider.Provider) { setRetry(b, 1, h) }}
	names := once.listed()
	lists := make([][]provider.ModelInfo, len(names))
	statuses := make([]EngineStatus, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		statuses[i].Name = name
		wg.Go(func() {
			b, err := once.get(name)
			if err == nil {
				lister, ok := b.(provider.Lister)
				if !ok {
					err = fmt.Errorf("%s cannot list its models", name)
				} else {
					lists[i], err = lister.ListModels(ctx)
				}
			}
			statuses[i].Err, statuses[i].Models = hostError(err), len(lists[i])
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	var out []ModelEntry
	for i, list := range lists {
		for _, m := range list {
			out = append(out, ModelEntry{Engine: names[i], ModelInfo: m})
		}
	}
	return out, statuses, nil
}

// setRetry gives a backend the command's retry policy (attempts 0) or
// tries it once (attempts 1).
func setRetry(b provider.Provider, attempts int, h *Host) {
	if n, ok := b.(named); ok {
		b = n.Provider
	}
	if p, ok := b.(interface{ SetRetry(provider.Retry) }); ok {
		r := provider.LoggedRetry(h.logger)
		if attempts > 0 {
			r.Attempts = attempts
		}
		p.SetRetry(r)
	}
}

// Pull downloads a model its engine does not have yet (Ollama's pull),
// calling progress as it goes; ref is a model reference as -m takes it.
// An engine that cannot pull is an error saying so. After [Host.Close]
// it returns [ErrClosed], and Close stops a pull under way.
func (h *Host) Pull(ctx context.Context, ref string, progress func(provider.PullProgress)) error {
	return h.serverWork(ctx, func(ctx context.Context) error { return h.pull(ctx, ref, progress) })
}

// pull does the work of Pull.
func (h *Host) pull(ctx context.Context, ref string, progress func(provider.PullProgress)) error {
	engine, model, err := h.engines.parse(ref)
	if err != nil {
		return configError(err)
	}
	b, err := h.engines.get(engine)
	if err != nil {
		return hostError(err)
	}
	puller, ok := b.(provider.Puller)
	if !ok {
		return hostError(&provider.Error{Kind: provider.ErrProvider, Err: errors.ErrUnsupported,
			Message: fmt.Sprintf("%s cannot pull models: download %s with the engine's own tools", engine, model)})
	}
	return hostError(puller.Pull(ctx, model, progress))
}

// CanPull reports whether the engine of a model reference can pull it
// (Ollama can).
func (h *Host) CanPull(ref string) bool {
	engine, _, err := h.engines.parse(ref)
	if err != nil {
		return false
	}
	b, err := h.engines.get(engine)
	if err != nil {
		return false
	}
	_, ok := b.(provider.Puller)
	return ok
}
