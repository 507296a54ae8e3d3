package servers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/mcphost/mcphost/internal/termtext"
)

// boundedTransport gives an HTTP server the bound the stdio filter gives a
// stdio server: one message of at most max bytes. The SDK reads a JSON
// answer with io.ReadAll and would hold whatever the server sends (a 400 MB
// tools/list took mcphost to 2.5 GB), so the bound sits in the http.Client,
// below the SDK, on every answer's body:
//
//   - a JSON answer (anything but an event stream) is read up to max
//     before the SDK sees it; one that is longer is dropped, its
//     connection closed, and the SDK reads instead an error response to
//     the request it answers, so that call fails at once and the session
//     lives on, as with stdio;
//   - an event stream is bounded per event. The SDK's own per-event bound
//     (MaxEventSize, set to the same max) ends the stream first; this one,
//     a little above it, stops the SDK from draining the rest of an
//     endless event, which it does before it lets the stream go.
//
// over records that a server went past the bound, so the error the user
// reads can say so instead of "connection closed".
type boundedTransport struct {
	base http.RoundTripper
	max  int
	over atomic.Bool
}

// eventSlack is how far past max the event stream's own bound lies, so that
// the SDK's bound (which reads through a 4 KiB buffer) always trips first.
const eventSlack = 64 << 10

// errTooLarge ends the read of an answer past the bound.
var errTooLarge = errors.New("the server sent more than mcphost's limit for one message")

// RoundTrip implements http.RoundTripper.
func (t *boundedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.Body == nil || resp.Body == http.NoBody {
		return resp, err
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		resp.Body = &eventBound{ReadCloser: resp.Body, t: t, lineStart: true}
	} else {
		resp.Body = &answerBound{ReadCloser: resp.Body, t: t, req: req}
	}
	return resp, nil
}

// tripped reports whether a server's answer went past the bound.
func (t *boundedTransport) tripped() bool { return t != nil && t.over.Load() }

// tooLarge words the bound for the person reading an error about server.
func (t *boundedTransport) tooLarge(server string) string {
	return fmt.Sprintf("server %q sent a message of more than %s, mcphost's limit for one message, so it was refused: "+
		"the server cannot be used as it is (ask its maintainer to make it send less, e.g. to page its lists)", server, termtext.Bytes(t.max))
}

// answerBound is the body of a JSON answer, read whole (up to the bound)
// on the first Read.
type answerBound struct {
	io.ReadCloser
	t    *boundedTransport
	req  *http.Request
	read bool
	buf  *bytes.Reader
	err  error
}

func (b *answerBound) Read(p []byte) (int, error) {
	if !b.read {
		b.read = true
		data, err := io.ReadAll(io.LimitReader(b.ReadCloser, int64(b.t.max)+1))
		b.err = err
		if len(data) > b.t.max {
			b.t.over.Store(true)
			// Whatever is left is not read: closing drops the connection.
			b.ReadCloser.Close()
			data, b.err = nil, errTooLarge
			if id, method := requestOf(b.req); id != nil {
				data, b.err = errorResponse(id, fmt.Sprintf("the server sent an answer to %s of more than %s, over mcphost's limit; ask for less",
					method, termtext.Bytes(b.t.max))), nil
			}
		}
		b.buf = bytes.NewReader(data)
	}
	n, _ := b.buf.Read(p)
	if b.buf.Len() == 0 {
		if b.err != nil {
			return n, b.err
		}
		return n, io.EOF
	}
	return n, nil
}

// requestOf returns the JSON-RPC id and method of the request a POST
// carries, or a nil id when it carries none (a notification, a GET).
func requestOf(req *http.Request) (json.RawMessage, string) {
	if req == nil || req.Method != http.MethodPost || req.GetBody == nil {
		return nil, ""
	}
	body, err := req.GetBody()
	if err != nil {
		return nil, ""
	}
	defer body.Close()
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.NewDecoder(io.LimitReader(body, 16<<20)).Decode(&msg) != nil || len(msg.ID) == 0 || string(msg.ID) == "null" {
		return nil, ""
	}
	return msg.ID, msg.Method
}

// eventBound is the body of an event stream, counting the bytes of the
// current event (an event ends at a blank line).
type eventBound struct {
	io.ReadCloser
	t         *boundedTransport
	size      int  // bytes of the current event so far
	lineStart bool // the last byte ended a line
	failed    bool
}

func (b *eventBound) Read(p []byte) (int, error) {
	if b.failed {
		return 0, errTooLarge
	}
	n, err := b.ReadCloser.Read(p)
	for i, c := range p[:n] {
		switch {
		case c == '\n' && b.lineStart:
			b.size = 0 // a blank line: the event is over
			continue
		case c == '\n':
			b.lineStart = true
		case c != '\r':
			b.lineStart = false
		}
		b.size++
		if b.size > b.t.max {
			b.t.over.Store(true)
		}
		if b.size > b.t.max+eventSlack {
			b.failed = true
			return i, errTooLarge
		}
	}
	return n, err
}
