package e2e

// Issue 29, hole 13 through the binary: the built-in fetch with a proxy
// from the environment on loopback.

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/ollamatest"
)

// TestFetchDoesNotReachItsLoopbackProxy: with HTTP_PROXY on loopback (a
// local corporate proxy), fetch gets a public page through it; then the
// model asks for the proxy's own address, which was reachable once a
// request had gone through the proxy. It is refused as a loopback address
// and the proxy's own page is not read.
func TestFetchDoesNotReachItsLoopbackProxy(t *testing.T) {
	t.Parallel()
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		if r.URL.IsAbs() {
			fmt.Fprintf(w, "the web page at %s", r.URL)
			return
		}
		fmt.Fprint(w, "PROXY ADMIN: upstream password hunter2")
	}))
	defer proxy.Close()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fetch__fetch", map[string]any{"url": "http://93.184.215.14/news"})}},
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fetch__fetch", map[string]any{"url": proxy.URL + "/admin"})}},
		ollamatest.Reply{Content: "done"},
	)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcphost.yml", "mcpServers:\n  fetch: {type: builtin, name: fetch}\n")
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "read the news", "--allow-tool", "fetch__*"}, dir: dir, host: ollama.URL,
		env: []string{"HTTP_PROXY=" + proxy.URL, "http_proxy=" + proxy.URL, "NO_PROXY=", "no_proxy="}})
	if out.code != 0 || out.stdout != "done\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	reqs := ollama.Requests()
	if got := toolResultsByName(reqs[1])["fetch__fetch"]; !strings.Contains(got, "the web page at http://93.184.215.14/news") {
		t.Errorf("the public page through the proxy: %q", got)
	}
	got := lastMessage(reqs[2]).Content
	if strings.Contains(got, "hunter2") || !strings.Contains(got, "connects to 127.0.0.1, a loopback address") {
		t.Errorf("the proxy's own address: the model got %q", got)
	}
}
