package elicit_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/elicit"
)

// ask connects a client using handler to an in-memory server whose tool
// sends schema as an elicitation, and returns what the server received.
func ask(t *testing.T, handler func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error), params *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	t.Helper()
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "form", Version: "1"}, nil)
	var got *mcp.ElicitResult
	var gotErr error
	mcp.AddTool(server, &mcp.Tool{Name: "ask"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		got, gotErr = req.Session.Elicit(ctx, params)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
	})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "mcphost", Version: "test"}, &mcp.ClientOptions{ElicitationHandler: handler})
	// mcphost offers 2025-11-25 (see servers), where a tool may elicit.
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if cs.InitializeResult() == nil {
		t.Fatal("no initialize result")
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ask"}); err != nil {
		t.Fatal(err)
	}
	return got, gotErr
}

// form is SEP-1034's test form: every field optional, each with a default.
var form = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"name":     map[string]any{"type": "string", "default": "John Doe"},
		"age":      map[string]any{"type": "integer", "default": 30},
		"score":    map[string]any{"type": "number", "default": 95.5},
		"status":   map[string]any{"type": "string", "enum": []any{"active", "inactive"}, "default": "active"},
		"verified": map[string]any{"type": "boolean", "default": true},
	},
}

func TestAcceptDefaultsFillsTheForm(t *testing.T) {
	var notes []string
	res, err := ask(t, elicit.Handler(elicit.AcceptDefaults, func(s string) { notes = append(notes, s) }),
		&mcp.ElicitParams{Message: "Your details?", RequestedSchema: form})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(res.Content)
	want := `{"age":30,"name":"John Doe","score":95.5,"status":"active","verified":true}`
	if res.Action != "accept" || string(got) != want {
		t.Errorf("server got %s %s, want accept %s", res.Action, got, want)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "Your details?") || !strings.Contains(notes[0], "accepted with the server's defaults") {
		t.Errorf("notes = %q", notes)
	}
}

func TestDeclineCases(t *testing.T) {
	required := map[string]any{
		"type":       "object",
		"properties": map[string]any{"token": map[string]any{"type": "string"}, "n": map[string]any{"type": "integer", "default": 1}},
		"required":   []any{"token", "n"},
	}
	tests := []struct {
		name   string
		mode   string
		params *mcp.ElicitParams
		note   string
	}{
		{"decline mode", elicit.Decline, &mcp.ElicitParams{Message: "m", RequestedSchema: form}, "--elicitation accept-defaults"},
		{"unknown mode declines", "", &mcp.ElicitParams{Message: "m", RequestedSchema: form}, "declined"},
		{"required field without default", elicit.AcceptDefaults, &mcp.ElicitParams{Message: "m", RequestedSchema: required}, `field "token" has no default`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var notes []string
			res, err := ask(t, elicit.Handler(tt.mode, func(s string) { notes = append(notes, s) }), tt.params)
			if err != nil {
				t.Fatal(err)
			}
			if res.Action != "decline" || len(res.Content) != 0 {
				t.Errorf("server got %+v, want decline", res)
			}
			if len(notes) != 1 || !strings.Contains(notes[0], tt.note) {
				t.Errorf("notes = %q, want one with %q", notes, tt.note)
			}
		})
	}
}
