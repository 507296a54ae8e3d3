package ollama

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/ollamatest"
	"github.com/mcphost/mcphost/provider"
)

func TestChatStreamsDeltas(t *testing.T) {
	s := ollamatest.NewServer(ollamatest.Model{Name: "tiny"})
	defer s.Close()
	s.Enqueue(ollamatest.Reply{
		Thinking:        "ab",
		Chunks:          []string{"Hel", "lo", " there"},
		PromptEvalCount: 42,
		EvalCount:       7,
	})
	var deltas []provider.Delta
	resp, err := newProvider(t, s).Chat(context.Background(), provider.Request{
		Model:    "tiny",
		Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}},
	}, func(d provider.Delta) { deltas = append(deltas, d) })
	if err != nil {
		t.Fatal(err)
	}
	want := []provider.Delta{{Thinking: "a"}, {Thinking: "b"}, {Content: "Hel"}, {Content: "lo"}, {Content: " there"}}
	if !reflect.DeepEqual(deltas, want) {
		t.Errorf("deltas = %+v, want %+v", deltas, want)
	}
	if resp.Message.Role != provider.RoleAssistant || resp.Message.Content != "Hello there" || resp.Message.Thinking != "ab" {
		t.Errorf("message = %+v", resp.Message)
	}
	if resp.Usage.PromptTokens != 42 || resp.Usage.CompletionTokens != 7 || resp.Usage.Duration <= 0 {
		t.Errorf("usage = %+v", resp.Usage)
	}
	if resp.DoneReason != "stop" {
		t.Errorf("done reason = %q", resp.DoneReason)
	}
	if len(resp.Message.ToolCalls) != 0 {
		t.Errorf("tool calls = %+v", resp.Message.ToolCalls)
	}
}

