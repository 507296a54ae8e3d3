package host_test

import (
	"context"
	"testing"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/ollamatest"
)

// embed-model "auto" ranks tools with an embedding model the engine
// already has: one it says embeds, or, when it says nothing of what a
// model can do, one of an embedding family; with none, by their words,
// without a warning.
func TestEmbedModelAutoUsesAnEmbeddingModelTheEngineHas(t *testing.T) {
	for _, tc := range []struct {
		name   string
		models []ollamatest.Model
		want   string // the embedding model used, "" for none
	}{
		{"capability", []ollamatest.Model{{Name: "tiny"}, {Name: "all-minilm", Capabilities: []string{"embedding"}, Family: "bert"}}, "all-minilm:latest"},
		{"family", []ollamatest.Model{{Name: "tiny"}, {Name: "nomic-embed-text", Capabilities: []string{}, Family: "nomic-bert"}}, "nomic-embed-text:latest"},
		{"none", []ollamatest.Model{{Name: "tiny"}, {Name: "qwen3", Family: "qwen3"}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := ollamatest.NewServer(tc.models...)
			defer model.Close()
			var warned warnings
			c := noFiles("ollama:tiny", model.URL)
			c.NumCtx, c.ToolShare, c.EmbedModel = 4096, 0.25, "auto"
			h, err := host.New(context.Background(), host.Options{Config: c, Tools: manyTools(), Warn: warned.add})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			model.Enqueue(ollamatest.Reply{Content: "ok"})
			var ranker string
			if _, err := h.PromptFunc(context.Background(), "Create an invoice for ACME", func(ev host.Event) {
				if ev, ok := ev.(host.ToolsSelected); ok {
					ranker = ev.Ranker
				}
			}); err != nil {
				t.Fatal(err)
			}
			embeds := model.EmbedRequests()
			switch {
			case tc.want == "" && (ranker != "lexical" || len(embeds) != 0):
				t.Errorf("ranker %q, %d embed requests; want lexical and none", ranker, len(embeds))
			case tc.want != "" && (ranker != "embedding+lexical" || len(embeds) == 0 || embeds[0].Model != tc.want):
				t.Errorf("ranker %q, embed requests %+v; want embedding+lexical with %s", ranker, embeds, tc.want)
			}
			if w := warned.all(); w != "" {
				t.Errorf("warned: %s", w)
			}
		})
	}
}
