package runner

import (
	"fmt"
	"strings"

	"github.com/mcphost/mcphost/internal/termtext"
	"github.com/mcphost/mcphost/tool"
)

// ToolOutput is a tool result as the model will see it.
type ToolOutput struct {
	Text    string
	Images  [][]byte
	IsError bool
}

// ConvertResult turns a tool result into what goes back to the model:
// text content joined, embedded text resources included under their URI,
// resource links as their URI and name, structured content
// serialised when there is no text, and images attached for vision models
// or replaced by a placeholder the model can reason about.
func ConvertResult(res *tool.Result, vision bool) ToolOutput {
	if res == nil {
		return ToolOutput{Text: "(the tool returned nothing)"}
	}
	out := ToolOutput{IsError: res.IsError}
	var parts []string
	for _, c := range res.Content {
		switch c.Kind {
		case tool.Image:
			if vision {
				out.Images = append(out.Images, c.Data)
				parts = append(parts, fmt.Sprintf("[image %s, %s, attached]", c.MIMEType, termtext.Bytes(len(c.Data))))
			} else {
				parts = append(parts, fmt.Sprintf("[image %s, %s: not shown, this model cannot see images]", c.MIMEType, termtext.Bytes(len(c.Data))))
			}
		case tool.Audio:
			parts = append(parts, fmt.Sprintf("[audio %s, %s: not shown]", c.MIMEType, termtext.Bytes(len(c.Data))))
		case tool.Resource:
			if c.Text != "" && c.URI != "" {
				// The URI says what the text is, and lets the model read
				// it again.
				parts = append(parts, fmt.Sprintf("[resource %s]\n%s", c.URI, c.Text))
			} else if c.Text != "" {
				parts = append(parts, c.Text)
			} else if c.URI != "" || len(c.Data) > 0 {
				parts = append(parts, fmt.Sprintf("[resource %s, %s, %s: binary, not shown]", c.URI, orUnknown(c.MIMEType), termtext.Bytes(len(c.Data))))
			}
		case tool.Text, tool.Link:
			parts = append(parts, c.Describe())
		}
	}
	if !res.HasText() && res.Structured != nil {
		parts = append(parts, res.Text())
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
