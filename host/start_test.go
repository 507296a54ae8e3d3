package host_test

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/ollamatest"
)

// webServer is an MCP server over Streamable HTTP with one tool, echo,
// that answers 503 to everything while broken is true.
func webServer(t *testing.T, broken *atomic.Bool) config.ServerSpec {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "web", Version: "1"}, nil)
	type args struct {
		Text string `json:"text"`
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "echo", Description: "echo back"}, func(_ context.Context, _ *mcp.CallToolRequest, in args) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
	})
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if broken.Load() {
			http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
			return
		}
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(web.Close)
	return config.ServerSpec{Name: "web", Transport: config.TransportHTTP, URL: web.URL, MaxRestarts: -1}
}

func TestALazyServerThatFailsAtItsFirstCallIsSeen(t *testing.T) {
	var broken atomic.Bool
	spec := webServer(t, &broken)
	cache := t.TempDir()
	ctx := context.Background()
	// A first run, eager, fills the cache.
	first, err := host.New(ctx, host.Options{Config: noFiles("", "", spec), Start: host.StartAll, CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := first.CallTool(ctx, "web__echo", map[string]any{"text": "hi"}); err != nil {
		t.Fatal(err)
	}
	first.Close()
	if entries, _ := os.ReadDir(cache); len(entries) == 0 {
		t.Fatal("the first run cached nothing in Options.CacheDir")
	}

	// The server breaks; the next run starts lazily from the cache.
	broken.Store(true)
	model := ollamatest.NewServer(ollamatest.Model{Name: "tiny"})
	defer model.Close()
	model.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("web__echo", map[string]any{"text": "hi"})}},
		ollamatest.Reply{Content: "the server is down"},
	)
	cfg := noFiles("ollama:tiny", model.URL, spec)
	cfg.Approval.Allow = []string{"web__*"}
	h, err := host.New(ctx, host.Options{Config: cfg, CacheDir: cache})
	if err != nil {
		t.Fatalf("New with the server's tools cached: %v", err)
	}
	defer h.Close()
	if st := h.Servers()[0]; !st.Cached || st.StartErr != nil {
		t.Fatalf("before its first call the server is %+v; want idle, from the cache", st)
	}
	var event host.ToolCallFinished
	res, err := h.PromptFunc(ctx, "echo hi", func(ev host.Event) {
		if f, ok := ev.(host.ToolCallFinished); ok {
			event = f
		}
	})
	if err != nil || res.Answer != "the server is down" {
		t.Fatalf("turn: %q, %v", res.Answer, err)
	}
	for what, call := range map[string]host.ToolCallFinished{"ToolCallFinished": event, "Result.ToolCalls": res.ToolCalls[0]} {
		if !call.IsError || !strings.Contains(call.Output, `server "web"`) || !strings.Contains(call.Output, "503") {
			t.Errorf("%s: %+v; want an error naming the server and its HTTP status", what, call)
		}
	}
	// The model was told why.
	if reqs := model.Requests(); len(reqs) != 2 || !strings.Contains(reqs[1].Messages[len(reqs[1].Messages)-1].Content, "503") {
		t.Errorf("the model was not told the server's failure: %+v", reqs)
	}
	var se *host.ServerError
	if st := h.Servers()[0]; !errors.As(st.StartErr, &se) || se.Server != "web" {
		t.Errorf("Servers: StartErr %v; want the *ServerError of web", st.StartErr)
	}
	// CallTool, on another Host, started lazily too.
	other, err := host.New(ctx, host.Options{Config: noFiles("", "", spec), CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	_, err = other.CallTool(ctx, "web__echo", map[string]any{"text": "again"})
	if !errors.Is(err, host.ErrServerStart) || !errors.Is(err, host.ErrServerUnavailable) || !errors.As(err, &se) || se.Server != "web" {
		t.Errorf("CallTool on the failed server: %v", err)
	}
}

func TestAConfigGivenInCodeWritesNothingUnderHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, v := range []string{"XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "MCPHOST_NO_CACHE"} {
		t.Setenv(v, "")
	}
	t.Chdir(t.TempDir())
	var broken atomic.Bool
	spec := webServer(t, &broken)
	// The user's configuration names the same server: read by the Host
	// (Config nil), it caches the server's tools in the user's cache.
	userFile := filepath.Join(home, ".mcphost.yml")
	if err := os.WriteFile(userFile, []byte("mcpServers:\n  web:\n    type: http\n    url: "+spec.URL+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	underHome := func() []string {
		var written []string
		_ = filepath.WalkDir(home, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && path != userFile {
				written = append(written, path)
			}
			return nil
		})
		return written
	}
	ctx := context.Background()
	use := func(t *testing.T, opts host.Options) {
		t.Helper()
		for range 2 { // the second run would read what the first wrote
			h, err := host.New(ctx, opts)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := h.CallTool(ctx, "web__echo", map[string]any{"text": "hi"}); err != nil {
				t.Fatal(err)
			}
			h.Close()
		}
	}
	loaded, err := host.LoadConfig(host.LoadOptions{})
	if err != nil || len(loaded.Servers) != 1 {
		t.Fatalf("LoadConfig: %+v, %v", loaded, err)
	}
	noFilesLoaded, err := host.LoadConfig(host.LoadOptions{NoFiles: true})
	if err != nil {
		t.Fatal(err)
	}
	noFilesLoaded.Servers = []config.ServerSpec{spec}
	for name, cfg := range map[string]*config.Settings{
		"DefaultConfig":        noFiles("", "", spec),
		"LoadConfig, no files": noFilesLoaded,
		"LoadConfig":           loaded,
	} {
		t.Run(name, func(t *testing.T) {
			use(t, host.Options{Config: cfg})
			if written := underHome(); len(written) > 0 {
				t.Errorf("a Host given its Config wrote under $HOME: %q", written)
			}
		})
	}
	// CacheDir asks for a cache, wherever it is.
	cache := filepath.Join(home, "my-cache")
	use(t, host.Options{Config: noFiles("", "", spec), CacheDir: cache})
	if entries, _ := os.ReadDir(cache); len(entries) == 0 {
		t.Error("nothing was cached in CacheDir")
	}
	if err := os.RemoveAll(cache); err != nil {
		t.Fatal(err)
	}
	// The user's configuration, read by the Host, keeps the command's cache.
	use(t, host.Options{})
	if len(underHome()) == 0 {
		t.Error("a Host reading the user's configuration cached nothing in the user's cache folder")
	}
}
