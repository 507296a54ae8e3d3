package provider

import (
	"errors"
	"strings"
)

// The engines a model reference may name without any configuration:
// Ollama, any OpenAI-compatible server (--provider-url), and presets for
// the local engines people run, each at its usual address.
const (
	EngineOllama   = "ollama"
	EngineOpenAI   = "openai"
	EngineLlamaCpp = "llamacpp"
	EngineLMStudio = "lmstudio"
	EngineVLLM     = "vllm"
)

// KnownEngines lists the engine names every model reference may start
// with, in the order help texts show them.
func KnownEngines() []string {
	return []string{EngineOllama, EngineOpenAI, EngineLlamaCpp, EngineLMStudio, EngineVLLM}
}

// defaultProvider serves references that name no provider.
const defaultProvider = EngineOllama

// errNoModel is worded for the user because the caller shows it as is.
var errNoModel = errors.New("no model given: pass -m ollama:MODEL, e.g. -m ollama:qwen3:8b")

// ParseModel splits a model reference such as "ollama:qwen3:8b" or
// "llamacpp:qwen3" into the engine's name and the model name the engine
// understands. It knows the engines of KnownEngines; ParseModelWith also
// knows engines named in config files.
func ParseModel(ref string) (engine, model string, err error) {
	return ParseModelWith(ref, nil)
}

// ParseModelWith is ParseModel for a configuration that names more
// engines (a config file's "providers:"), matched without regard to case.
//
// "ENGINE:MODEL" names the engine; Ollama also takes "ollama/NAME[:TAG]".
// The prefix is split off only when it names an engine, so a bare name
// ("qwen3:8b", "user/model:tag", "hf.co/x/y:Q4") is an Ollama model,
// whole. The model name keeps whatever follows the first colon
// ("vllm:Qwen/Qwen3-8B", "openai:gpt-4o").
func ParseModelWith(ref string, engines []string) (engine, model string, err error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return "", "", errNoModel
	}
	names := append(KnownEngines(), engines...)
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
		if sep != ':' && !(sep == '/' && strings.EqualFold(name, EngineOllama)) {
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