func TestChatNilOnDeltaAndDoneReason(t *testing.T) {
	s := ollamatest.NewServer()
	defer s.Close()
	s.Enqueue(ollamatest.Reply{Content: "truncated", DoneReason: "length"})
	resp, err := newProvider(t, s).Chat(context.Background(), provider.Request{Model: "m"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Content != "truncated" || resp.DoneReason != "length" {
		t.Errorf("response = %+v", resp)
	}
}

func TestChatToolRoundTrip(t *testing.T) {
	s := ollamatest.NewServer(ollamatest.Model{Name: "tiny"})
	defer s.Close()
	p := newProvider(t, s)

	withID := ollamatest.Call("fs__read", map[string]any{"path": "/etc/hosts", "lines": 3})
	withID.ID = "call_abc"
	s.Enqueue(ollamatest.Reply{ToolCalls: []api.ToolCall{
		withID,
		ollamatest.Call("web__fetch", map[string]any{"url": "https://example.com", "opts": map[string]any{"raw": true}}),
		ollamatest.Call("clock__now", nil),
	}})

	tools := []provider.Tool{
		{Name: "fs__read", Description: "Read a file", Parameters: json.RawMessage(
			`{"type":"object","properties":{"path":{"type":"string","description":"file"},"lines":{"type":"integer"}},"required":["path"]}`)},
		{Name: "clock__now", Parameters: json.RawMessage(`{"type":"object"}`)},
	}
	history := []provider.Message{
		{Role: provider.RoleSystem, Content: "be brief"},
		{Role: provider.RoleUser, Content: "read it", Images: [][]byte{[]byte("PNG")}},
	}
	resp, err := p.Chat(context.Background(), provider.Request{Model: "tiny", Messages: history, Tools: tools, NumCtx: 16384}, nil)
	if err != nil {
		t.Fatal(err)
	}
	calls := resp.Message.ToolCalls
	wantCalls := []provider.ToolCall{
		{ID: "call_abc", Name: "fs__read", Arguments: map[string]any{"path": "/etc/hosts", "lines": float64(3)}},
		{ID: "call_1", Name: "web__fetch", Arguments: map[string]any{"url": "https://example.com", "opts": map[string]any{"raw": true}}},
		{ID: "call_2", Name: "clock__now", Arguments: map[string]any{}},
	}
	if !reflect.DeepEqual(calls, wantCalls) {
		t.Fatalf("tool calls = %#v\nwant %#v", calls, wantCalls)
	}

	// Send the calls and their results back, as the runner would.
	resp.Message.Thinking = "secret reasoning"
	history = append(history, resp.Message,
		provider.Message{Role: provider.RoleTool, ToolName: "fs__read", ToolCallID: "call_abc", Content: "127.0.0.1 localhost"},
		provider.Message{Role: provider.RoleTool, ToolName: "web__fetch", ToolCallID: "call_1", Content: "timeout", IsError: true},
		provider.Message{Role: provider.RoleTool, ToolName: "clock__now", ToolCallID: "call_2", Content: "Error: no clock", IsError: true},
	)
	if _, err := p.Chat(context.Background(), provider.Request{Model: "tiny", Messages: history, Tools: tools}, nil); err != nil {
		t.Fatal(err)
	}

	reqs := s.Requests()
	if len(reqs) != 2 {
		t.Fatalf("server got %d requests, want 2", len(reqs))
	}
	first, second := reqs[0], reqs[1]
	if first.Options["num_ctx"] != float64(16384) {
		t.Errorf("options = %v, want num_ctx 16384", first.Options)
	}
	if second.Options != nil {
		t.Errorf("options without NumCtx = %v, want none", second.Options)
	}
	if first.Stream == nil || !*first.Stream {
		t.Error("request is not streaming")
	}
	if len(first.Tools) != 2 || first.Tools[0].Type != "function" || first.Tools[0].Function.Name != "fs__read" ||
		first.Tools[0].Function.Description != "Read a file" || first.Tools[0].Function.Parameters.Required[0] != "path" {
		t.Errorf("tools = %s", first.Tools)
	}
	if prop, ok := first.Tools[0].Function.Parameters.Properties.Get("lines"); !ok || prop.Type.String() != "integer" {
		t.Errorf("lines property = %+v", prop)
	}
	if len(first.Messages[1].Images) != 1 || string(first.Messages[1].Images[0]) != "PNG" {
		t.Errorf("images = %v", first.Messages[1].Images)
	}

	got := second.Messages
	if len(got) != 6 {
		t.Fatalf("history has %d messages, want 6", len(got))
	}
	asst := got[2]
	if asst.Role != "assistant" || asst.Thinking != "" || len(asst.ToolCalls) != 3 {
		t.Errorf("assistant message = %+v (thinking must not be sent)", asst)
	}
	if tc := asst.ToolCalls[0]; tc.ID != "call_abc" || tc.Function.Name != "fs__read" || tc.Function.Arguments.String() != `{"lines":3,"path":"/etc/hosts"}` {
		t.Errorf("tool call sent back = %+v %s", tc, tc.Function.Arguments.String())
	}
	wantTools := []struct{ name, id, content string }{
		{"fs__read", "call_abc", "127.0.0.1 localhost"},
		{"web__fetch", "call_1", "Error: timeout"},
		{"clock__now", "call_2", "Error: no clock"},
	}
	for i, w := range wantTools {
		m := got[3+i]
		if m.Role != "tool" || m.ToolName != w.name || m.ToolCallID != w.id || m.Content != w.content {
			t.Errorf("tool message %d = %+v, want %+v", i, m, w)
		}
	}
}

// TestChatConcurrent shares one Provider (and its tool cache) between
// goroutines, for the race detector.
func TestChatConcurrent(t *testing.T) {
	s := ollamatest.NewServer()
	defer s.Close()
	p := newProvider(t, s)
	req := agentRequest()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 5 {
				if _, err := p.Chat(context.Background(), req, nil); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if n := s.RequestCount(); n != 20 {
		t.Errorf("server got %d requests, want 20", n)
	}
}

func TestChatCutOff(t *testing.T) {
	s := ollamatest.NewServer()
	defer s.Close()
	s.Enqueue(ollamatest.Reply{Chunks: []string{"par", "tial", "!"}, CutAfter: 2})
	var deltas int
	_, err := newProvider(t, s).Chat(context.Background(), provider.Request{Model: "m"}, func(provider.Delta) { deltas++ })
	if !errors.Is(err, provider.ErrProvider) || err.Error() != "the answer from Ollama was cut off mid-stream" {
		t.Errorf("err = %v", err)
	}
	if deltas != 2 {
		t.Errorf("got %d deltas before the cut, want 2", deltas)
	}
}

func TestChatLongChunkAndStreamError(t *testing.T) {
	s := ollamatest.NewServer()
	defer s.Close()
	p := newProvider(t, s)
	long := strings.Repeat("x", 200_000) // several times the read buffer
	s.Enqueue(ollamatest.Reply{Chunks: []string{long, "!"}})
	resp, err := p.Chat(context.Background(), provider.Request{Model: "m"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Content != long+"!" {
		t.Errorf("content has %d bytes, want %d", len(resp.Message.Content), len(long)+1)
	}

	s.Enqueue(ollamatest.Reply{Chunks: []string{"so far"}, Error: "model runner has unexpectedly stopped"})
	var deltas []provider.Delta
	_, err = p.Chat(context.Background(), provider.Request{Model: "m"}, func(d provider.Delta) { deltas = append(deltas, d) })
	if !errors.Is(err, provider.ErrProvider) || err.Error() != "ollama: model runner has unexpectedly stopped" {
		t.Errorf("err = %v", err)
	}
	if len(deltas) != 1 {
		t.Errorf("deltas before the error = %v", deltas)
	}
}

// TestEncodeChat checks that the request with spliced-in tools says what
// Ollama's own encoding of it says.
func TestEncodeChat(t *testing.T) {
	p, err := New("", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, req := range []provider.Request{agentRequest(), {Model: "m"}} {
		creq, toolsJSON := p.chatRequest(req)
		got, err := encodeChat(creq, toolsJSON)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(creq)
		if err != nil {
			t.Fatal(err)
		}
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("encoding is not JSON: %v", err)
		}
		json.Unmarshal(want, &w)
		if !reflect.DeepEqual(g, w) {
			t.Errorf("encoding differs from json.Marshal:\n%.300s\n%.300s", got, want)
		}
	}
}

func TestChatCancel(t *testing.T) {
	s := ollamatest.NewServer()
	defer s.Close()
	s.Enqueue(ollamatest.Reply{Content: "never", Hold: make(chan struct{})})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := newProvider(t, s).Chat(ctx, provider.Request{Model: "m"}, nil)
		errc <- err
	}()
	for s.RequestCount() == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	err := <-errc
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	var perr *provider.Error
	if errors.As(err, &perr) {
		t.Errorf("cancellation reported as provider error %q", perr)
	}
}

func TestToAPIMessagesErrorPrefix(t *testing.T) {
	tests := []struct {
		content string
		isError bool
		want    string
	}{
		{"boom", true, "Error: boom"},
		{"Error: boom", true, "Error: boom"},
		{"Error calling tool", true, "Error calling tool"},
		{"fine", false, "fine"},
		{"", true, "Error: "},
	}
	for _, tt := range tests {
		got := toAPIMessages([]provider.Message{{Role: provider.RoleTool, Content: tt.content, IsError: tt.isError}})
		if got[0].Content != tt.want {
			t.Errorf("content %q (error %v) sent as %q, want %q", tt.content, tt.isError, got[0].Content, tt.want)
		}
	}
}

func TestToAPITool(t *testing.T) {
	tests := []struct {
		name, schema string
		want         string // the parameters as Ollama will send them
	}{
		{"plain", `{"type":"object","properties":{"b":{"type":"string"},"a":{"type":["integer","null"],"enum":[1,2]}},"required":["b"]}`,
			`{"type":"object","required":["b"],"properties":{"b":{"type":"string"},"a":{"type":["integer","null"],"enum":[1,2]}}}`},
		{"empty", ``, `{"type":"object","properties":{}}`},
		{"null", `null`, `{"type":"object","properties":{}}`},
		{"no type", `{"properties":{"x":{"type":"number"}}}`, `{"type":"object","properties":{"x":{"type":"number"}}}`},
		{"nested", `{"type":"object","properties":{"o":{"type":"object","properties":{"k":{"type":"string"}}}}}`,
			`{"type":"object","properties":{"o":{"type":"object","properties":{"k":{"type":"string"}}}}}`},
		{"boolean property kept others", `{"type":"object","properties":{"any":true,"y":{"type":"string","description":"why"}},"required":["y"]}`,
			`{"type":"object","required":["y"],"properties":{"any":{},"y":{"type":"string","description":"why"}}}`},
		{"odd type keeps description", `{"type":"object","properties":{"z":{"type":5,"description":"zed"},"w":{"type":"boolean"}}}`,
			`{"type":"object","properties":{"z":{"description":"zed"},"w":{"type":"boolean"}}}`},
		{"bad required", `{"type":"object","required":"x","properties":{"x":{"type":"string"}}}`,
			`{"type":"object","properties":{"x":{"type":"string"}}}`},
		{"not json", `{oops`, `{"type":"object","properties":{}}`},
		{"not an object", `[1,2]`, `{"type":"object","properties":{}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at := toAPITool(provider.Tool{Name: "n", Description: "d", Parameters: json.RawMessage(tt.schema)})
			if at.Type != "function" || at.Function.Name != "n" || at.Function.Description != "d" {
				t.Errorf("tool = %+v", at)
			}
			got, err := json.Marshal(at.Function.Parameters)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("parameters = %s\nwant         %s", got, tt.want)
			}
		})
	}
}

func TestToolCacheFollowsChanges(t *testing.T) {
	p, err := New("", nil)
	if err != nil {
		t.Fatal(err)
	}
	v1 := provider.Tool{Name: "t", Parameters: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`)}
	v0 := provider.Tool{Name: "z", Description: "no parameters"}
	v2 := provider.Tool{Name: "t", Parameters: json.RawMessage(`{"type":"object","properties":{"b":{"type":"string"}}}`)}
	for _, tc := range []struct {
		tool provider.Tool
		prop string
	}{{v1, "a"}, {v2, "b"}, {v1, "a"}} {
		got, raw := p.toAPITools([]provider.Tool{tc.tool, v0})
		if _, ok := got[0].Function.Parameters.Properties.Get(tc.prop); !ok {
			t.Errorf("converted %s lacks property %q", got[0].Function.Parameters.String(), tc.prop)
		}
		// The cached encoding must be what encoding the tools would give.
		want, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		if string(raw) != string(want) {
			t.Errorf("cached encoding %s\nwant %s", raw, want)
		}
	}
}

// agentRequest is a request as the runner sends it late in a long tool
// loop: 30 tools and a history of 50 steps.
func agentRequest() provider.Request {
	req := provider.Request{Model: "m", NumCtx: 32768}
	for i := range 30 {
		req.Tools = append(req.Tools, provider.Tool{
			Name:        fmt.Sprintf("server__tool_%d", i),
			Description: "Does a thing with a path and some options, described at length for the model.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"Where"},` +
				`"mode":{"type":"string","enum":["a","b","c"]},"depth":{"type":"integer"},"tags":{"type":"array","items":{"type":"string"}}},"required":["path"]}`),
		})
	}
	req.Messages = append(req.Messages,
		provider.Message{Role: provider.RoleSystem, Content: "You are helpful."},
		provider.Message{Role: provider.RoleUser, Content: "Do the task."})
	for i := range 50 {
		id := fmt.Sprintf("call_%d", i)
		req.Messages = append(req.Messages,
			provider.Message{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: id, Name: "server__tool_1",
				Arguments: map[string]any{"path": "/tmp/x", "depth": 2, "mode": "a"}}}},
			provider.Message{Role: provider.RoleTool, ToolName: "server__tool_1", ToolCallID: id, Content: strings.Repeat("result ", 40)})
	}
	return req
}

func BenchmarkChatRequest(b *testing.B) {
	p, err := New("", nil)
	if err != nil {
		b.Fatal(err)
	}
	req := agentRequest()
	b.ReportAllocs()
	for b.Loop() {
		p.chatRequest(req)
	}
}

// BenchmarkEncodeChat is all the work the host does to send one step.
func BenchmarkEncodeChat(b *testing.B) {
	p, err := New("", nil)
	if err != nil {
		b.Fatal(err)
	}
	req := agentRequest()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := encodeChat(p.chatRequest(req)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkChat(b *testing.B) {
	s := ollamatest.NewServer()
	defer s.Close()
	p, err := New(s.URL, nil)
	if err != nil {
		b.Fatal(err)
	}
	req := agentRequest()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Chat(context.Background(), req, nil); err != nil {
			b.Fatal(err)
		}
		s.Reset()
	}
}

func TestChatBrokenStreams(t *testing.T) {
	tests := []struct {
		name string
		body string
		cut  bool // drop the connection after body
		kind error
		msg  string
	}{
		{"cut inside a line", `{"message":{"role":"assistant","content":"hi"}}` + "\n" + `{"message":{"con`, true,
			provider.ErrProvider, "the answer from Ollama was cut off mid-stream"},
		{"ends without done", `{"message":{"role":"assistant","content":"hi"}}` + "\n", false,
			provider.ErrProvider, "the answer from Ollama was cut off mid-stream"},
		{"not json", "hello\n", false, provider.ErrProvider, "ollama: reading the answer: invalid character 'h' looking for beginning of value"},
		{"done without newline", `{"message":{"role":"assistant","content":"hi"},"done":true}`, false, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/x-ndjson")
				io.WriteString(w, tt.body)
				rc := http.NewResponseController(w)
				rc.Flush()
				if tt.cut {
					if conn, _, err := rc.Hijack(); err == nil {
						conn.Close()
					}
				}
			}))
			defer ts.Close()
			p, err := New(ts.URL, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := p.Chat(context.Background(), provider.Request{Model: "m"}, nil)
			if tt.kind == nil {
				if err != nil || resp.Message.Content != "hi" {
					t.Errorf("Chat = %+v, %v", resp, err)
				}
				return
			}
			if !errors.Is(err, tt.kind) || err.Error() != tt.msg {
				t.Errorf("err = %v, want %q", err, tt.msg)
			}
		})
	}
}

