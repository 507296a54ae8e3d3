package builtin

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connect opens a client session to srv over the SDK's in-memory
// transport, the way the servers package reaches built-in servers.
func connect(t *testing.T, srv *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	clientEnd, serverEnd := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, serverEnd, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, clientEnd, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Close()
	})
	return cs
}

// call calls a tool and returns its text and whether it reported an error.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (string, bool) {
	t.Helper()
	return callCtx(context.Background(), t, cs, tool, args)
}

func callCtx(ctx context.Context, t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// mustOK calls a tool that must succeed.
func mustOK(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) string {
	t.Helper()
	text, isErr := call(t, cs, tool, args)
	if isErr {
		t.Fatalf("%s(%v) failed: %s", tool, args, text)
	}
	return text
}

// mustFail calls a tool that must fail with a message containing want.
func mustFail(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, want string) string {
	t.Helper()
	text, isErr := call(t, cs, tool, args)
	if !isErr || !strings.Contains(text, want) {
		t.Errorf("%s(%v) = %q (error %v), want an error containing %q", tool, args, text, isErr, want)
	}
	return text
}
