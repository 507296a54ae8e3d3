package servers

import (
	"encoding/json"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/tool"
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

// toDefs converts the listed tools once, when they are listed.
func toDefs(tools []*mcp.Tool) []tool.Def {
	out := make([]tool.Def, len(tools))
	for i, t := range tools {
		out[i] = toDef(t)
	}
	return out
}

// providerTool is the declaration the model sees for tool t under name.
func providerTool(name string, t tool.Def) provider.Tool {
	desc := t.Description
	if desc == "" {
		desc = t.Title
	}
	if desc == "" && t.Annotations != nil {
		desc = t.Annotations.Title
	}
	params := json.RawMessage(emptySchema)
	if t.InputSchema != nil {
		params = t.InputSchema
	}
	return provider.Tool{Name: name, Description: desc, Parameters: params}
}
