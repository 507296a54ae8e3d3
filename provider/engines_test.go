package provider_test

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/provider/openai"
)

// TestEngineTableRows walks the engine table: every row is reachable as
// NAME:MODEL and by its aliases as a "providers" type, has an address, a
// name for messages and a hint for when it does not answer, and no two
// rows share a name or alias. A new preset is one row: this test is what
// checks it is a whole one.
func TestEngineTableRows(t *testing.T) {
	seen := map[string]string{}
	key := func(s string) string {
		return strings.ToLower(strings.NewReplacer(" ", "", "-", "", "_", "", ".", "").Replace(s))
	}
	rows := provider.Engines()
	if len(rows) == 0 || rows[0].Name != provider.EngineOllama {
		t.Fatalf("the table must start with Ollama, the default engine: %+v", rows)
	}
	for _, e := range rows {
		t.Run(e.Name, func(t *testing.T) {
			for _, n := range append([]string{e.Name}, e.Aliases...) {
				if other, dup := seen[key(n)]; dup {
					t.Errorf("%q of %s is also a name of %s", n, e.Name, other)
				}
				seen[key(n)] = e.Name
				if got, ok := provider.LookupEngine(strings.ToUpper(n)); !ok || got.Name != e.Name {
					t.Errorf("LookupEngine(%q) = %q, %v; want %s", strings.ToUpper(n), got.Name, ok, e.Name)
				}
			}
			if e.Name != strings.ToLower(e.Name) || strings.ContainsAny(e.Name, ":/ ") {
				t.Errorf("name %q: model references need it in lower case without \":\", \"/\" or spaces", e.Name)
			}
			for _, ref := range []string{e.Name + ":some-model", strings.ToUpper(e.Name) + ":some-model"} {
				if engine, model, err := provider.ParseModel(ref); err != nil || engine != e.Name || model != "some-model" {
					t.Errorf("ParseModel(%q) = %q, %q, %v", ref, engine, model, err)
				}
			}
			if _, _, err := provider.ParseModel(e.Name + ":"); err == nil {
				t.Errorf("%s: without a model is not an error", e.Name)
			}
			u, err := url.Parse(e.URL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				t.Errorf("URL %q is not an http(s) address", e.URL)
			}
			if e.Display == "" || e.Hint == "" {
				t.Errorf("display name %q, hint %q: messages need both", e.Display, e.Hint)
			}
			if e.Start == "" && !e.OnRequest {
				t.Error(`"mcphost models" asks it by default, but says no command to start it`)
			}
			switch e.API {
			case provider.APIOpenAI:
				if _, err := openai.ParseURL(e.URL); err != nil || !strings.HasSuffix(e.URL, "/v1") {
					t.Errorf("URL %q is not an OpenAI API base: %v", e.URL, err)
				}
				p, err := openai.New(openai.Options{Name: e.Name, Kind: openai.Kind(e.Name), URL: e.URL})
				if err != nil || p.Engine() != e.Display+" at "+e.URL {
					t.Errorf("the OpenAI-compatible backend names it %q (%v), want %q", p.Engine(), err, e.Display+" at "+e.URL)
				}
			case provider.APIOllama:
			default:
				t.Errorf("API %q is neither Ollama's nor OpenAI's", e.API)
			}
		})
	}
	presets := provider.Presets()
	for _, want := range []string{provider.EngineLlamaCpp, provider.EngineLMStudio, provider.EngineVLLM} {
		if !slices.Contains(presets, want) {
			t.Errorf("Presets() = %q, lacks %s", presets, want)
		}
	}
	for _, not := range []string{provider.EngineOllama, provider.EngineOpenAI} {
		if slices.Contains(presets, not) {
			t.Errorf("Presets() = %q, has %s, which --provider-url does not move as a preset", presets, not)
		}
	}
}
