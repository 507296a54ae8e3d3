package servers

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/config"
)

// TestAnHTTPAnswerPastTheBoundFailsItsCall: over Streamable HTTP, a tool
// result larger than the message bound fails that call with an error
// naming the server; a JSON answer leaves the session alive (as a stdio
// line does), an event past the bound ends it and the server is then
// said to have sent too much.
func TestAnHTTPAnswerPastTheBoundFailsItsCall(t *testing.T) {
	for _, c := range []struct {
		name string
		json bool
		want string
	}{
		{"json", true, `server "web": tool "big" failed: the server sent an answer to tools/call of more than 64.0 KB, over mcphost's limit; ask for less`},
		{"event stream", false, `server "web" sent a message of more than 64.0 KB, mcphost's limit for one message, so it was refused`},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := mcp.NewServer(&mcp.Implementation{Name: "web", Version: "1"}, nil)
			mcp.AddTool(srv, &mcp.Tool{Name: "big"}, func(_ context.Context, _ *mcp.CallToolRequest, in struct {
				Size int `json:"size"`
			}) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("x", in.Size)}}}, nil, nil
			})
			ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
				&mcp.StreamableHTTPOptions{JSONResponse: c.json}))
			defer ts.Close()
			defer ts.CloseClientConnections()
			m := startManager(t, Options{MaxMessageBytes: 64 << 10}, config.ServerSpec{Name: "web", Transport: config.TransportHTTP, URL: ts.URL})
			if got := call(t, m, "web__big", map[string]any{"size": 1000}); len(got) != 1000 {
				t.Fatalf("a small answer: %d bytes", len(got))
			}
			_, err := m.Call(t.Context(), "web__big", map[string]any{"size": 200 << 10})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
			if c.json {
				if got := call(t, m, "web__big", map[string]any{"size": 10}); got != strings.Repeat("x", 10) {
					t.Errorf("after the refused answer: %q", got)
				}
			}
		})
	}
}