// TestChatReplyTooLarge streams 20 MB against a 1 MB cap: the call ends
// with ErrReplyTooLarge soon after the cap, not after the whole reply, and
// is not tried again.
func TestChatReplyTooLarge(t *testing.T) {
	s := ollamatest.NewServer()
	defer s.Close()
	piece := strings.Repeat("x", 10<<10)
	chunks := make([]string, 2000) // 20 MB
	for i := range chunks {
		chunks[i] = piece
	}
	s.Enqueue(ollamatest.Reply{Chunks: chunks})
	got := 0
	_, err := newProvider(t, s).Chat(context.Background(), provider.Request{
		Model: "tiny", Messages: []provider.Message{{Role: provider.RoleUser, Content: "go on forever"}},
		Limits: provider.Limits{MaxReplyBytes: 1 << 20},
	}, func(d provider.Delta) { got += len(d.Content) })
	if !errors.Is(err, provider.ErrReplyTooLarge) || !errors.Is(err, provider.ErrProvider) {
		t.Fatalf("err = %v, want ErrReplyTooLarge", err)
	}
	if !strings.Contains(err.Error(), "grew past 1.0 MB") {
		t.Errorf("message = %q", err)
	}
	if got > 1<<20 {
		t.Errorf("%d bytes were passed on, more than the 1 MB cap", got)
	}
	if n := s.RequestCount(); n != 1 {
		t.Errorf("%d requests, want 1: a reply cut by the cap is not retried", n)
	}
}

