package servers

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The task of a task-augmented call is read off an SSE answer event by
// event, as the SDK reads it: before the stream ends, since the SDK may
// hand the result over without reading further.
func TestTapReadsTheTaskBeforeTheStreamEnds(t *testing.T) {
	raw := newRawTools()
	raw.request(mustID(7), "tools/call", []byte(`{"name":"slow","task":{"ttl":1000},"_meta":{"progressToken":"mcphost-3"}}`))
	noticed := raw.expectTask("mcphost-3")
	stream := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n" +
		"event: message\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"task\":{\"taskId\":\"t-1\",\"status\":\"working\"}}}\r\n\r\n"
	pr, pw := io.Pipe()
	body := &tappedBody{ReadCloser: pr, id: []byte("7"), raw: raw, sse: true}
	go func() {
		// One byte at a time, and the stream left open.
		_, _ = io.Copy(pw, iotest.OneByteReader(strings.NewReader(stream)))
	}()
	buf := make([]byte, 1)
	for {
		select {
		case <-noticed:
			if got := string(raw.takeTask("mcphost-3")); got != `{"taskId":"t-1","status":"working"}` {
				t.Errorf("task = %s", got)
			}
			pw.Close()
			return
		default:
		}
		if _, err := body.Read(buf); err != nil {
			t.Fatalf("the stream ended (%v) without the task being noticed", err)
		}
	}
}

// A call without a task, and a tools/list, are told apart.
func TestTapRequests(t *testing.T) {
	raw := newRawTools()
	raw.request(mustID(1), "tools/call", []byte(`{"name":"echo","_meta":{"progressToken":"mcphost-1"}}`))
	raw.request(mustID(2), "tools/list", nil)
	if _, ok := raw.pending[mustID(1)]; ok {
		t.Error("a call without a task is watched")
	}
	raw.response(mustID(2), []byte(`{"tools":[{"name":"echo","execution":{"taskSupport":"optional"}}]}`))
	if got := taskSupport(raw.get("echo")); got != "optional" {
		t.Errorf("taskSupport = %q", got)
	}
	if key, ok := idKey(json.RawMessage(`"abc"`)); !ok || key != mustID("abc") {
		t.Errorf("idKey of a string id = %v %v", key, ok)
	}
}

func mustID(v any) jsonrpc.ID {
	if n, ok := v.(int); ok {
		v = float64(n)
	}
	id, err := jsonrpc.MakeID(v)
	if err != nil {
		panic(err)
	}
	return id
}
