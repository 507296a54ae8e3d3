package servers

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/ask"
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

func TestElicitationReachesTheHandlerNamed(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "inproc", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "ask"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Your name?",
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}})
		if err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("%s %v", res.Action, res.Content["name"])}}}, nil, nil
	})
	var got ask.FormRequest
	m := NewManager([]config.ServerSpec{{Name: "forms", Transport: config.TransportBuiltin, Builtin: "x"}}, Options{
		Builtin: func(context.Context, config.ServerSpec) (*mcp.Server, error) { return srv, nil },
		Elicitation: func(_ context.Context, req ask.FormRequest) (ask.FormAnswer, error) {
			got = req
			return ask.FormAnswer{Action: ask.Accept, Content: map[string]any{"name": "Ann"}}, nil
		},
	})
	defer m.Close()
	if errs := m.Start(context.Background()); len(errs) != 0 {
		t.Fatal(errs)
	}
	res, err := m.Call(context.Background(), "forms__ask", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Text() != "accept Ann" {
		t.Errorf("the server got %q, want the answer accept Ann", res.Text())
	}
	if got.Server != "forms" || got.Message != "Your name?" || got.Mode != "form" || !strings.Contains(string(got.Schema), `"name"`) {
		t.Errorf("the handler got %+v", got)
	}
}
