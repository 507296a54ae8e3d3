package servers

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"sync/atomic"

	"github.com/mcphost/mcphost/config"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// headerTransport adds the configured headers (an API key, usually) to
// every request the SDK makes: the POSTs, the SSE GETs and the DELETE.
// It also remembers the last HTTP error status, because the SDK's error for
// a refused initialize ("sending \"initialize\": Unauthorized") reads badly.
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
	failed  atomic.Int32 // last status >= 400, 0 if none
}

// RoundTrip implements http.RoundTripper.
func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 {
		// A RoundTripper must not modify the caller's request.
		req = req.Clone(req.Context())
		for k, v := range t.headers {
			req.Header.Set(k, v)
		}
	}
	resp, err := t.base.RoundTrip(req)
	if err == nil && resp.StatusCode >= 400 {
		t.failed.Store(int32(resp.StatusCode))
	}
	return resp, err
}

// lastFailure describes the last HTTP error status ("HTTP 401
// Unauthorized"), or returns "".
func (t *headerTransport) lastFailure() string {
	code := int(t.failed.Load())
	if code == 0 {
		return ""
	}
	return fmt.Sprintf("HTTP %d %s", code, http.StatusText(code))
}

// newHTTPClient returns a client of its own for one server, so that closing
// the server can drop its idle connections without touching the others.
// It has no overall timeout: an SSE stream stays open for the session.
func newHTTPClient(headers map[string]string) (*http.Client, *headerTransport, *http.Transport) {
	base := http.DefaultTransport.(*http.Transport).Clone()
	ht := &headerTransport{base: base, headers: maps.Clone(headers)}
	return &http.Client{Transport: ht}, ht, base
}

// newHTTPTransport returns the SDK transport for an http or sse spec.
func newHTTPTransport(spec config.ServerSpec, client *http.Client, life context.Context) mcp.Transport {
	if spec.Transport == config.TransportSSE {
		return &detachedTransport{
			inner: &mcp.SSEClientTransport{Endpoint: spec.URL, HTTPClient: client},
			life:  life,
		}
	}
	return &mcp.StreamableClientTransport{Endpoint: spec.URL, HTTPClient: client}
}

// detachedTransport connects its inner transport under the server's
// lifetime context instead of the start context. The SDK's SSE client ties
// its event stream to the context given to Connect, which would end the
// session the moment the start deadline is released.
type detachedTransport struct {
	inner mcp.Transport
	life  context.Context
}

type connResult struct {
	conn mcp.Connection
	err  error
}

// Connect implements mcp.Transport. It still honours ctx: on cancellation
// it returns at once; the inner attempt ends when life is cancelled, and a
// connection that arrives too late is closed.
func (t *detachedTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	ch := make(chan connResult, 1)
	go func() {
		conn, err := t.inner.Connect(t.life)
		ch <- connResult{conn, err}
	}()
	select {
	case r := <-ch:
		return r.conn, r.err
	case <-ctx.Done():
		go func() {
			if r := <-ch; r.conn != nil {
				_ = r.conn.Close()
			}
		}()
		return nil, ctx.Err()
	}
}
