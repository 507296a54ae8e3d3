package host_test

import (
	"context"
	"fmt"
	"sync"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/ollamatest"
)

// Many conversations at once on one Host, each in its own goroutine with
// its own history; the Host shares the model and the servers among them.
// A Conversation runs one turn at a time.
func Example_manyConversations() {
	model := ollamatest.NewServer(ollamatest.Model{Name: "qwen3:8b"})
	defer model.Close()
	// The scripted model greets the name it is told, then recalls it.
	model.Handle(func(req api.ChatRequest) ollamatest.Reply {
		first, last := req.Messages[0].Content, req.Messages[len(req.Messages)-1].Content
		if len(req.Messages) == 1 {
			return ollamatest.Reply{Content: "Hello, " + first + "."}
		}
		return ollamatest.Reply{Content: "You said " + first + ", then " + last + "."}
	})

	ctx := context.Background()
	cfg := host.DefaultConfig()
	cfg.Model, cfg.OllamaHost = "ollama:qwen3:8b", model.URL
	h, err := host.New(ctx, host.Options{Config: cfg})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()

	names := []string{"Ann", "Bob", "Cy", "Dee"}
	answers := make([]string, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() {
			conv := h.NewConversation()
			if _, err := conv.Prompt(ctx, name); err != nil {
				answers[i] = err.Error()
				return
			}
			res, err := conv.Prompt(ctx, "bye")
			if err != nil {
				answers[i] = err.Error()
				return
			}
			answers[i] = res.Answer
		})
	}
	wg.Wait()
	for _, answer := range answers {
		fmt.Println(answer)
	}
	// Output:
	// You said Ann, then bye.
	// You said Bob, then bye.
	// You said Cy, then bye.
	// You said Dee, then bye.
}
