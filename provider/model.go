package provider

import (
	"errors"
	"strings"
)

// KnownEngines lists the engine names every model reference may start
// with, in the order help texts show them: the names of Engines.
func KnownEngines() []string { return EngineNames("") }

// defaultProvider serves references that name no provider.
const defaultProvider = EngineOllama

// errNoModel is worded for the user because the caller shows it as is.
var errNoModel = errors.New("no model given: pass -m ollama:MODEL, e.g. -m ollama:qwen3:8b")

// ParseModel splits a model reference such as "ollama:qwen3:8b" or
// "llamacpp:qwen3" into the engine's name and the model name the engine
// understands. It knows the engines of Engines; ParseModelWith also
// knows engines named in config files.
func ParseModel(ref string) (engine, model string, err error) {
	return ParseModelWith(ref, nil)
}

// ParseModelWith is ParseModel for a configuration that names more
// engines (a config file's "providers:"), matched without regard to case.
//
// "ENGINE:MODEL" names the engine; an engine whose row says Slash (Ollama)
// also takes "ollama/NAME[:TAG]". The prefix is split off only when it
// names an engine, so a bare name ("qwen3:8b", "user/model:tag",
// "hf.co/x/y:Q4", "host:5000/model:tag") is an Ollama model, whole. The
// model name keeps whatever follows the first colon
// ("vllm:Qwen/Qwen3-8B", "openai:gpt-4o").
func ParseModelWith(ref string, engines []string) (engine, model string, err error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return "", "", errNoModel
	}
	rows := Engines()
	names := make([]string, 0, len(rows)+len(engines))
	for _, e := range rows {
		names = append(names, e.Name)
	}
	names = append(names, engines...)
	for _, name := range names {
		if name == "" {
			continue
		}
		// A reference that is only an engine's name is a forgotten model,
		// not a model called "ollama".
		if strings.EqualFold(ref, name) {
			return "", "", errNoModel
		}
		if len(ref) <= len(name) || !strings.EqualFold(ref[:len(name)], name) {
			continue
		}
		sep := ref[len(name)]
		if sep != ':' && (sep != '/' || !takesSlash(name)) {
			continue
		}
		model = strings.TrimSpace(ref[len(name)+1:])
		if model == "" {
			return "", "", errNoModel
		}
		return canonical(name, engines), model, nil
	}
	return defaultProvider, ref, nil
}

// takesSlash reports whether "NAME/MODEL" names the engine called name.
func takesSlash(name string) bool {
	e, ok := LookupEngine(name)
	return ok && e.Slash && strings.EqualFold(name, e.Name)
}

// canonical is name as the configuration spells it: known engines in
// lower case, configured ones as their config writes them.
func canonical(name string, engines []string) string {
	for _, k := range KnownEngines() {
		if strings.EqualFold(name, k) {
			return k
		}
	}
	for _, e := range engines {
		if strings.EqualFold(name, e) {
			return e
		}
	}
	return name
}
