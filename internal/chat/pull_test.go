package chat

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/ollamatest"
)

// TestModelOffersToPull switches to a model Ollama does not have: the chat
// offers to pull it, shows the download's bytes and percentage, and
// switches once it is there; a "no" keeps the model in use.
func TestModelOffersToPull(t *testing.T) {
	model := ollamatest.NewServer(ollamatest.Model{Name: "tiny"})
	defer model.Close()
	model.Pullable(ollamatest.Model{Name: "qwen3:8b"})
	cfg := host.DefaultConfig()
	cfg.Model, cfg.OllamaHost = "tiny", model.URL
	h, err := host.New(context.Background(), host.Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	in, keys, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	defer keys.Close()
	var out bytes.Buffer
	c := New(Options{Host: h, Conversation: h.NewConversation(), In: in, Out: &out, Err: &out, NoColor: true})

	keys.WriteString("n")
	got := run(t, c, &out, "/model ollama:qwen3:8b")
	if !strings.Contains(got, `model "qwen3:8b" not found`) || !strings.Contains(got, "pull ollama:qwen3:8b now? [y/N] no") || !strings.Contains(got, "still using tiny") {
		t.Errorf("declined: %q", got)
	}
	if len(model.PullRequests()) != 0 {
		t.Error("pulled after a no")
	}

	keys.WriteString("y")
	got = run(t, c, &out, "/model ollama:qwen3:8b")
	for _, want := range []string{"[y/N] yes", "pulling ollama:qwen3:8b: 2.1 MB / 4.2 MB (50%)", "4.2 MB / 4.2 MB (100%)", "model: qwen3:8b (the conversation goes on)"} {
		if !strings.Contains(got, want) {
			t.Errorf("pull output lacks %q:\n%q", want, got)
		}
	}
	if c.opts.Conversation.Model().Name != "qwen3:8b" {
		t.Errorf("model after the pull: %q", c.opts.Conversation.Model().Name)
	}
}
