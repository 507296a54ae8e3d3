package tool

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestResultText(t *testing.T) {
	r := &Result{Content: []Content{
		{Kind: Text, Text: "a"},
		{Kind: Image, MIMEType: "image/png", Data: make([]byte, 2048)},
		{Kind: Resource, URI: "file:///x", Text: "b"},
	}, Structured: map[string]any{"n": 1}}
	if got := r.Text(); got != "a\nb" {
		t.Errorf("Text() = %q: text content and text resources, structured content left out", got)
	}
	only := &Result{Structured: map[string]any{"n": 1}}
	if got := only.Text(); got != `{"n":1}` || only.HasText() {
		t.Errorf("structured alone: %q", got)
	}
}

func TestDescribe(t *testing.T) {
	tests := map[string]Content{
		"[image image/png, 2.0 KB]":             {Kind: Image, MIMEType: "image/png", Data: make([]byte, 2048)},
		"[audio -, 0 bytes]":                    {Kind: Audio},
		"[resource file:///x.bin, -, 3 bytes]":  {Kind: Resource, URI: "file:///x.bin", Data: []byte("abc")},
		"[resource link file:///y (y: a file)]": {Kind: Link, URI: "file:///y", Name: "y", Description: "a file"},
		"[content of an unknown kind]":          {Kind: Unknown},
		"plain":                                 {Kind: Text, Text: "plain"},
	}
	for want, c := range tests {
		if got := c.Describe(); got != want {
			t.Errorf("Describe(%+v) = %q, want %q", c, got, want)
		}
	}
}

func TestParseArgs(t *testing.T) {
	args, err := ParseArgs(`{"n": 12345678901234567890, "s": "x"}`)
	if err != nil || args["s"] != "x" || args["n"].(json.Number).String() != "12345678901234567890" {
		t.Errorf("ParseArgs: %v, %v", args, err)
	}
	if args, err := ParseArgs("  "); err != nil || len(args) != 0 {
		t.Errorf("no arguments: %v, %v", args, err)
	}
	for _, bad := range []string{"[1]", "{} {}", "null", "{", `"x"`} {
		if _, err := ParseArgs(bad); err == nil || !strings.Contains(err.Error(), "one JSON object") {
			t.Errorf("ParseArgs(%q): %v", bad, err)
		}
	}
}