// TestChatIdleTimeout: an engine that says nothing ends the call after
// the idle timeout, without retries.
func TestChatIdleTimeout(t *testing.T) {
	s := ollamatest.NewServer()
	defer s.Close()
	hold := make(chan struct{})
	defer close(hold)
	s.Enqueue(ollamatest.Reply{Hold: hold, Content: "too late"})
	_, err := newProvider(t, s).Chat(context.Background(), provider.Request{
		Model: "tiny", Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}},
		Limits: provider.Limits{IdleTimeout: 100 * time.Millisecond},
	}, nil)
	if !errors.Is(err, provider.ErrIdle) || !errors.Is(err, provider.ErrProvider) {
		t.Fatalf("err = %v, want ErrIdle", err)
	}
	if !strings.Contains(err.Error(), "sent nothing for 100ms") {
		t.Errorf("message = %q", err)
	}
	if n := s.RequestCount(); n != 1 {
		t.Errorf("%d requests, want 1: a silent engine is not retried", n)
	}
}

// TestChatTotalTimeout: an engine that sends a piece now and then, each
// well within the idle timeout, is stopped at the total timeout, without
// retries.
func TestChatTotalTimeout(t *testing.T) {
	s := ollamatest.NewServer()
	defer s.Close()
	const n = 1000
	reply := ollamatest.Reply{Chunks: make([]string, n), HoldBefore: map[int]<-chan struct{}{}}
	gates := make([]chan struct{}, n)
	for i := range n {
		reply.Chunks[i] = "."
		gates[i] = make(chan struct{})
		reply.HoldBefore[i] = gates[i]
	}
	s.Enqueue(reply)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		// One piece every 20ms: never idle for 1s, yet 20s in all.
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for _, g := range gates {
			select {
			case <-tick.C:
				close(g)
			case <-stop:
				return
			}
		}
	}()
	_, err := newProvider(t, s).Chat(context.Background(), provider.Request{
		Model: "tiny", Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}},
		Limits: provider.Limits{IdleTimeout: time.Second, Timeout: 300 * time.Millisecond},
	}, nil)
	if !errors.Is(err, provider.ErrTimeout) || !errors.Is(err, provider.ErrProvider) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if !strings.Contains(err.Error(), "took longer than 300ms in all") || !strings.Contains(err.Error(), "--model-timeout") {
		t.Errorf("message = %q", err)
	}
	if n := s.RequestCount(); n != 1 {
		t.Errorf("%d requests, want 1: a call past its timeout is not retried", n)
	}
}
