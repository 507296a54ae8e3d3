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

// tapTransport reads two answers off the wire that the SDK's types lose:
//
//   - the tools of tools/list results, exactly as the server sent them.
//     The SDK decodes them into its own types, which drop fields it does
//     not know (a newer spec's "execution") and add defaults
//     ("readOnlyHint": false); a listing that promises the definition as
//     sent needs the bytes from the wire;
//   - the task a task-augmented tools/call created (MCP tasks), which the
//     SDK decodes as an empty CallToolResult.
type tapTransport struct {
	inner mcp.Transport
	raw   *rawTools
}

// rawTools is what the tap saw: tool definitions by name, and the tasks
// created by calls, by the calls' progress tokens.
type rawTools struct {
	mu      sync.Mutex
	pending map[jsonrpc.ID]string // requests awaiting their result: "" for tools/list, else the task call's token
	byName  map[string]json.RawMessage
	tasks   map[string]json.RawMessage
	ready   map[string]chan struct{} // closed once a call's task is known
}

func newRawTools() *rawTools {
	return &rawTools{pending: map[jsonrpc.ID]string{}, byName: map[string]json.RawMessage{},
		tasks: map[string]json.RawMessage{}, ready: map[string]chan struct{}{}}
}

// get returns the definition of a tool as the server sent it.
func (r *rawTools) get(name string) json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.byName[name]
}

// expectTask registers a task call by its progress token; the channel is
// closed once its task is known.
func (r *rawTools) expectTask(token string) <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	ch := make(chan struct{})
	r.ready[token] = ch
	return ch
}

// takeTask returns the task the call of token created, and forgets the
// call.
func (r *rawTools) takeTask(token string) json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.tasks[token]
	delete(r.tasks, token)
	delete(r.ready, token)
	return t
}

// request notes a request the tap must read the answer of: a tools/list,
// or a tools/call that asks for a task.
func (r *rawTools) request(id any, method string, params json.RawMessage) {
	var watch bool
	var token string
	switch method {
	case "tools/list":
		watch = true
	case "tools/call":
		var p struct {
			Task json.RawMessage `json:"task"`
			Meta struct {
				ProgressToken any `json:"progressToken"`
			} `json:"_meta"`
		}
		if json.Unmarshal(params, &p) == nil && len(p.Task) > 0 && p.Meta.ProgressToken != nil {
			watch, token = true, toString(p.Meta.ProgressToken)
		}
	}
	if !watch {
		return
	}
	key, ok := idKey(id)
	if !ok {
		return
	}
	r.mu.Lock()
	r.pending[key] = token
	r.mu.Unlock()
}

// response reads the result of a watched request.
func (r *rawTools) response(id any, result json.RawMessage) {
	key, ok := idKey(id)
	if !ok {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	token, watched := r.pending[key]
	if !watched {
		return
	}
	delete(r.pending, key)
	if token != "" {
		var res struct {
			Task json.RawMessage `json:"task"`
		}
		if json.Unmarshal(result, &res) == nil && len(res.Task) > 0 {
			r.tasks[token] = res.Task
		}
		if ch := r.ready[token]; ch != nil {
			close(ch)
			delete(r.ready, token)
		}
		return
	}
	var page struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if json.Unmarshal(result, &page) != nil {
		return
	}
	for _, t := range page.Tools {
		var named struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(t, &named) == nil {
			r.byName[named.Name] = t
		}
	}
}

// idKey is a request id in one form, whether it came as a jsonrpc.ID or
// as the JSON of an HTTP body.
func idKey(id any) (jsonrpc.ID, bool) {
	switch v := id.(type) {
	case jsonrpc.ID:
		return v, v.IsValid()
	case json.RawMessage:
		var raw any
		if json.Unmarshal(v, &raw) != nil {
			return jsonrpc.ID{}, false
		}
		key, err := jsonrpc.MakeID(raw)
		return key, err == nil && key.IsValid()
	}
	return jsonrpc.ID{}, false
}

func toString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
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
	if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
		c.raw.request(req.ID, req.Method, req.Params)
	}
	return c.Connection.Write(ctx, msg)
}

