package servers

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// tapTransport keeps the tools of tools/list results exactly as the server
// sent them. The SDK decodes them into its own types, which drop fields it
// does not know (a newer spec's "execution") and add defaults
// ("readOnlyHint": false); a listing that promises the definition as sent
// needs the bytes from the wire.
type tapTransport struct {
	inner mcp.Transport
	raw   *rawTools
}

// rawTools are the definitions seen so far, by tool name.
type rawTools struct {
	mu      sync.Mutex
	pending map[jsonrpc.ID]bool // tools/list requests awaiting their result
	byName  map[string]json.RawMessage
}

func newRawTools() *rawTools {
	return &rawTools{pending: map[jsonrpc.ID]bool{}, byName: map[string]json.RawMessage{}}
}

// get returns the definition of a tool as the server sent it.
func (r *rawTools) get(name string) json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.byName[name]
}

// Connect implements mcp.Transport.
func (t *tapTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &tapConn{Connection: c, raw: t.raw}, nil
}

type tapConn struct {
	mcp.Connection
	raw *rawTools
}

func (c *tapConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "tools/list" && req.ID.IsValid() {
		c.raw.mu.Lock()
		c.raw.pending[req.ID] = true
		c.raw.mu.Unlock()
	}
	return c.Connection.Write(ctx, msg)
}

func (c *tapConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok && err == nil {
		c.raw.mu.Lock()
		if c.raw.pending[resp.ID] {
			delete(c.raw.pending, resp.ID)
			var page struct {
				Tools []json.RawMessage `json:"tools"`
			}
			if json.Unmarshal(resp.Result, &page) == nil {
				for _, t := range page.Tools {
					var named struct {
						Name string `json:"name"`
					}
					if json.Unmarshal(t, &named) == nil {
						c.raw.byName[named.Name] = t
					}
				}
			}
		}
		c.raw.mu.Unlock()
	}
	return msg, err
}

// rawTap is tapTransport for Streamable HTTP, one level down: it sees the
// POST of a tools/list request and reads the tools out of the answer, a
// JSON body or an SSE stream, as the SDK reads it. (A legacy SSE server
// answers on its event stream instead; its definitions are the SDK's.)
type rawTap struct {
	base http.RoundTripper
	raw  *rawTools
}

// maxTapped bounds what is kept of one answer to find the tools in.
const maxTapped = 16 << 20

// RoundTrip implements http.RoundTripper.
func (t *rawTap) RoundTrip(req *http.Request) (*http.Response, error) {
	id, ok := toolsListID(req)
	resp, err := t.base.RoundTrip(req)
	if err != nil || !ok || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	resp.Body = &tappedBody{ReadCloser: resp.Body, id: id, raw: t.raw, sse: strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")}
	return resp, nil
}

// toolsListID returns the id of a tools/list request, reading its body
// (and giving it back) only when it may be one.
func toolsListID(req *http.Request) (json.RawMessage, bool) {
	if req.Method != http.MethodPost || req.Body == nil || req.GetBody == nil {
		return nil, false
	}
	body, err := req.GetBody()
	if err != nil {
		return nil, false
	}
	defer body.Close()
	data, err := io.ReadAll(io.LimitReader(body, 1<<20))
	if err != nil || !bytes.Contains(data, []byte(`"tools/list"`)) {
		return nil, false
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(data, &msg) != nil || msg.Method != "tools/list" || len(msg.ID) == 0 {
		return nil, false
	}
	return msg.ID, true
}

// tappedBody keeps what the SDK reads of an answer and, once it ends, takes
// the tools out of the response to the request id.
type tappedBody struct {
	io.ReadCloser
	id   json.RawMessage
	raw  *rawTools
	sse  bool
	kept bytes.Buffer
	done bool
}

func (b *tappedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if b.kept.Len()+n <= maxTapped {
		b.kept.Write(p[:n])
	}
	if err != nil {
		b.finish()
	}
	return n, err
}

func (b *tappedBody) Close() error {
	b.finish()
	return b.ReadCloser.Close()
}

func (b *tappedBody) finish() {
	if b.done {
		return
	}
	b.done = true
	messages := [][]byte{b.kept.Bytes()}
	if b.sse {
		messages = nil
		for _, line := range bytes.Split(b.kept.Bytes(), []byte("\n")) {
			if data, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r"), []byte("data:")); ok {
				messages = append(messages, bytes.TrimSpace(data))
			}
		}
	}
	for _, m := range messages {
		var resp struct {
			ID     json.RawMessage `json:"id"`
			Result struct {
				Tools []json.RawMessage `json:"tools"`
			} `json:"result"`
		}
		if json.Unmarshal(m, &resp) != nil || !bytes.Equal(bytes.TrimSpace(resp.ID), bytes.TrimSpace(b.id)) {
			continue
		}
		b.raw.mu.Lock()
		for _, t := range resp.Result.Tools {
			var named struct {
				Name string `json:"name"`
			}
			if json.Unmarshal(t, &named) == nil {
				b.raw.byName[named.Name] = t
			}
		}
		b.raw.mu.Unlock()
	}
}
