package servers

import (
	"context"
	"encoding/json"
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
