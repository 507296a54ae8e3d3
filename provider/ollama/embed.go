package ollama

import (
	"context"
	"fmt"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/provider"
)

var _ provider.Embedder = (*Provider)(nil)

// Embed returns the embeddings of texts by an embedding model, through
// /api/embed, one vector per text in order. Texts longer than the model
// takes are cut by Ollama. It is not retried: a caller that can do
// without (tool ranking) would rather go on at once.
func (p *Provider) Embed(ctx context.Context, model string, texts []string) ([][]float32, error) {
	resp, err := p.client.Embed(ctx, &api.EmbedRequest{Model: model, Input: texts})
	if err != nil {
		return nil, p.wrap(ctx, model, err)
	}
	if len(resp.Embeddings) != len(texts) {
		return nil, providerError(fmt.Sprintf("model %q returned %d embeddings for %d texts", model, len(resp.Embeddings), len(texts)), nil)
	}
	return resp.Embeddings, nil
}
