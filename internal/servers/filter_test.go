package servers

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/tool"
)

func TestStdoutFilter(t *testing.T) {
	big := `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", 300) + `"}]}}`
	bigIDLast := `{"result":{"content":[{"type":"text","text":"` + strings.Repeat("y", 300) + `"}]},"jsonrpc":"2.0","id":"req-8"}`
	in := strings.Join([]string{
		"Starting server on stdio...",
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		"",
		`{"level":"info","id":5,"msg":"a JSON log line"}`,
		`  {"jsonrpc":"2.0","method":"notifications/progress","params":{}}  `,
		`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"te`, // cut in half
		`{"jsonrpc":"2.0","method":"x","id":9,"params":{`,          // a broken request: not ours to answer
		big,
		bigIDLast,
		`[{"jsonrpc":"2.0","id":3,"result":{}}]`,
		"[not json",
		`{"jsonrpc":"2.0","id":4,"result":{}}`, // last line without newline
	}, "\n")
	var junk []string
	f := newStdoutFilter(strings.NewReader(in), 200, func(l string) { junk = append(junk, l) })
	out, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	want := []string{
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`,
		`{"error":{"code":-32603,"message":"the server sent a response that is not valid JSON"},"id":2,"jsonrpc":"2.0"}`,
		fmt.Sprintf(`{"error":{"code":-32603,"message":"the server sent a response of %d bytes, over mcphost's limit of 200 bytes; ask for less"},"id":7,"jsonrpc":"2.0"}`, len(big)+1),
		fmt.Sprintf(`{"error":{"code":-32603,"message":"the server sent a response of %d bytes, over mcphost's limit of 200 bytes; ask for less"},"id":"req-8","jsonrpc":"2.0"}`, len(bigIDLast)+1),
		`[{"jsonrpc":"2.0","id":3,"result":{}}]`,
		`{"jsonrpc":"2.0","id":4,"result":{}}`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("passed on:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, line := range got {
		if !json.Valid([]byte(line)) {
			t.Errorf("invalid JSON passed on: %s", line)
		}
	}
	wantJunk := []string{
		"Starting server on stdio...",
		`{"level":"info","id":5,"msg":"a JSON log line"}`,
		"invalid JSON in a response: " + `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"te`,
		`{"jsonrpc":"2.0","method":"x","id":9,"params":{`,
		fmt.Sprintf("dropped a response of %d bytes, over the limit of 200", len(big)+1),
		fmt.Sprintf("dropped a response of %d bytes, over the limit of 200", len(bigIDLast)+1),
		"[not json",
	}
	if !slices.Equal(junk, wantJunk) {
		t.Errorf("junk:\n%s\nwant:\n%s", strings.Join(junk, "\n"), strings.Join(wantJunk, "\n"))
	}
}

func TestIDScanner(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" means no response id
	}{
		{`{"jsonrpc":"2.0","id":12,"result":{"id":99}}`, "12"},
		{`{"result":{"id":99,"nested":[{"id":1}]},"id":"abc","jsonrpc":"2.0"}`, `"abc"`},
		{`{ "id" : 3 , "error" : {} }`, "3"},
		{`{"text":"a \"id\": 5 inside a string","id":6}`, "6"},
		{`{"method":"ping","id":7}`, ""},
		{`{"id":null}`, ""},
		{`{"id":{"x":1}}`, ""},
		{`[{"id":1}]`, ""},
		{`hello {"id":1}`, ""},
		{`{"` + strings.Repeat("k", 300) + `":1,"id":8}`, "8"},
	}
	for _, tt := range tests {
		// Fed in pieces of 3 bytes, as a stream arrives.
		var s idScanner
		for i := 0; i < len(tt.in); i += 3 {
			s.feed([]byte(tt.in[i:min(i+3, len(tt.in))]))
		}
		if got := string(s.responseID()); got != tt.want {
			t.Errorf("%.60s: id %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCleanLine(t *testing.T) {
	tests := map[string]string{
		"plain line":                       "plain line",
		"\x1b[31mred\x1b[0m":               "red",
		"\x1b]0;title\x07after":            "after",
		"\x1b]8;;http://x\x1b\\link":       "link",
		"tab\there\r\x07\x08 \xff\xfe end": "tab here  \uFFFD end", // CR is a line break
		"ünïcode ✓":                        "ünïcode ✓",
		"c1 \u009b31m":                     "c1 31m",
	}
	for in, want := range tests {
		if got := cleanLine(in); got != want {
			t.Errorf("cleanLine(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestToResultCuts(t *testing.T) {
	text := func(s string) *mcp.TextContent { return &mcp.TextContent{Text: s} }
	small := toResult(&mcp.CallToolResult{Content: []mcp.Content{text("short")}, StructuredContent: map[string]any{"a": 1}}, 10)
	if small.Text() != "short" || small.Structured == nil || small.Raw == nil {
		t.Errorf("a small result was changed: %+v", small)
	}

	res := &mcp.CallToolResult{
		Content: []mcp.Content{
			text("ééééé"), // 10 bytes
			&mcp.ImageContent{MIMEType: "image/png", Data: []byte("png")},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///a", Text: "0123456789"}},
			text("never seen"),
		},
		StructuredContent: map[string]any{"big": strings.Repeat("z", 100)},
		IsError:           true,
	}
	got := toResult(res, 15)
	if got.Structured != nil || got.Raw != nil || !got.IsError || len(got.Content) != 4 {
		t.Fatalf("cut result: %+v", got)
	}
	if c := got.Content[0]; c.Kind != tool.Text || c.Text != "ééééé" {
		t.Errorf("first text %+v", c)
	}
	if c := got.Content[1]; c.Kind != tool.Image || string(c.Data) != "png" {
		t.Errorf("image dropped: %+v", c)
	}
	if c := got.Content[2]; c.Kind != tool.Resource || c.Text != "01234" || c.URI != "file:///a" {
		t.Errorf("resource %+v", c)
	}
	if s := got.Content[3].Text; !strings.Contains(s, "cut from 30 bytes to 15 bytes") {
		t.Errorf("note %q", s)
	}
	if res.Content[2].(*mcp.EmbeddedResource).Resource.Text != "0123456789" {
		t.Error("the original result was modified")
	}
	// A cut inside a character keeps the character whole or drops it.
	if s := toResult(&mcp.CallToolResult{Content: []mcp.Content{text("aé")}}, 2).Content[0].Text; s != "a" {
		t.Errorf("cut in a character: %q", s)
	}

	structured := toResult(&mcp.CallToolResult{StructuredContent: map[string]any{"rows": strings.Repeat("r", 50)}}, 20)
	if structured.Structured != nil || len(structured.Content) != 1 || !strings.HasPrefix(structured.Content[0].Text, `{"rows":"rrrrrrrrrrr`) {
		t.Errorf("cut structured result: %+v", structured.Content)
	}
}
