package host

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/runner"
)

// EmbedModelAuto is the embed-model setting that ranks tools with an
// embedding model the engine already has, when it has one, and by their
// words otherwise.
const EmbedModelAuto = "auto"

// autoEmbedder is the embed-model "auto": it looks for an embedding model
// among those the engine has the first time tools are ranked (a run whose
// tools all fit never asks), and embeds with it; with none, every call
// returns runner.ErrNoEmbeddingModel and the tools are ranked by their
// words, which one debug line says.
type autoEmbedder struct {
	engine string
	lister provider.Lister
	embed  provider.Embedder
	logger *slog.Logger

	mu     sync.Mutex
	looked bool
	model  string
}

// Embed embeds texts with the engine's embedding model, found on the
// first call.
func (a *autoEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	model, err := a.find(ctx)
	if err != nil {
		return nil, err
	}
	return a.embed.Embed(ctx, model, texts)
}

// find returns the embedding model to use, looking for it once.
func (a *autoEmbedder) find(ctx context.Context) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.looked {
		models, err := a.lister.ListModels(ctx)
		if err != nil && ctx.Err() != nil {
			// Cancelled: look again next time.
			return "", ctx.Err()
		}
		a.looked = true
		if err != nil {
			a.logger.Debug("embed-model auto: the engine's models could not be listed; tools are ranked by their words", "engine", a.engine, "error", err.Error())
		} else if a.model = embeddingModel(models); a.model == "" {
			a.logger.Debug("embed-model auto: the engine has no embedding model; tools are ranked by their words (pull one, e.g. nomic-embed-text, to rank them by meaning too)", "engine", a.engine)
		} else {
			a.logger.Debug("embed-model auto: ranking tools with the engine's embedding model", "engine", a.engine, "model", a.model)
		}
	}
	if a.model == "" {
		return "", fmt.Errorf("embed-model auto: %w on %s", runner.ErrNoEmbeddingModel, a.engine)
	}
	return a.model, nil
}

// embeddingModel returns the first of models that embeds text: one the
// engine says has the "embedding" capability, or, when it says nothing
// of what a model can do, one of a family of embedding models
// (nomic-bert, bert, …). It returns "" when there is none.
func embeddingModel(models []provider.ModelInfo) string {
	for _, m := range models {
		if m.Has("embedding") {
			return m.Name
		}
	}
	for _, m := range models {
		if len(m.Capabilities) == 0 && embeddingFamily(m.Family) {
			return m.Name
		}
	}
	return ""
}

// embeddingFamily reports whether a model architecture is one only
// embedding models use.
func embeddingFamily(family string) bool {
	f := strings.ToLower(family)
	return strings.Contains(f, "bert") || strings.Contains(f, "embed") || f == "xlm-roberta" || f == "xlmroberta"
}
