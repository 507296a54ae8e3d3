package servers

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestContentJSONIsMCPsShape: prompt content and resource contents keep
// MCP's shape as the server sent it, an empty text included, and their
// text reads as it is ("<" rather than \u003c).
func TestContentJSONIsMCPsShape(t *testing.T) {
	tests := []struct {
		name string
		got  []byte
		want string
	}{
		{"text", contentJSON(&mcp.TextContent{Text: "a <b> & c"}), `{"type":"text","text":"a <b> & c"}`},
		{"embedded text", contentJSON(&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "/g", MIMEType: "text/markdown", Text: "x"}}),
			`{"type":"resource","resource":{"uri":"/g","mimeType":"text/markdown","text":"x"}}`},
		{"embedded empty text", contentJSON(&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "/e"}}),
			`{"type":"resource","resource":{"uri":"/e","text":""}}`},
		{"blob", resourceJSON(&mcp.ResourceContents{URI: "b:1", MIMEType: "image/png", Blob: []byte{1, 2}}), `{"uri":"b:1","mimeType":"image/png","blob":"AQI="}`},
		{"a backslash before u003c", contentJSON(&mcp.TextContent{Text: `\u003c`}), `{"type":"text","text":"\\u003c"}`},
	}
	for _, tt := range tests {
		if string(tt.got) != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, tt.got, tt.want)
		}
	}
}
