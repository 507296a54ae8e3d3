package servers

import (
	"encoding/json"
	"log/slog"
	"slices"

	"github.com/mcphost/mcphost/provider"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// emptySchema is the parameters of a tool that declares none.
const emptySchema = `{"type":"object","properties":{}}`

// filterTools keeps the tools named in allowed (all when allowed is empty)
// minus those in excluded, in the server's order. Names are the server's
// own, not the exposed ones.
func filterTools(tools []*mcp.Tool, allowed, excluded []string) []*mcp.Tool {
	var out []*mcp.Tool
	for _, t := range tools {
		if len(allowed) > 0 && !slices.Contains(allowed, t.Name) {
			continue
		}
		if slices.Contains(excluded, t.Name) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// providerTool is the declaration the model sees for tool t under name.
func providerTool(name string, t *mcp.Tool, log *slog.Logger) provider.Tool {
	desc := t.Description
	if desc == "" {
		desc = t.Title
	}
	if desc == "" && t.Annotations != nil {
		desc = t.Annotations.Title
	}
	params := json.RawMessage(emptySchema)
	if t.InputSchema != nil {
		b, err := json.Marshal(t.InputSchema)
		if err != nil {
			// The SDK decoded it from JSON, so this cannot really happen;
			// an argument-less declaration is still better than none.
			log.Debug("tool schema does not marshal", "tool", t.Name, "error", err)
		} else {
			params = b
		}
	}
	return provider.Tool{Name: name, Description: desc, Parameters: params}
}
