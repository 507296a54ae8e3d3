package provider

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mcphost/mcphost/internal/spell"
)

// defaultProvider serves references that name no provider.
const defaultProvider = EngineOllama

// errNoModel is worded for the user because the caller shows it as is.
var errNoModel = errors.New("no model given: pass -m ollama:MODEL, e.g. -m ollama:qwen3:8b")

// ErrUnknownEngine is matched by the error of a model reference whose
// prefix names no engine but is a slip away from one ("olama:qwen3:8b").
// It is a configuration error, not a model name: ParseModelWith's doc says
// when a prefix counts as one.
var ErrUnknownEngine = errors.New("unknown engine")

// ParseModel splits a model reference such as "ollama:qwen3:8b" or
// "llamacpp:qwen3" into the engine's name and the model name the engine
// understands. It knows the engines of [Engines]; [ParseModelWith] also
// knows engines named in config files.
func ParseModel(ref string) (engine, model string, err error) {
	return ParseModelWith(ref, nil)
}

// ParseModelWith is [ParseModel] for a configuration that names more
// engines (a config file's "providers:"), matched without regard to case.
//
// "ENGINE:MODEL" names the engine; an engine whose row says Slash (Ollama)
// also takes "ollama/NAME[:TAG]". The prefix is split off only when it
// names an engine, so a bare name ("qwen3:8b", "user/model:tag",
// "hf.co/x/y:Q4", "host:5000/model:tag") is an Ollama model, whole. The
// model name keeps whatever follows the first colon
// ("vllm:Qwen/Qwen3-8B", "openai:gpt-4o").
//
// A prefix that names no engine but is a slip away from one is an error
// matching ErrUnknownEngine, with the reference meant, when the rest
// cannot be an Ollama name: see misspelt.
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
	if given, meant, ok := misspelt(ref, names); ok {
		return "", "", fmt.Errorf("%w %q in model %q: did you mean %s%s?", ErrUnknownEngine, given, ref, meant, ref[len(given):])
	}
	return defaultProvider, ref, nil
}

// misspelt tells a reference whose engine prefix has a slip in it
// ("olama:qwen3:8b", "vlm:Qwen/Qwen3-8B") from an Ollama model name, and
// returns the prefix given and the engine name meant.
//
// The rule, from the grammar of Ollama's names
// ([HOST[:PORT]/][NAMESPACE/]MODEL[:TAG], where a tag has no ":" or "/"):
// a reference "P:REST" is a slip when
//   - P has no "/" (else the colon is a tag's: "hf.co/user/repo:Q4_K_M",
//     "library/model:tag"),
//   - REST has a ":" or a "/" (else "P:REST" is MODEL:TAG, "qwen3:8b"),
//   - REST does not start with a port and a "/" (else P is a registry
//     host: "host:5000/model:tag"), and
//   - P is close to a name or alias of an engine, or to a configured
//     engine's name, compared as LookupEngine does: one edit (a letter
//     added, dropped, changed, or two swapped), two for names of eight
//     letters or more, so that "llama3:8b:q4" is not taken for Ollama's.
//
// Such a reference cannot be an Ollama name at all, so calling it a slip
// costs nothing. "olama:qwen3" (one colon, a tag after it) stays a valid
// Ollama name and goes to Ollama; a far prefix ("foo:bar:baz") is left to
// Ollama too, which says the name is not valid.
func misspelt(ref string, names []string) (given, meant string, ok bool) {
	prefix, rest, found := strings.Cut(ref, ":")
	if !found || prefix == "" || strings.Contains(prefix, "/") || !strings.ContainsAny(rest, ":/") {
		return "", "", false
	}
	if port, _, slash := strings.Cut(rest, "/"); slash && port != "" && strings.Trim(port, "0123456789") == "" {
		return "", "", false
	}
	// Aliases are suggested as the name they stand for.
	meantBy := map[string]string{}
	var candidates []string
	add := func(alias, name string) {
		if _, dup := meantBy[alias]; !dup && alias != "" {
			meantBy[alias] = name
			candidates = append(candidates, alias)
		}
	}
	for _, n := range names {
		add(n, n)
		if e, known := LookupEngine(n); known {
			for _, a := range e.Aliases {
				add(a, e.Name)
			}
		}
	}
	key := engineKey(prefix)
	near := spell.Nearest(candidates, 1, func(name string) (int, bool) {
		d := spell.Distance(key, engineKey(name))
		return d, d <= max(1, len([]rune(engineKey(name)))/4)
	})
	if len(near) == 0 {
		return "", "", false
	}
	return prefix, meantBy[near[0]], true
}

// takesSlash reports whether "NAME/MODEL" names the engine called name.
func takesSlash(name string) bool {
	e, ok := LookupEngine(name)
	return ok && e.Slash && strings.EqualFold(name, e.Name)
}

// canonical is name as the configuration spells it: known engines in
// lower case, configured ones as their config writes them.
func canonical(name string, engines []string) string {
	for _, k := range EngineNames("") {
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
