package configload

import (
	"fmt"
	"strings"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/provider"
)

// The settings of model engines other than Ollama, and the config files'
// "providers" section.
const (
	// keyProviderURL is the base URL of an OpenAI-compatible server, for
	// openai:MODEL and the presets (llamacpp:, lmstudio:, vllm:).
	keyProviderURL = "provider-url"
	// keyProviderAPIKey is the key sent to that server.
	keyProviderAPIKey = "provider-api-key"
	// keyPull pulls a missing Ollama model before a one-shot run.
	keyPull = "pull"
	// keyProviders names engines in a config file.
	keyProviders = "providers"
)

// engineType reads a "type" as users write it: a name or alias of the
// engine table, or nothing for a plain OpenAI-compatible server.
func engineType(s string) (string, bool) {
	if strings.TrimSpace(s) == "" {
		return provider.EngineOpenAI, true
	}
	e, ok := provider.LookupEngine(s)
	return e.Name, ok
}

// providers merges the "providers" sections of files by name, later files
// winning, and checks them.
func (o *LoadOptions) providers(files []*configFile) ([]config.Engine, error) {
	type owned struct {
		name string
		raw  any
		file *configFile
	}
	// Names are matched without regard to case, as in -m NAME:MODEL.
	merged := map[string]owned{}
	for _, f := range files {
		if f.providers == nil {
			continue
		}
		m, ok := asMap(f.providers)
		if !ok {
			return nil, o.fail(f.path, keyProviders, nil, `"providers" must be an object with one entry per engine name, e.g. providers: {gpu-box: {type: vllm, url: "http://10.0.0.5:8000/v1"}}`)
		}
		for _, name := range sortedKeys(m) {
			merged[strings.ToLower(name)] = owned{name, m[name], f}
		}
	}
	var engines []config.Engine
	for _, key := range sortedKeys(merged) {
		e, err := o.engine(merged[key].file, merged[key].name, merged[key].raw)
		if err != nil {
			return nil, err
		}
		engines = append(engines, e)
	}
	return engines, nil
}

// engine checks one "providers" entry.
func (o *LoadOptions) engine(f *configFile, name string, raw any) (config.Engine, error) {
	field := keyProviders + "." + name
	bad := func(format string, args ...any) (config.Engine, error) {
		return config.Engine{}, o.fail(f.path, field, nil, "provider %q: "+format, append([]any{name}, args...)...)
	}
	switch {
	case strings.TrimSpace(name) == "":
		return bad(`has an empty name: give it a short name such as "gpu-box"`)
	case strings.ContainsAny(name, ":/ "):
		return bad(`the name must not contain ":", "/" or spaces, since -m NAME:MODEL names it`)
	case strings.EqualFold(name, provider.EngineOllama):
		return bad(`"ollama" is the default Ollama: set its address with ollama-host, or give this engine another name with type: ollama`)
	}
	m, ok := asMap(raw)
	if !ok {
		return bad(`must be an object with "url" (and "type", "api-key", "headers")`)
	}
	e := config.Engine{Name: name, Source: f.path, Project: f.project}
	ent := entry{m: m}
	for _, k := range sortedKeys(m) {
		switch normKey(k) {
		case "type", "url", "apikey", "headers":
		default:
			return bad(`has an unknown key %q: use "type", "url", "api-key" or "headers"`, k)
		}
	}
	preset := ""
	if t, ok := engineType(name); ok && !strings.EqualFold(name, provider.EngineOpenAI) {
		preset = t
	}
	typ, _ := ent.get("type")
	ts, _ := scalarString(typ)
	if ts == "" && preset != "" {
		ts = preset
	}
	if e.Type, ok = engineType(ts); !ok {
		// The OpenAI-compatible types first: openai is the default.
		types := append(provider.EngineNames(provider.APIOpenAI), provider.EngineNames(provider.APIOllama)...)
		return bad(`"type" %q is not one of %s`, ts, strings.Join(types, ", "))
	}
	lookup := o.engineLookup(f)
	expandField := func(what, s string) (string, error) {
		out, problem := expand(s, lookup)
		if problem != nil {
			return "", o.fail(f.path, field, nil, "provider %q: %s", name, problem.message(what))
		}
		return out, nil
	}
	v, _ := ent.get("url")
	s, isString := v.(string)
	if v == nil || !isString || strings.TrimSpace(s) == "" {
		return bad(`"url" is missing: give the engine's address, e.g. "url": "http://127.0.0.1:8080/v1"`)
	}
	var err error
	if e.URL, err = expandField(`"url"`, s); err != nil {
		return config.Engine{}, err
	}
	if !config.IsHTTPURL(strings.TrimSpace(e.URL)) {
		return bad(`"url" must be an http:// or https:// address such as http://127.0.0.1:8080/v1`)
	}
	if v, ok := ent.get("api-key"); ok && v != nil {
		key, isString := v.(string)
		if !isString {
			return bad(`"api-key" must be a string, such as "${OPENAI_API_KEY}"`)
		}
		if e.APIKey, err = expandField(`"api-key"`, key); err != nil {
			return config.Engine{}, err
		}
	}
	// The servers' header parser reads both forms (an object, or a list of
	// "Name: value"); its errors name the entry as a provider.
	p := serverParser{source: f.path, homeDir: o.HomeDir, workDir: o.WorkDir, projectDir: f.projectDir, env: o.Env}
	var spec config.ServerSpec
	spec.Name = name
	if err := p.headers(&spec, ent, &expander{p: &p, name: name}); err != nil {
		if ce, ok := err.(*config.Error); ok {
			ce.Server, ce.Field = "", field
			ce.Message = fmt.Sprintf("provider %q: %s", name, ce.Message)
		}
		return config.Engine{}, err
	}
	e.Headers = spec.Headers
	return e, nil
}

// engineLookup resolves ${VAR} in a providers entry as in mcpServers:
// ${PROJECT_DIR}, ${HOME}, then the environment.
func (o *LoadOptions) engineLookup(f *configFile) func(string) (string, bool) {
	return func(name string) (string, bool) {
		switch name {
		case "PROJECT_DIR":
			return f.projectDir, true
		case "HOME":
			if o.HomeDir != "" {
				return o.HomeDir, true
			}
		}
		return o.Env(name)
	}
}
