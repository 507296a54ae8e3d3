package servers

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/servers/oauth"
)

func TestLineRing(t *testing.T) {
	tests := []struct {
		size  int
		add   []string
		want  []string
		wantL string
	}{
		{size: 3, add: nil, want: []string{}, wantL: ""},
		{size: 3, add: []string{"a", "b"}, want: []string{"a", "b"}, wantL: "b"},
		{size: 3, add: []string{"a", "b", "c", "d", "e"}, want: []string{"c", "d", "e"}, wantL: "e"},
		{size: 2, add: []string{"a", "boom", " "}, want: []string{"boom", " "}, wantL: "boom"},
		{size: 0, add: []string{"a", "b"}, want: []string{"b"}, wantL: "b"},
	}
	for _, tt := range tests {
		r := newLineRing(tt.size)
		for _, l := range tt.add {
			r.add(l)
		}
		if got := r.snapshot(); !slices.Equal(got, tt.want) {
			t.Errorf("size %d after %q: snapshot = %q, want %q", tt.size, tt.add, got, tt.want)
		}
		if got := r.last(); got != tt.wantL {
			t.Errorf("size %d after %q: last = %q, want %q", tt.size, tt.add, got, tt.wantL)
		}
	}
}

func TestReadLines(t *testing.T) {
	long := strings.Repeat("x", maxStderrLine+100)
	in := "one\r\ntwo\n" + long + "\nlast"
	var got []string
	readLines(strings.NewReader(in), func(l string) { got = append(got, l) })
	want := []string{"one", "two", long[:maxStderrLine], "last"}
	if !slices.Equal(got, want) {
		t.Errorf("readLines got %d lines %.40q, want %.40q", len(got), got, want)
	}
}

func TestFilterTools(t *testing.T) {
	tools := []*mcp.Tool{{Name: "a"}, {Name: "b"}, {Name: "c"}}
	tests := []struct {
		allowed, excluded []string
		want              []string
	}{
		{nil, nil, []string{"a", "b", "c"}},
		{[]string{"c", "a"}, nil, []string{"a", "c"}},
		{nil, []string{"b"}, []string{"a", "c"}},
		{[]string{"a", "b"}, []string{"b"}, []string{"a"}},
		{[]string{"zzz"}, nil, nil},
	}
	for _, tt := range tests {
		var got []string
		for _, tl := range filterTools(tools, tt.allowed, tt.excluded) {
			got = append(got, tl.Name)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("allowed %q excluded %q: got %q, want %q", tt.allowed, tt.excluded, got, tt.want)
		}
	}
}

func TestProviderTool(t *testing.T) {
	tests := []struct {
		tool       *mcp.Tool
		wantDesc   string
		wantParams string
	}{
		{&mcp.Tool{Name: "x"}, "", emptySchema},
		{&mcp.Tool{Name: "x", Title: "T", Description: "D"}, "D", emptySchema},
		{&mcp.Tool{Name: "x", Title: "T"}, "T", emptySchema},
		{&mcp.Tool{Name: "x", Annotations: &mcp.ToolAnnotations{Title: "AT"}}, "AT", emptySchema},
		{
			&mcp.Tool{Name: "x", InputSchema: map[string]any{"type": "object", "required": []any{"a"}}},
			"", `{"required":["a"],"type":"object"}`,
		},
	}
	for _, tt := range tests {
		got := providerTool("s__x", toDef(tt.tool))
		if got.Name != "s__x" || got.Description != tt.wantDesc || string(got.Parameters) != tt.wantParams {
			t.Errorf("providerTool(%+v) = %q %q %s, want %q %s", tt.tool, got.Name, got.Description, got.Parameters, tt.wantDesc, tt.wantParams)
		}
		if !json.Valid(got.Parameters) {
			t.Errorf("parameters %s are not JSON", got.Parameters)
		}
	}
}

