package ollama

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/ollamatest"
	"github.com/mcphost/mcphost/provider"
)

func TestEmbed(t *testing.T) {
	s := ollamatest.NewServer(ollamatest.Model{Name: "nomic-embed-text", Capabilities: []string{"embedding"}})
	defer s.Close()
	p := newProvider(t, s)
	vecs, err := p.Embed(context.Background(), "nomic-embed-text", []string{"read a file", "fetch a web page"})
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != 2 || !slices.Equal(vecs[0], ollamatest.WordVector("read a file")) {
		t.Errorf("vectors %v", vecs)
	}
	reqs := s.EmbedRequests()
	if len(reqs) != 1 || reqs[0].Model != "nomic-embed-text" {
		t.Errorf("requests %+v: want one batch", reqs)
	}

	_, err = p.Embed(context.Background(), "all-minilm", []string{"x"})
	if !errors.Is(err, provider.ErrModelNotFound) || err.Error() != `model "all-minilm" not found: run "ollama pull all-minilm"` {
		t.Errorf("a missing model: %v", err)
	}

	s.HandleEmbed(func(string, []string) ollamatest.EmbedReply {
		return ollamatest.EmbedReply{Embeddings: [][]float32{{1}}}
	})
	if _, err := p.Embed(context.Background(), "nomic-embed-text", []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), "returned 1 embeddings for 2 texts") {
		t.Errorf("too few vectors: %v", err)
	}
	s.HandleEmbed(func(string, []string) ollamatest.EmbedReply {
		return ollamatest.EmbedReply{Status: http.StatusBadRequest, Error: `"llama3.2" does not support embeddings`}
	})
	if _, err := p.Embed(context.Background(), "nomic-embed-text", []string{"a"}); err == nil || err.Error() != `ollama: "llama3.2" does not support embeddings` {
		t.Errorf("an engine's refusal: %v", err)
	}
}
