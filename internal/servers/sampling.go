//lint:file-ignore SA1019 sampling is part of MCP 2025-11-25, the version mcphost speaks (see client.go)

package servers

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/internal/sampling"
	"github.com/mcphost/mcphost/tool"
)

// codeUserRejected is the JSON-RPC error code of a sampling request the
// user refused, as the MCP specification's examples use it.
const codeUserRejected = -1

// samplingHandler translates a server's sampling/createMessage request
// for the manager's sampling.Func, naming the server that asks.
func (m *Manager) samplingHandler(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	var p mcp.CreateMessageParams
	if req != nil && req.Params != nil {
		p = *req.Params
	}
	r := ask.SamplingRequest{SystemPrompt: p.SystemPrompt, MaxTokens: int(p.MaxTokens), StopSequences: p.StopSequences}
	if p.Temperature != 0 {
		t := p.Temperature
		r.Temperature = &t
	}
	if p.ModelPreferences != nil {
		for _, h := range p.ModelPreferences.Hints {
			if h != nil && h.Name != "" {
				r.ModelHints = append(r.ModelHints, h.Name)
			}
		}
	}
	for _, msg := range p.Messages {
		if msg == nil {
			continue
		}
		sm := ask.SamplingMessage{Role: string(msg.Role)}
		if msg.Content != nil {
			sm.Content = []tool.Content{toContent(msg.Content)}
		}
		r.Messages = append(r.Messages, sm)
	}
	if req != nil {
		m.mu.RLock()
		if s := m.sessions[req.Session]; s != nil {
			r.Server = s.spec.Name
		}
		m.mu.RUnlock()
	}
	res, err := m.sample(ctx, r)
	if errors.Is(err, sampling.ErrDenied) {
		return nil, &jsonrpc.Error{Code: codeUserRejected, Message: err.Error()}
	}
	if err != nil {
		return nil, err
	}
	stop := res.StopReason
	if stop == "" {
		stop = "endTurn"
	}
	return &mcp.CreateMessageResult{Role: "assistant", Content: &mcp.TextContent{Text: res.Text}, Model: res.Model, StopReason: stop}, nil
}
