package host_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/provider"
)

// shouter is a provider.Provider: a model engine in three methods. It
// answers every prompt with the prompt in capitals, streamed in one piece.
// A real one calls its engine's API in Chat and turns the tools it is
// offered (req.Tools) into the engine's tool declarations.
type shouter struct{}

func (shouter) Name() string { return "shouter" }

func (shouter) Show(_ context.Context, model string) (provider.ModelInfo, error) {
	return provider.ModelInfo{Name: model, ContextLength: 4096, Capabilities: []string{provider.CapabilityCompletion}}, nil
}

func (shouter) Chat(_ context.Context, req provider.Request, onDelta func(provider.Delta)) (provider.Response, error) {
	answer := strings.ToUpper(req.Messages[len(req.Messages)-1].Content)
	if onDelta != nil {
		onDelta(provider.Delta{Content: answer})
	}
	return provider.Response{Message: provider.Message{Role: provider.RoleAssistant, Content: answer}}, nil
}

// A model engine of the program's own, given as Options.Provider; the
// config's model names the model it serves.
func Example_provider() {
	ctx := context.Background()
	cfg := host.DefaultConfig()
	cfg.Model = "loud"
	h, err := host.New(ctx, host.Options{Config: cfg, Provider: shouter{}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	res, err := h.Prompt(ctx, "hello, world")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(h.Model().Name, "says", res.Answer)
	// Output:
	// loud says HELLO, WORLD
}
