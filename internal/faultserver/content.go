package faultserver

import (
	"bytes"
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The -content flag's resources and prompt: what real servers send that a
// client must pass on as it is.
const (
	// StyleGuideURI is a resource URI without a scheme, as the terraform
	// server lists its guides ("/terraform/style-guide").
	StyleGuideURI = "/docs/style-guide"
	// StyleGuideText is its text: several lines, no final newline.
	StyleGuideText = "# Style guide\n\nIndent with two spaces.\nNo final newline here."
	// EmptyURI is a text resource whose text is empty.
	EmptyURI = "/docs/empty"
	// IndexURI has a scheme, "docs", that a server may be named after:
	// "docs:index" read from a server named docs is the whole URI.
	IndexURI = "docs:index"
	// ShadowURI is StyleGuideURI behind the scheme "docs": from a server
	// named docs, "docs:/docs/style-guide" is either resource.
	ShadowURI = "docs:" + StyleGuideURI
	// FailureText is what the fail tool reports, as an error result.
	FailureText = "the tool failed: no such record"
)

// addContent offers, for -content: the resources StyleGuideURI, EmptyURI,
// IndexURI and ShadowURI,
// the prompt "embedded" (a text message, then each resource embedded in a
// message of its own) and the tool "fail", whose result is an error
// (isError).
func (f *fault) addContent(srv *mcp.Server) {
	read := func(text string) mcp.ResourceHandler {
		return func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/markdown", Text: text}}}, nil
		}
	}
	srv.AddResource(&mcp.Resource{URI: StyleGuideURI, Name: "style-guide", MIMEType: "text/markdown"}, read(StyleGuideText))
	srv.AddResource(&mcp.Resource{URI: EmptyURI, Name: "empty", MIMEType: "text/markdown"}, read(""))
	srv.AddResource(&mcp.Resource{URI: IndexURI, Name: "index", MIMEType: "text/plain"}, read("the index"))
	srv.AddResource(&mcp.Resource{URI: ShadowURI, Name: "shadow", MIMEType: "text/plain"}, read("the shadow"))
	srv.AddPrompt(&mcp.Prompt{Name: "embedded", Description: "a prompt with embedded resources"},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Description: "a prompt with embedded resources", Messages: []*mcp.PromptMessage{
				{Role: "user", Content: &mcp.TextContent{Text: "Follow the style guide."}},
				{Role: "user", Content: &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: StyleGuideURI, MIMEType: "text/markdown", Text: StyleGuideText}}},
				{Role: "user", Content: &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: EmptyURI, MIMEType: "text/markdown"}}},
			}}, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "fail", Description: "report an error as the tool's result (isError)"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		f.answered.Add(1)
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: FailureText}}}, nil, nil
	})
}

// emptyText puts back the empty text of EmptyURI's contents in a message
// about to be written: the go-sdk leaves out an empty "text", which MCP
// requires and a server written otherwise sends.
func emptyText(msg []byte) []byte {
	uri := []byte(`"uri":"` + EmptyURI + `"`)
	if !bytes.Contains(msg, uri) || !(bytes.Contains(msg, []byte(`"contents"`)) || bytes.Contains(msg, []byte(`"messages"`))) {
		return msg
	}
	return bytes.ReplaceAll(msg, uri, append(uri, `,"text":""`...))
}
