package servers

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/config"
)

// floodServer is a go-sdk server whose every tools/list_changed is sent
// flood times, and whose tool "grow" adds the tool it names. With
// failLists set, that many tools/list requests after the last notification
// of a flood fail, as a server busy with its own flood may fail them.
type floodServer struct {
	srv       *mcp.Server
	flood     int
	failLists atomic.Int32
	failNext  atomic.Int32
}

func newFloodServer(flood int) *floodServer {
	f := &floodServer{srv: mcp.NewServer(&mcp.Implementation{Name: "flood", Version: "1"}, nil), flood: flood}
	f.srv.AddSendingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "notifications/tools/list_changed" {
				return next(ctx, method, req)
			}
			for range f.flood - 1 {
				if _, err := next(ctx, method, req); err != nil {
					return nil, err
				}
			}
			f.failNext.Store(f.failLists.Load())
			return next(ctx, method, req)
		}
	})
	f.srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" && f.failNext.Add(-1) >= 0 {
				return nil, errors.New("too busy to list")
			}
			return next(ctx, method, req)
		}
	})
	mcp.AddTool(f.srv, &mcp.Tool{Name: "grow"}, func(_ context.Context, _ *mcp.CallToolRequest, in growArgs) (*mcp.CallToolResult, any, error) {
		mcp.AddTool(f.srv, &mcp.Tool{Name: in.Name}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{}, nil, nil
		})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "grown"}}}, nil, nil
	})
	return f
}

type growArgs struct {
	Name string `json:"name"`
}

func (f *floodServer) spec() (config.ServerSpec, func(context.Context, config.ServerSpec) (*mcp.Server, error)) {
	return config.ServerSpec{Name: "f", Transport: config.TransportBuiltin, Builtin: "flood"},
		func(context.Context, config.ServerSpec) (*mcp.Server, error) { return f.srv, nil }
}

// awaitTool reports whether the exposed tool name becomes known within
// 10s. It polls: outside the manager, only OnChange tells of a new list,
// and the test makes that listener slow.
func awaitTool(m *Manager, name string) bool {
	return poll(10*time.Millisecond, func() bool {
		_, _, ok := m.Lookup(name)
		return ok
	})
}

// TestListChangesAreAlwaysFetchedAgain: after a flood of tools/list_changed
// notifications (20,000 for each change) the manager always lists the
// tools again after the last one and ends with the server's new list,
// even while whoever hears of changes is slow to take them, and when the
// listing fails for a while.
func TestListChangesAreAlwaysFetchedAgain(t *testing.T) {
	t.Run("a slow listener", func(t *testing.T) {
		f := newFloodServer(20000)
		spec, builtin := f.spec()
		release := make(chan struct{})
		var heard atomic.Int32
		m := startManager(t, Options{Builtin: builtin, OnChange: func(Change) {
			heard.Add(1)
			<-release // a listener busy elsewhere (a chat drawing a question)
		}}, spec)
		defer close(release)
		call(t, m, "f__grow", map[string]any{"name": "first"})
		if !awaitTool(m, "f__first") {
			t.Fatal("the first new tool never came")
		}
		call(t, m, "f__grow", map[string]any{"name": "second"})
		if !awaitTool(m, "f__second") {
			t.Fatalf("the tools were not listed again after the last notification (the listener heard %d changes)", heard.Load())
		}
	})
	t.Run("a listing that fails", func(t *testing.T) {
		// One notification: a flood's later ones would hide the failure
		// by asking again.
		f := newFloodServer(1)
		f.failLists.Store(2)
		spec, builtin := f.spec()
		m := startManager(t, Options{Builtin: builtin}, spec)
		call(t, m, "f__grow", map[string]any{"name": "late"})
		if !awaitTool(m, "f__late") {
			t.Fatal("a listing that failed was not tried again")
		}
	})
}

func TestMergeChanges(t *testing.T) {
	a := Change{Server: "s", Kind: KindTools, Added: []string{"x", "y"}, Removed: []string{"z"}}
	b := Change{Server: "s", Kind: KindTools, Added: []string{"z", "w"}, Removed: []string{"x"}}
	got := mergeChanges(a, b)
	if !slices.Equal(got.Added, []string{"y", "w"}) || len(got.Removed) != 0 {
		t.Errorf("merged = %+v", got)
	}
}
