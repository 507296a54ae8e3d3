package ui

import (
	"strings"
	"testing"

	"github.com/mcphost/mcphost/tool"
)

// TestWriteContentsKeepsTheBytes: text is printed as it is, a newline
// separates two pieces only when the first lacks one, and only a
// terminal gets a last newline added.
func TestWriteContentsKeepsTheBytes(t *testing.T) {
	text := func(s string) tool.Content { return tool.Content{Kind: tool.Text, Text: s} }
	resource := func(s string) tool.Content { return tool.Content{Kind: tool.Resource, URI: "/r", Text: s} }
	blob := tool.Content{Kind: tool.Resource, URI: "/b", MIMEType: "image/png", Data: []byte{1, 2, 3}}
	tests := []struct {
		name     string
		contents []tool.Content
		tty      bool
		want     string
	}{
		{"one text without a final newline", []tool.Content{text("a\nb")}, false, "a\nb"},
		{"one text with one", []tool.Content{text("a\n")}, false, "a\n"},
		{"an empty text resource", []tool.Content{resource("")}, false, ""},
		{"two texts, separated", []tool.Content{text("a"), resource("b")}, false, "a\nb"},
		{"two texts, the first ending a line", []tool.Content{text("a\n"), text("b")}, false, "a\nb"},
		{"a blob is described", []tool.Content{blob}, false, "[resource /b, image/png, 3 bytes]\n"},
		{"text after a blob", []tool.Content{blob, text("x")}, false, "[resource /b, image/png, 3 bytes]\nx"},
		{"a terminal ends the line", []tool.Content{text("a")}, true, "a\n"},
	}
	for _, tt := range tests {
		var b strings.Builder
		if err := WriteContents(&b, tt.contents, tt.tty); err != nil {
			t.Fatal(err)
		}
		if b.String() != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, b.String(), tt.want)
		}
	}
}
