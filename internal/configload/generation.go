package configload

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mcphost/mcphost/provider"
)

// The generation parameters, as flags and config keys.
const (
	keyTemperature   = "temperature"
	keyTopP          = "top-p"
	keyTopK          = "top-k"
	keyMaxTokens     = "max-tokens"
	keySeed          = "seed"
	keyStopSequences = "stop-sequences"
	// keyModels holds per-model settings: models: {"qwen3:8b": {temperature: 0.2}}.
	keyModels = "models"
	// keyHooks holds hooks in a config file, as hooks.yml does.
	keyHooks = "hooks"
)

// generationKeys are the generation parameters' keys.
func generationKeys() []string {
	return []string{keyTemperature, keyTopP, keyTopK, keyMaxTokens, keySeed, keyStopSequences}
}

// registerGenerationFlags defines the generation parameters' flags.
func registerGenerationFlags(fs *pflag.FlagSet) {
	fs.Float64(keyTemperature, 0, "sampling temperature `T` (0 to 2; low values make small models call tools more reliably; default: the model's)")
	fs.Float64(keyTopP, 0, "nucleus sampling: keep the tokens of cumulative probability `P` (default: the model's)")
	fs.Int(keyTopK, 0, "sample from the `K` most likely tokens (default: the model's)")
	fs.Int(keyMaxTokens, 0, "end a reply after `N` tokens (default: the model's)")
	fs.Int(keySeed, 0, "random seed `N`, for repeatable answers (default: none)")
	fs.StringArray(keyStopSequences, nil, "end a reply at `TEXT`; repeatable")
}

// generationReader reads the generation parameters of a layer that gives each key
// through get, naming a bad value with describe.
type generationReader struct {
	get      func(key string) (any, bool)
	describe func(key, format string, args ...any) error
}

func (r generationReader) read() (provider.GenerationOptions, error) {
	var s provider.GenerationOptions
	for _, key := range generationKeys() {
		v, ok := r.get(key)
		if !ok || v == nil {
			continue
		}
		switch key {
		case keyTemperature, keyTopP:
			f, ok := toFloat(v)
			limit := 2.0
			if key == keyTopP {
				limit = 1
			}
			if !ok || f < 0 || f > limit {
				return s, r.describe(key, "must be a number from 0 to %g, got %v", limit, v)
			}
			if key == keyTemperature {
				s.Temperature = &f
			} else {
				s.TopP = &f
			}
		case keyTopK, keyMaxTokens, keySeed:
			n, ok := toInt(v)
			if !ok || (key != keySeed && n < 1) {
				return s, r.describe(key, "must be a whole number of at least 1, got %v", v)
			}
			switch key {
			case keyTopK:
				s.TopK = &n
			case keyMaxTokens:
				s.MaxTokens = n
			default:
				s.Seed = &n
			}
		case keyStopSequences:
			list, ok := toStrings(v)
			if !ok {
				return s, r.describe(key, "must be a list of strings, got %v", v)
			}
			s.Stop = list
		}
	}
	return s, nil
}

// modelGeneration reads the models section of a config file: per model (its
// name as -m takes it, the provider prefix left out), the generation
// parameters that replace the general ones for that model.
func (o *LoadOptions) modelGeneration(files []*configFile) (map[string]provider.GenerationOptions, error) {
	out := map[string]provider.GenerationOptions{}
	for _, f := range files {
		raw, ok := f.sections[keyModels]
		if !ok || raw == nil {
			continue
		}
		models, ok := asMap(raw)
		if !ok {
			return nil, o.fail(f.path, keyModels, nil, `"models" must be an object with one entry per model, e.g. models: {"qwen3:8b": {temperature: 0.2}}`)
		}
		for _, name := range sortedKeys(models) {
			entry, ok := asMap(models[name])
			if !ok {
				return nil, o.fail(f.path, keyModels, nil, "models %q must be an object of settings such as temperature", name)
			}
			got := map[string]any{}
			for k, v := range entry {
				nk := normKey(k)
				known := false
				for _, key := range generationKeys() {
					if normKey(key) == nk {
						got[key], known = v, true
					}
				}
				if !known {
					return nil, o.fail(f.path, keyModels, nil, "models %q: %q is not a setting a model can have: use %s", name, k, strings.Join(generationKeys(), ", "))
				}
			}
			s, err := generationReader{
				get: func(key string) (any, bool) { v, ok := got[key]; return v, ok },
				describe: func(key, format string, args ...any) error {
					return o.fail(f.path, keyModels, nil, "models %q: %q %s", name, key, fmt.Sprintf(format, args...))
				},
			}.read()
			if err != nil {
				return nil, err
			}
			model := name
			if _, m, err := provider.ParseModel(name); err == nil {
				model = m
			}
			out[model] = out[model].Over(s)
		}
	}
	return out, nil
}

func toFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case uint64:
		return float64(n), true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(n), 64)
		return f, err == nil
	}
	return 0, false
}

func toInt(v any) (int, bool) {
	f, ok := toFloat(v)
	if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int(f), true
}

func toStrings(v any) ([]string, bool) {
	switch l := v.(type) {
	case string:
		return []string{l}, true
	case []string:
		return l, true
	case []any:
		out := make([]string, 0, len(l))
		for _, e := range l {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}
