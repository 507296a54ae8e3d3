package servers

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/config"
)

func TestToolInfoReturnsAnnotations(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "inproc", Version: "1"}, nil)
	handler := func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{}, nil, nil
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "look", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, handler)
	mcp.AddTool(srv, &mcp.Tool{Name: "touch.file"}, handler)
	m := NewManager([]config.ServerSpec{{Name: "in", Transport: config.TransportBuiltin, Builtin: "x"}},
		Options{Builtin: func(context.Context, config.ServerSpec) (*mcp.Server, error) { return srv, nil }})
	defer m.Close()
	if errs := m.Start(context.Background()); len(errs) != 0 {
		t.Fatal(errs)
	}

	look, ok := m.ToolInfo("in__look")
	if !ok || look.Name != "look" || look.Annotations == nil || !look.Annotations.ReadOnlyHint {
		t.Errorf("ToolInfo(in__look) = %+v, %v; want the tool with readOnlyHint", look, ok)
	}
	// The exposed name is sanitised; ToolInfo still finds the server's tool.
	touch, ok := m.ToolInfo("in__touch_file")
	if !ok || touch.Name != "touch.file" || touch.Annotations != nil {
		t.Errorf("ToolInfo(in__touch_file) = %+v, %v; want touch.file without annotations", touch, ok)
	}
	if _, ok := m.ToolInfo("in__nope"); ok {
		t.Error("ToolInfo found a tool that does not exist")
	}
}
