package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/openaitest"
	"github.com/mcphost/mcphost/provider"
)

// agentRequest is the Ollama backend's benchmark request: a request late
// in a long tool loop, with 30 tools and a history of 50 steps.
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

// BenchmarkEncodeRequest is all the work the host does to send one step.
func BenchmarkEncodeRequest(b *testing.B) {
	p, err := New(Options{URL: "http://127.0.0.1:8080/v1"})
	if err != nil {
		b.Fatal(err)
	}
	req := agentRequest()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.encodeRequest(req, req.Tools); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadStream is the host's work on a streamed reply: 256 content
// chunks (a 4 KB answer in 16-byte pieces) and a call whose arguments come
// in 64 fragments, decoded and assembled.
func BenchmarkReadStream(b *testing.B) {
	var events [][]byte
	piece := `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"0123456789abcdef"},"finish_reason":null}]}`
	for range 256 {
		events = append(events, []byte(piece))
	}
	events = append(events, []byte(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"server__tool_1","arguments":""}}]}}]}`))
	for range 64 {
		events = append(events, []byte(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"a\":1,"}}]}}]}`))
	}
	events = append(events, []byte(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"z\":2}"}}]}}]}`))
	b.ReportAllocs()
	for b.Loop() {
		var acc accumulator
		for _, ev := range events {
			if err := acc.event(ev, func(provider.Delta) {}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkChat is one model call through HTTP to the scripted server,
// request encoding and stream reading included.
func BenchmarkChat(b *testing.B) {
	s := openaitest.NewServer(openaitest.Options{Flavor: openaitest.LlamaCpp})
	defer s.Close()
	p, err := New(Options{URL: s.BaseURL, Kind: KindLlamaCpp})
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
