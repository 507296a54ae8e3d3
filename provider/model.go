package provider

import (
	"errors"
	"strings"
)

// knownProviders are the names a model reference may start with. A prefix
// that is not one of them is part of the model name (Ollama names may hold
// ':' and '/' themselves, e.g. "user/model:tag" or "hf.co/x/y:Q4").
var knownProviders = [...]string{"ollama"}

// defaultProvider serves references that name no provider.
const defaultProvider = "ollama"

// errNoModel is worded for the user because the caller shows it as is.
var errNoModel = errors.New("no model given: pass -m ollama:MODEL, e.g. -m ollama:qwen3:8b")

// ParseModel splits a model reference such as "ollama:qwen3:8b" into the
// provider name and the model name the provider understands.
//
// "ollama:NAME[:TAG]" and "ollama/NAME[:TAG]" name the provider; the prefix is
// split off only when it is a known provider, so a bare name ("qwen3:8b",
// "user/model:tag", "hf.co/x/y:Q4") is an Ollama model, whole.
func ParseModel(ref string) (providerName, model string, err error) {
	ref = strings.TrimSpace(ref)
	for _, name := range knownProviders {
		// A reference that is only a provider name is a forgotten model,
		// not a model called "ollama".
		if strings.EqualFold(ref, name) {
			return "", "", errNoModel
		}
		if len(ref) > len(name) && strings.EqualFold(ref[:len(name)], name) && (ref[len(name)] == ':' || ref[len(name)] == '/') {
			model = strings.TrimSpace(ref[len(name)+1:])
			if model == "" {
				return "", "", errNoModel
			}
			return name, model, nil
		}
	}
	if ref == "" {
		return "", "", errNoModel
	}
	return defaultProvider, ref, nil
}
