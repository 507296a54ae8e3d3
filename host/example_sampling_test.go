//lint:file-ignore SA1019 sampling is part of MCP 2025-11-25, the version mcphost speaks
package host_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/ollamatest"
)

// samplingApprover lets every server have the model complete its
// messages, and says so. The other questions get the configured answers
// (ask.Nobody).
type samplingApprover struct{ ask.Nobody }

func (samplingApprover) ApproveSampling(_ context.Context, req ask.SamplingRequest) (bool, error) {
	fmt.Printf("%s asks the model: %s\n", req.Server, req.Messages[0].Content[0].Text)
	return true, nil
}

// Sampling: a server's tool asks the host's model for a completion (MCP
// sampling/createMessage). The Asker approves the request; without one,
// the config's ServerSampling setting decides (deny by default).
func Example_sampling() {
	poet := mcp.NewServer(&mcp.Implementation{Name: "poet"}, nil)
	type poemIn struct {
		Topic string `json:"topic"`
	}
	mcp.AddTool(poet, &mcp.Tool{Name: "poem", Description: "A haiku on a topic."},
		func(ctx context.Context, req *mcp.CallToolRequest, in poemIn) (*mcp.CallToolResult, any, error) {
			msg, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: 100,
				Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "Write a haiku about " + in.Topic + "."}}}})
			if err != nil {
				return nil, nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{msg.Content}}, nil, nil
		})
	web := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return poet }, nil))
	defer web.Close()

	model := ollamatest.NewServer(ollamatest.Model{Name: "qwen3:8b"})
	defer model.Close()
	model.Enqueue(ollamatest.Reply{Content: "Small gopher runs / channels hum in the quiet / the build passes green"})

	ctx := context.Background()
	cfg := host.DefaultConfig()
	cfg.Model, cfg.OllamaHost = "ollama:qwen3:8b", model.URL
	cfg.Servers = []config.ServerSpec{{Name: "poet", Transport: config.TransportHTTP, URL: web.URL}}
	h, err := host.New(ctx, host.Options{Config: cfg, Asker: samplingApprover{}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	// The program calls the tool here; a tool the model calls in a turn
	// samples the same way.
	res, err := h.CallTool(ctx, "poet__poem", map[string]any{"topic": "Go"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Text())
	// Output:
	// poet asks the model: Write a haiku about Go.
	// Small gopher runs / channels hum in the quiet / the build passes green
}
