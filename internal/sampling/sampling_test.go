package sampling

import (
	"context"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/tool"
)

func TestPolicy(t *testing.T) {
	req := ask.SamplingRequest{Server: "everything", Messages: []ask.SamplingMessage{
		{Role: "user", Content: []tool.Content{{Kind: tool.Text, Text: "first"}}},
		{Role: "user", Content: []tool.Content{{Kind: tool.Text, Text: "What is\nsix times seven?"}}},
	}}
	var notes []string
	ok, err := Policy(config.ServerSamplingDeny, func(s string) { notes = append(notes, s) })(context.Background(), req)
	if ok || err != nil || len(notes) != 1 ||
		notes[0] != `server "everything" asked the model for a completion ("What is six times seven?") and was refused: run with --sampling allow to let servers use the model` {
		t.Errorf("deny: %v %v %q", ok, err, notes)
	}
	notes = nil
	ok, err = Policy(config.ServerSamplingAllow, func(s string) { notes = append(notes, s) })(context.Background(), req)
	if !ok || err != nil || len(notes) != 0 {
		t.Errorf("allow: %v %v %q", ok, err, notes)
	}
}

func TestSummary(t *testing.T) {
	long := ask.SamplingRequest{Messages: []ask.SamplingMessage{{Content: []tool.Content{{Kind: tool.Text, Text: strings.Repeat("é", 100)}}}}}
	if got := long.Summary(10); got != `"`+strings.Repeat("é", 10)+`…"` {
		t.Errorf("long: %s", got)
	}
	img := ask.SamplingRequest{Messages: []ask.SamplingMessage{{Content: []tool.Content{{Kind: tool.Image, MIMEType: "image/png", Data: []byte("PNG")}}}}}
	if got := img.Summary(80); got != `"[image image/png, 3 bytes]"` {
		t.Errorf("image: %s", got)
	}
	if got := (ask.SamplingRequest{}).Summary(80); got != "no message" {
		t.Errorf("empty: %s", got)
	}
}
