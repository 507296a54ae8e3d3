package host_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
)

// MCP servers given in code, each a config.ServerSpec: the built-in fs
// server confined to a folder, and a server over Streamable HTTP (here a
// go-sdk server in this process). A stdio server is
// {Name: "git", Transport: config.TransportStdio, Command: "uvx", Args: []string{"mcp-server-git"}}.
// StartAll starts them all in New and waits for each.
func Example_servers() {
	clock := mcp.NewServer(&mcp.Implementation{Name: "clock"}, nil)
	mcp.AddTool(clock, &mcp.Tool{Name: "today", Description: "Today's weekday."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Wednesday"}}}, nil, nil
		})
	web := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return clock }, nil))
	defer web.Close()
	dir, _ := os.MkdirTemp("", "mcphost-example-")
	defer os.RemoveAll(dir)

	ctx := context.Background()
	cfg := host.DefaultConfig()
	cfg.Servers = []config.ServerSpec{
		{Name: "fs", Transport: config.TransportBuiltin, Builtin: "fs",
			Options: map[string]any{"allowed_directories": []any{dir}}},
		{Name: "clock", Transport: config.TransportHTTP, URL: web.URL},
	}
	h, err := host.New(ctx, host.Options{Config: cfg, Start: host.StartAll})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	for _, s := range h.Servers() {
		fmt.Println(s.Name, s.Transport, s.State)
	}
	res, err := h.CallTool(ctx, "clock__today", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Text())
	// Output:
	// fs builtin ready
	// clock http ready
	// Wednesday
}

// A server's prompts (templates of messages, filled in with arguments)
// and resources (data it serves by URI). Conversation.RunPrompt sends a
// filled-in prompt to the model.
func Example_promptsAndResources() {
	docs := mcp.NewServer(&mcp.Implementation{Name: "docs"}, nil)
	docs.AddPrompt(&mcp.Prompt{Name: "review", Description: "Review a file.",
		Arguments: []*mcp.PromptArgument{{Name: "file", Required: true}}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			text := "Review " + req.Params.Arguments["file"] + " for bugs."
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}}, nil
		})
	docs.AddResource(&mcp.Resource{URI: "docs://readme", Name: "readme", MIMEType: "text/plain"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "Run go test ./... first."}}}, nil
		})
	web := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return docs }, nil))
	defer web.Close()

	ctx := context.Background()
	cfg := host.DefaultConfig()
	cfg.Servers = []config.ServerSpec{{Name: "docs", Transport: config.TransportHTTP, URL: web.URL}}
	h, err := host.New(ctx, host.Options{Config: cfg})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()

	for _, p := range h.Prompts() {
		fmt.Println("prompt:", p.Name, "-", p.Prompt.Description)
	}
	filled, err := h.GetPrompt(ctx, "review", map[string]string{"file": "main.go"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range filled.Messages {
		fmt.Println(m.Role+":", m.Content.Text)
	}

	for _, r := range h.Resources() {
		fmt.Println("resource:", r.Resource.URI, "of", r.Server)
	}
	server, contents, err := h.ReadResource(ctx, "docs://readme")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(server+":", contents[0].Text)
	// Output:
	// prompt: docs__review - Review a file.
	// user: Review main.go for bugs.
	// resource: docs://readme of docs
	// docs: Run go test ./... first.
}
