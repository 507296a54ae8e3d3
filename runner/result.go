package runner

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/termtext"
)

// ToolOutput is a tool result as the model will see it.
type ToolOutput struct {
	Text    string
	Images  [][]byte
	IsError bool
}

// ConvertResult turns an MCP tool result into what goes back to the model:
// text content joined, embedded text resources included, structured content
// serialised when there is no text, and images attached for vision models
// or replaced by a placeholder the model can reason about.
func ConvertResult(res *mcp.CallToolResult, vision bool) ToolOutput {
	if res == nil {
		return ToolOutput{Text: "(the tool returned nothing)"}
	}
	out := ToolOutput{IsError: res.IsError}
	var parts []string
	hasText := false
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			parts = append(parts, c.Text)
			hasText = true
		case *mcp.ImageContent:
			if vision {
				out.Images = append(out.Images, c.Data)
				parts = append(parts, fmt.Sprintf("[image %s, %s, attached]", c.MIMEType, termtext.Bytes(len(c.Data))))
			} else {
				parts = append(parts, fmt.Sprintf("[image %s, %s: not shown, this model cannot see images]", c.MIMEType, termtext.Bytes(len(c.Data))))
			}
		case *mcp.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio %s, %s: not shown]", c.MIMEType, termtext.Bytes(len(c.Data))))
		case *mcp.EmbeddedResource:
			if c.Resource == nil {
				continue
			}
			if c.Resource.Text != "" {
				parts = append(parts, c.Resource.Text)
				hasText = true
			} else {
				parts = append(parts, fmt.Sprintf("[resource %s, %s, %s: binary, not shown]", c.Resource.URI, orUnknown(c.Resource.MIMEType), termtext.Bytes(len(c.Resource.Blob))))
			}
		case *mcp.ResourceLink:
			desc := c.Name
			if c.Description != "" {
				desc += ": " + c.Description
			}
			parts = append(parts, fmt.Sprintf("[resource link %s (%s)]", c.URI, desc))
		}
	}
	if !hasText && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	out.Text = strings.Join(parts, "\n")
	if out.Text == "" {
		out.Text = "(the tool returned no content)"
	}
	return out
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown type"
	}
	return s
}
