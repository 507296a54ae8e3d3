package host_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
)

// TestToolsAreListedAgainAfterAFloodOfChanges: a server that sends every
// tools/list_changed 20,000 times, then changes its tools again, ends with
// the Host offering its new tools, although whoever hears of changes
// (Options.OnChange, the chat in mcphost) is slow to take them.
func TestToolsAreListedAgainAfterAFloodOfChanges(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "flood", Version: "1"}, nil)
	srv.AddSendingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "notifications/tools/list_changed" {
				for range 20000 - 1 {
					if _, err := next(ctx, method, req); err != nil {
						return nil, err
					}
				}
			}
			return next(ctx, method, req)
		}
	})
	add := func(name string) {
		mcp.AddTool(srv, &mcp.Tool{Name: name}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{}, nil, nil
		})
	}
	add("ping")
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer ts.Close()
	defer ts.CloseClientConnections()

	heard := make(chan struct{}, 1)
	release := make(chan struct{})
	h, err := host.New(context.Background(), host.Options{Warn: func(string) {},
		Config: noFiles("", "", config.ServerSpec{Name: "web", Transport: config.TransportHTTP, URL: ts.URL}),
		OnChange: func(host.ListChange) {
			select {
			case heard <- struct{}{}:
			default:
			}
			<-release // busy elsewhere, as a chat drawing a question is
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	defer close(release)

	add("first")
	<-heard
	add("second")
	// Polled: the one event of a new list, OnChange, is the slow listener.
	has := func() bool {
		return slices.ContainsFunc(h.Tools(), func(ti host.ToolInfo) bool { return ti.Name == "web__second" })
	}
	deadline := time.Now().Add(15 * time.Second)
	for !has() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !has() {
		var names []string
		for _, ti := range h.Tools() {
			names = append(names, ti.Name)
		}
		t.Errorf("after the last notification the Host offers %v, without web__second", names)
	}
}