func (c *tapConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok && err == nil {
		c.raw.response(resp.ID, resp.Result)
	}
	return msg, err
}

// rawTap is tapTransport for Streamable HTTP, one level down: it sees the
// POST of a watched request and reads the answer, a JSON body or an SSE
// stream, as the SDK reads it. (A legacy SSE server answers on its event
// stream instead; its definitions are the SDK's, and it cannot run
// tasks.)
type rawTap struct {
	base http.RoundTripper
	raw  *rawTools
}

// maxTapped bounds what is kept of one answer to find the result in.
const maxTapped = 16 << 20

// RoundTrip implements http.RoundTripper.
func (t *rawTap) RoundTrip(req *http.Request) (*http.Response, error) {
	id, ok := t.watch(req)
	resp, err := t.base.RoundTrip(req)
	if err != nil || !ok || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	resp.Body = &tappedBody{ReadCloser: resp.Body, id: id, raw: t.raw, sse: strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")}
	return resp, nil
}

// watch notes a POSTed request the tap must read the answer of, reading
// its body (and giving it back) only when it may be one.
func (t *rawTap) watch(req *http.Request) (json.RawMessage, bool) {
	if req.Method != http.MethodPost || req.Body == nil || req.GetBody == nil {
		return nil, false
	}
	body, err := req.GetBody()
	if err != nil {
		return nil, false
	}
	defer body.Close()
	data, err := io.ReadAll(io.LimitReader(body, 1<<20))
	if err != nil || !(bytes.Contains(data, []byte(`"tools/list"`)) || bytes.Contains(data, []byte(`"tools/call"`))) {
		return nil, false
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(data, &msg) != nil || len(msg.ID) == 0 {
		return nil, false
	}
	t.raw.request(msg.ID, msg.Method, msg.Params)
	key, ok := idKey(msg.ID)
	if !ok {
		return nil, false
	}
	t.raw.mu.Lock()
	_, watched := t.raw.pending[key]
	t.raw.mu.Unlock()
	return msg.ID, watched
}

// tappedBody keeps what the SDK reads of an answer and finds the response
// to the request id in it: event by event for an SSE stream, as each
// event arrives (before the SDK can act on it), or once a JSON body ends.
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
	if !b.done && b.kept.Len()+n <= maxTapped {
		b.kept.Write(p[:n])
		if b.sse {
			b.events()
		}
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

// events reads the complete SSE events kept so far, and drops them.
func (b *tappedBody) events() {
	for !b.done {
		data := b.kept.Bytes()
		end := bytes.Index(data, []byte("\n\n"))
		if i := bytes.Index(data, []byte("\r\n\r\n")); i >= 0 && (end < 0 || i < end) {
			end = i
		}
		if end < 0 {
			return
		}
		event := data[:end]
		var payload [][]byte
		for _, line := range bytes.Split(event, []byte("\n")) {
			if d, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r"), []byte("data:")); ok {
				payload = append(payload, bytes.TrimSpace(d))
			}
		}
		b.kept.Next(end + 2)
		if len(payload) > 0 {
			b.message(bytes.Join(payload, []byte("\n")))
		}
	}
}

func (b *tappedBody) finish() {
	if b.done {
		return
	}
	if b.sse {
		b.kept.WriteString("\n\n") // a last event without its blank line
		b.events()
	} else {
		b.message(b.kept.Bytes())
	}
	b.done = true
	b.kept = bytes.Buffer{}
}

// message reads one JSON-RPC message; the response to the watched
// request ends the watch.
func (b *tappedBody) message(m []byte) {
	var resp struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(m, &resp) != nil || !bytes.Equal(bytes.TrimSpace(resp.ID), bytes.TrimSpace(b.id)) {
		return
	}
	b.raw.response(resp.ID, resp.Result)
	b.done = true
}
