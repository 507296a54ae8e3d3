package elicit_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/elicit"
)

// form is SEP-1034's test form: every field optional, each with a default.
const form = `{"type": "object", "properties": {
	"name":     {"type": "string", "default": "John Doe"},
	"age":      {"type": "integer", "default": 30},
	"score":    {"type": "number", "default": 95.5},
	"status":   {"type": "string", "enum": ["active", "inactive"], "default": "active"},
	"verified": {"type": "boolean", "default": true}}}`

func TestAcceptDefaultsFillsTheForm(t *testing.T) {
	var notes []string
	handler := elicit.Handler(config.ElicitAcceptDefaults, func(s string) { notes = append(notes, s) })
	res, err := handler(context.Background(), ask.FormRequest{Server: "forms", Message: "Your details?", Mode: "form", Schema: json.RawMessage(form)})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(res.Content)
	want := `{"age":30,"name":"John Doe","score":95.5,"status":"active","verified":true}`
	if res.Action != ask.Accept || string(got) != want {
		t.Errorf("answer %s %s, want accept %s", res.Action, got, want)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "Your details?") || !strings.Contains(notes[0], `server "forms"`) ||
		!strings.Contains(notes[0], "accepted with the server's defaults") {
		t.Errorf("notes = %q", notes)
	}
}

func TestDeclineCases(t *testing.T) {
	required := `{"type": "object", "properties": {"token": {"type": "string"}, "n": {"type": "integer", "default": 1}}, "required": ["token", "n"]}`
	tests := []struct {
		name string
		mode config.Elicitation
		req  ask.FormRequest
		note string
	}{
		{"decline mode", config.ElicitDecline, ask.FormRequest{Message: "m", Schema: json.RawMessage(form)}, "--elicitation accept-defaults"},
		{"unknown mode declines", "", ask.FormRequest{Message: "m", Schema: json.RawMessage(form)}, "declined"},
		{"url request", config.ElicitAcceptDefaults, ask.FormRequest{Message: "m", Mode: "url", URL: "https://example.com"}, "asks to open a URL"},
		{"unreadable form", config.ElicitAcceptDefaults, ask.FormRequest{Message: "m", Schema: json.RawMessage(`{"properties": 3}`)}, "cannot be read"},
		{"required field without default", config.ElicitAcceptDefaults, ask.FormRequest{Message: "m", Schema: json.RawMessage(required)}, `field "token" has no default`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var notes []string
			res, err := elicit.Handler(tt.mode, func(s string) { notes = append(notes, s) })(context.Background(), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if res.Action != ask.Decline || len(res.Content) != 0 {
				t.Errorf("answer %+v, want decline", res)
			}
			if len(notes) != 1 || !strings.Contains(notes[0], tt.note) {
				t.Errorf("notes = %q, want one with %q", notes, tt.note)
			}
		})
	}
}