func TestHeaderTransport(t *testing.T) {
	var got http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
	}))
	defer srv.Close()

	client, ht, _ := newHTTPClient(srv.URL, map[string]string{"Authorization": "Bearer k", "x-api-key": "v"}, slog.New(slog.DiscardHandler), nil, nil, 0)
	req, err := http.NewRequest("GET", srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()

	for k, v := range map[string]string{"Authorization": "Bearer k", "X-Api-Key": "v", "Accept": "text/event-stream"} {
		if got.Get(k) != v {
			t.Errorf("header %s = %q, want %q", k, got.Get(k), v)
		}
	}
	if ht.lastFailure() != "" {
		t.Errorf("lastFailure after a 200: %q", ht.lastFailure())
	}
	if req.Header.Get("Authorization") != "" {
		t.Error("the caller's request was modified")
	}
}

// TestHeadersStayWithTheirOrigin follows redirects from the configured
// server: to a path of the same origin the headers go along; to another
// port (another origin, though the same host) they are dropped.
func TestHeadersStayWithTheirOrigin(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]string{} // "server path" → Authorization received
	record := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			seen[name+" "+r.URL.Path] = r.Header.Get("Authorization") + "|" + r.Header.Get("X-Api-Key")
			mu.Unlock()
		}
	}
	other := httptest.NewServer(record("other"))
	defer other.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/moved", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		record("configured")(w, r)
		http.Redirect(w, r, other.URL+"/stolen", http.StatusTemporaryRedirect)
	})
	configured := httptest.NewServer(mux)
	defer configured.Close()

	client, _, _ := newHTTPClient(configured.URL+"/mcp", map[string]string{"Authorization": "Bearer k", "x-api-key": "v"}, slog.New(slog.DiscardHandler), nil, nil, 0)
	resp, err := client.Get(configured.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	mu.Lock()
	defer mu.Unlock()
	if got := seen["configured /moved"]; got != "Bearer k|v" {
		t.Errorf("a redirect within the origin lost the headers: %q", got)
	}
	got, ok := seen["other /stolen"]
	if !ok {
		t.Fatalf("the redirect to the other server was not followed: %v", seen)
	}
	if got != "|" {
		t.Errorf("the configured headers went to another origin: %q", got)
	}
}

func TestOriginOf(t *testing.T) {
	same := [][2]string{{"https://h/mcp", "https://H:443/other"}, {"http://h", "http://h:80/x"}}
	differ := [][2]string{{"https://h", "http://h"}, {"http://h:8080", "http://h:8081"}, {"http://h", "http://h.evil"}}
	for _, p := range same {
		a, _ := url.Parse(p[0])
		b, _ := url.Parse(p[1])
		if oauth.OriginOf(a) != oauth.OriginOf(b) {
			t.Errorf("%s and %s should be one origin", p[0], p[1])
		}
	}
	for _, p := range differ {
		a, _ := url.Parse(p[0])
		b, _ := url.Parse(p[1])
		if oauth.OriginOf(a) == oauth.OriginOf(b) {
			t.Errorf("%s and %s should be different origins", p[0], p[1])
		}
	}
}

func TestBuiltinServerOverInMemoryTransport(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "inproc", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "hello"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hi from inside"}}}, nil, nil
	})
	m := NewManager([]config.ServerSpec{
		{Name: "in", Transport: config.TransportBuiltin, Builtin: "hello"},
		{Name: "missing", Transport: config.TransportBuiltin, Builtin: "nope"},
	}, Options{Builtin: func(_ context.Context, spec config.ServerSpec) (*mcp.Server, error) {
		if spec.Builtin != "hello" {
			return nil, fmt.Errorf("no built-in server %q", spec.Builtin)
		}
		return srv, nil
	}})
	defer m.Close()
	errs := m.Start(context.Background())
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), `"nope"`) {
		t.Fatalf("start errors = %v, want one naming the unknown builtin", errs)
	}
	res, err := m.Call(context.Background(), "in__hello", nil)
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Text(); text != "hi from inside" {
		t.Errorf("result = %q", text)
	}
}
