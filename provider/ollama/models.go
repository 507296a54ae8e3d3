package ollama

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/provider"
)

var (
	_ provider.Lister = (*Provider)(nil)
	_ provider.Puller = (*Provider)(nil)
)

// showConcurrency bounds the /api/show requests ListModels makes at once.
const showConcurrency = 4

// ListModels lists the models Ollama has (/api/tags), each described by
// /api/show (capabilities, context length), sorted by name.
func (p *Provider) ListModels(ctx context.Context) ([]provider.ModelInfo, error) {
	var list *api.ListResponse
	err := p.withRetry(ctx, "the model list", func() (bool, error) {
		var err error
		list, err = p.client.List(ctx)
		return false, err
	})
	if err != nil {
		return nil, err
	}
	out := make([]provider.ModelInfo, len(list.Models))
	sem := make(chan struct{}, showConcurrency)
	var wg sync.WaitGroup
	for i, m := range list.Models {
		out[i] = provider.ModelInfo{Name: m.Name, Size: m.Size, Family: m.Details.Family}
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			resp, err := p.client.Show(ctx, &api.ShowRequest{Model: m.Name})
			if err != nil {
				return // listed without what /api/show would add
			}
			for _, c := range resp.Capabilities {
				out[i].Capabilities = append(out[i].Capabilities, string(c))
			}
			out[i].ContextLength = contextLength(resp.ModelInfo)
		})
	}
	wg.Wait()
	slices.SortFunc(out, func(a, b provider.ModelInfo) int { return strings.Compare(a.Name, b.Name) })
	return out, ctx.Err()
}

// Pull downloads model through /api/pull, calling progress with each
// step Ollama reports. A name the registry does not have is an error of
// kind ErrModelNotFound.
func (p *Provider) Pull(ctx context.Context, model string, progress func(provider.PullProgress)) error {
	err := p.client.Pull(ctx, &api.PullRequest{Model: model}, func(r api.ProgressResponse) error {
		if progress != nil {
			progress(provider.PullProgress{Status: r.Status, Completed: r.Completed, Total: r.Total})
		}
		return nil
	})
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("pulling %s stopped: %w", model, ctx.Err())
	}
	// Ollama's words for a name its registry does not have.
	if strings.Contains(err.Error(), "file does not exist") {
		return &provider.Error{Kind: provider.ErrModelNotFound, Err: err,
			Message: fmt.Sprintf("model %q is not in the Ollama registry: check its name and tag at https://ollama.com/library", model)}
	}
	if provider.Unreachable(err) {
		return p.wrap(ctx, model, err)
	}
	return &provider.Error{Kind: provider.ErrProvider, Err: err, Message: fmt.Sprintf("ollama could not pull %s: %v", model, err)}
}

// Version is the server's version, as /api/version reports it.
func (p *Provider) Version(ctx context.Context) (string, error) {
	v, err := p.client.Version(ctx)
	if err != nil {
		return "", p.wrap(ctx, "", err)
	}
	return v, nil
}
