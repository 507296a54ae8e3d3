package ollama

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/ollamatest"
	"github.com/mcphost/mcphost/provider"
)

func TestListModels(t *testing.T) {
	srv := ollamatest.NewServer(
		ollamatest.Model{Name: "qwen3:8b", ContextLength: 40960, Capabilities: []string{"completion", "tools", "thinking"}},
		ollamatest.Model{Name: "gemma3:270m", ContextLength: 32768, Capabilities: []string{"completion"}},
	)
	defer srv.Close()
	p, err := New(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	models, err := p.ListModels(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(models) != 2 || models[0].Name != "gemma3:270m" || models[1].Name != "qwen3:8b" {
		t.Fatalf("models = %+v", models)
	}
	if models[0].Has(provider.CapabilityTools) || !models[1].Has(provider.CapabilityTools) ||
		models[1].ContextLength != 40960 || models[1].Size != 1<<20 {
		t.Errorf("models = %+v", models)
	}
}

func TestPullReportsProgressAndThenHasTheModel(t *testing.T) {
	srv := ollamatest.NewServer(ollamatest.Model{Name: "tiny"})
	defer srv.Close()
	srv.Pullable(ollamatest.Model{Name: "qwen3:8b"})
	p, err := New(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.SetRetry(Retry{Attempts: 1})
	ctx := context.Background()
	if _, err := p.Show(ctx, "qwen3:8b"); !errors.Is(err, provider.ErrModelNotFound) {
		t.Fatalf("before the pull: %v", err)
	}
	var steps []provider.PullProgress
	if err := p.Pull(ctx, "qwen3:8b", func(pp provider.PullProgress) { steps = append(steps, pp) }); err != nil {
		t.Fatal(err)
	}
	last := steps[len(steps)-1]
	var sawHalf bool
	for _, s := range steps {
		sawHalf = sawHalf || (s.Total == ollamatest.PullSize && s.Completed == ollamatest.PullSize/2)
	}
	if last.Status != "success" || !sawHalf {
		t.Errorf("steps = %+v", steps)
	}
	if _, err := p.Show(ctx, "qwen3:8b"); err != nil {
		t.Errorf("after the pull: %v", err)
	}
	err = p.Pull(ctx, "nosuch:1b", nil)
	if !errors.Is(err, provider.ErrModelNotFound) || !strings.Contains(err.Error(), `model "nosuch:1b" is not in the Ollama registry`) {
		t.Errorf("unknown model: %v", err)
	}
}

// TestVersion: the server's version, as mcphost doctor reports it.
func TestVersion(t *testing.T) {
	srv := ollamatest.NewServer()
	defer srv.Close()
	p, err := New(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := p.Version(context.Background()); err != nil || v != ollamatest.Version {
		t.Errorf("Version = %q, %v; want %q", v, err, ollamatest.Version)
	}
}
