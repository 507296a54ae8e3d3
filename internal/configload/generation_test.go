package configload

import (
	"strings"
	"testing"
)

func TestGenerationLayersAndModels(t *testing.T) {
	fx := newFixture(t)
	write(t, fx.home, ".mcphost.yml", "temperature: 0.7\ntop-k: 40\nstop-sequences: [\"END\"]\nmodels:\n  ollama:qwen3:8b: {temperature: 0.1, max_tokens: 256}\n")
	fx.args = []string{"--top-p", "0.9", "--seed", "7"}
	s, err := fx.load(t)
	if err != nil {
		t.Fatal(err)
	}
	g := s.Generation
	if g.Temperature == nil || *g.Temperature != 0.7 || g.TopK == nil || *g.TopK != 40 || g.TopP == nil || *g.TopP != 0.9 ||
		g.Seed == nil || *g.Seed != 7 || g.MaxTokens != 0 || len(g.Stop) != 1 || g.Stop[0] != "END" {
		t.Errorf("general generation parameters %+v", g)
	}
	m := s.Generation.Over(s.ModelGeneration["qwen3:8b"])
	if *m.Temperature != 0.1 || m.MaxTokens != 256 || *m.TopK != 40 {
		t.Errorf("qwen3:8b's generation parameters %+v", m)
	}
	// Nothing set: nothing sent.
	fx = newFixture(t)
	if s, err := fx.load(t); err != nil || !s.Generation.IsZero() || len(s.ModelGeneration) != 0 {
		t.Errorf("defaults: %+v, %v", s.Generation, err)
	}
}

func TestGenerationErrors(t *testing.T) {
	for content, want := range map[string]string{
		"temperature: hot\n":               `"temperature" must be a number from 0 to 2`,
		"top-p: 3\n":                       `"top-p" must be a number from 0 to 1`,
		"max-tokens: 0.5\n":                `"max-tokens" must be a whole number`,
		"models: [1]\n":                    `"models" must be an object`,
		"models:\n  m: {color: red}\n":     `"color" is not a setting a model can have`,
		"models:\n  m: {temperature: 9}\n": `models "m": "temperature" must be a number from 0 to 2`,
		"stop-sequences: {a: 1}\n":         `"stop-sequences" must be a list of strings`,
	} {
		fx := newFixture(t)
		write(t, fx.home, ".mcphost.yml", content)
		if _, err := fx.load(t); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", content, err, want)
		}
	}
}
