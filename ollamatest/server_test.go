package ollamatest

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
)

func client(t *testing.T, s *Server) *api.Client {
	t.Helper()
	u, err := url.Parse(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	return api.NewClient(u, http.DefaultClient)
}

// chat runs one chat and returns every chunk received.
func chat(t *testing.T, c *api.Client, req *api.ChatRequest) ([]api.ChatResponse, error) {
	t.Helper()
	var got []api.ChatResponse
	err := c.Chat(context.Background(), req, func(r api.ChatResponse) error {
		got = append(got, r)
		return nil
	})
	return got, err
}

func TestChatStreaming(t *testing.T) {
	s := NewServer(Model{Name: "tiny"})
	defer s.Close()
	s.Enqueue(Reply{
		Thinking:        "hmm",
		Chunks:          []string{"Hel", "lo"},
		ToolCalls:       []api.ToolCall{Call("fs__read", map[string]any{"path": "/tmp/x", "n": 2})},
		PromptEvalCount: 12,
		EvalCount:       5,
	})
	got, err := chat(t, client(t, s), &api.ChatRequest{
		Model:    "tiny:latest",
		Messages: []api.Message{{Role: "user", Content: "hi"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, r := range got {
		switch {
		case r.Done:
			kinds = append(kinds, "done")
		case r.Message.Thinking != "":
			kinds = append(kinds, "think:"+r.Message.Thinking)
		case len(r.Message.ToolCalls) > 0:
			kinds = append(kinds, "tools:"+r.Message.ToolCalls[0].Function.Name)
		default:
			kinds = append(kinds, "content:"+r.Message.Content)
		}
		if r.Message.Role != "assistant" {
			t.Errorf("role = %q, want assistant", r.Message.Role)
		}
	}
	want := []string{"think:h", "think:m", "think:m", "content:Hel", "content:lo", "tools:fs__read", "done"}
	if !reflect.DeepEqual(kinds, want) {
		t.Fatalf("chunks = %q, want %q", kinds, want)
	}
	args := got[5].Message.ToolCalls[0].Function.Arguments.ToMap()
	if args["path"] != "/tmp/x" || args["n"] != float64(2) {
		t.Errorf("arguments = %v", args)
	}
	last := got[len(got)-1]
	if last.DoneReason != "stop" || last.PromptEvalCount != 12 || last.EvalCount != 5 || last.TotalDuration <= 0 {
		t.Errorf("done chunk = %+v", last)
	}
}

func TestChatDefaultsAndSplitting(t *testing.T) {
	s := NewServer() // any model name
	defer s.Close()
	c := client(t, s)

	got, err := chat(t, c, &api.ChatRequest{Model: "whatever"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Message.Content != "o" || got[1].Message.Content != "k" || !got[2].Done {
		t.Errorf("default reply chunks = %+v", got)
	}

	s.Enqueue(Reply{Content: "héllo wörld!"})
	got, err = chat(t, c, &api.ChatRequest{Model: "x"})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, r := range got {
		b.WriteString(r.Message.Content)
	}
	if b.String() != "héllo wörld!" || len(got) != 4 {
		t.Errorf("content %q in %d chunks, want it whole in 3+1", b.String(), len(got))
	}
	if last := got[len(got)-1]; last.PromptEvalCount == 0 || last.EvalCount == 0 {
		t.Errorf("estimated counts missing: %+v", last.Metrics)
	}
}

func TestChatNonStreaming(t *testing.T) {
	s := NewServer(Model{Name: "tiny"})
	defer s.Close()
	s.Enqueue(Reply{Content: "all at once", Thinking: "t", ToolCalls: []api.ToolCall{Call("a", nil)}})
	stream := false
	got, err := chat(t, client(t, s), &api.ChatRequest{Model: "tiny", Stream: &stream})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("got %d responses, want 1", len(got))
	}
	r := got[0]
	if !r.Done || r.Message.Content != "all at once" || r.Message.Thinking != "t" || len(r.Message.ToolCalls) != 1 {
		t.Errorf("response = %+v", r)
	}
}

func TestHandleAndRecording(t *testing.T) {
	s := NewServer(Model{Name: "tiny"})
	defer s.Close()
	s.Handle(func(req api.ChatRequest) Reply {
		return Reply{Content: "echo " + req.Messages[len(req.Messages)-1].Content}
	})
	s.Enqueue(Reply{Content: "queued"})
	c := client(t, s)
	var answers []string
	for _, q := range []string{"one", "two"} {
		got, err := chat(t, c, &api.ChatRequest{
			Model:    "tiny",
			Messages: []api.Message{{Role: "user", Content: q}},
			Tools:    api.Tools{{Type: "function", Function: api.ToolFunction{Name: "t1"}}},
			Options:  map[string]any{"num_ctx": 8192},
		})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, r := range got {
			b.WriteString(r.Message.Content)
		}
		answers = append(answers, b.String())
	}
	if want := []string{"queued", "echo two"}; !reflect.DeepEqual(answers, want) {
		t.Errorf("answers = %q, want %q", answers, want)
	}
	reqs := s.Requests()
	if len(reqs) != 2 || s.RequestCount() != 2 {
		t.Fatalf("recorded %d requests, want 2", len(reqs))
	}
	if reqs[1].Messages[0].Content != "two" || reqs[1].Tools[0].Function.Name != "t1" || reqs[1].Options["num_ctx"] != float64(8192) {
		t.Errorf("recorded request = %+v", reqs[1])
	}
	// Requests hands out copies.
	reqs[0].Messages[0].Content = "changed"
	if s.Requests()[0].Messages[0].Content != "one" {
		t.Error("Requests returned shared state")
	}

	resp, err := http.Get(s.URL + "/api/ps")
	if err != nil {
		t.Fatal(err)
	}
	var ps api.ProcessResponse
	json.NewDecoder(resp.Body).Decode(&ps)
	resp.Body.Close()
	if len(ps.Models) != 1 || ps.Models[0].ContextLength != 8192 {
		t.Errorf("/api/ps = %+v", ps)
	}

	s.Reset()
	if s.RequestCount() != 0 {
		t.Error("Reset kept requests")
	}
}

func TestErrors(t *testing.T) {
	s := NewServer(Model{Name: "tiny"}, Model{Name: "plain", Capabilities: []string{"completion"}})
	defer s.Close()
	c := client(t, s)
	tools := api.Tools{{Type: "function", Function: api.ToolFunction{Name: "t"}}}
	s.Enqueue(Reply{Status: http.StatusInternalServerError, Error: "boom"})
	tests := []struct {
		name   string
		req    api.ChatRequest
		status int
		msg    string
	}{
		{"scripted", api.ChatRequest{Model: "tiny"}, 500, "boom"},
		{"unknown model", api.ChatRequest{Model: "nope"}, 404, "model 'nope' not found"},
		{"no model", api.ChatRequest{}, 400, "model is required"},
		{"no tools", api.ChatRequest{Model: "plain", Tools: tools}, 400, "registry.ollama.ai/library/plain:latest does not support tools"},
		{"no thinking", api.ChatRequest{Model: "plain", Think: &api.ThinkValue{Value: true}}, 400, `"plain" does not support thinking`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := chat(t, c, &tt.req)
			var se api.StatusError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want api.StatusError", err)
			}
			if se.StatusCode != tt.status || se.ErrorMessage != tt.msg {
				t.Errorf("got %d %q, want %d %q", se.StatusCode, se.ErrorMessage, tt.status, tt.msg)
			}
		})
	}
}

func TestStreamError(t *testing.T) {
	s := NewServer()
	defer s.Close()
	c := client(t, s)
	s.Enqueue(Reply{Chunks: []string{"a"}, Error: "runner died"})
	got, err := chat(t, c, &api.ChatRequest{Model: "m"})
	if err == nil || err.Error() != "runner died" || len(got) != 1 {
		t.Errorf("stream error: %v after %d chunks", err, len(got))
	}
	s.Enqueue(Reply{Content: "a", Error: "runner died"})
	stream := false
	_, err = chat(t, c, &api.ChatRequest{Model: "m", Stream: &stream})
	var se api.StatusError
	if !errors.As(err, &se) || se.StatusCode != 500 || se.ErrorMessage != "runner died" {
		t.Errorf("non-streaming error = %v", err)
	}
}

func TestShow(t *testing.T) {
	s := NewServer(Model{Name: "qwen3:8b", Capabilities: []string{"completion", "tools", "thinking"}, ContextLength: 40960, Family: "qwen3"})
	defer s.Close()
	c := client(t, s)
	resp, err := c.Show(context.Background(), &api.ShowRequest{Model: "qwen3:8b"})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Capabilities) != 3 || resp.Capabilities[2] != "thinking" {
		t.Errorf("capabilities = %v", resp.Capabilities)
	}
	if resp.ModelInfo["general.architecture"] != "qwen3" || resp.ModelInfo["qwen3.context_length"] != float64(40960) {
		t.Errorf("model_info = %v", resp.ModelInfo)
	}
	_, err = c.Show(context.Background(), &api.ShowRequest{Model: "qwen3"})
	var se api.StatusError
	if !errors.As(err, &se) || se.StatusCode != 404 || se.ErrorMessage != "model 'qwen3' not found" {
		t.Errorf("show of unknown model: %v", err)
	}
	if got, want := s.ShowRequests(), []string{"qwen3:8b", "qwen3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ShowRequests = %q, want %q", got, want)
	}
}

func TestSmallEndpoints(t *testing.T) {
	s := NewServer(Model{Name: "tiny"})
	defer s.Close()
	c := client(t, s)
	if err := c.Heartbeat(context.Background()); err != nil {
		t.Errorf("heartbeat: %v", err)
	}
	if v, err := c.Version(context.Background()); err != nil || v != Version {
		t.Errorf("version = %q, %v", v, err)
	}
	list, err := c.List(context.Background())
	if err != nil || len(list.Models) != 1 || list.Models[0].Name != "tiny:latest" {
		t.Errorf("list = %+v, %v", list, err)
	}
	resp, err := http.Get(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "Ollama is running" {
		t.Errorf("GET / = %q", b)
	}
}

func TestCutAfter(t *testing.T) {
	s := NewServer()
	defer s.Close()
	s.Enqueue(Reply{Chunks: []string{"a", "b", "c"}, CutAfter: 2})
	got, err := chat(t, client(t, s), &api.ChatRequest{Model: "m"})
	// The api client ends quietly on a dropped stream; what matters is
	// that no done chunk came.
	_ = err
	if len(got) != 2 {
		t.Fatalf("got %d chunks, want 2", len(got))
	}
	for _, r := range got {
		if r.Done {
			t.Error("got a done chunk from a cut stream")
		}
	}
}

func TestDrop(t *testing.T) {
	s := NewServer()
	defer s.Close()
	s.Enqueue(Reply{Content: "never sent", Drop: true})
	resp, err := http.Post(s.URL+"/api/chat", "application/json", strings.NewReader(`{"model":"m"}`))
	if err == nil {
		resp.Body.Close()
		t.Fatalf("a dropped request got an answer: %s", resp.Status)
	}
	if s.RequestCount() != 1 {
		t.Errorf("recorded %d requests, want 1", s.RequestCount())
	}
	// The next reply is served as usual.
	got, err := chat(t, client(t, s), &api.ChatRequest{Model: "m"})
	if err != nil || len(got) == 0 || !got[len(got)-1].Done {
		t.Errorf("after a drop: %v, %+v", err, got)
	}
}

func TestHoldAndDelay(t *testing.T) {
	s := NewServer()
	defer s.Close()
	c := client(t, s)
	hold := make(chan struct{})
	s.Enqueue(Reply{Content: "late", Hold: hold})

	var wg sync.WaitGroup
	wg.Add(1)
	var got []api.ChatResponse
	var chatErr error
	go func() {
		defer wg.Done()
		got, chatErr = chat(t, c, &api.ChatRequest{Model: "m"})
	}()
	// The request is recorded before it waits, so this sees it in flight.
	for s.RequestCount() == 0 {
		time.Sleep(time.Millisecond)
	}
	close(hold)
	wg.Wait()
	if chatErr != nil || len(got) == 0 || !got[len(got)-1].Done {
		t.Fatalf("held chat: %v, %+v", chatErr, got)
	}

	// A request abandoned while held ends without waiting for Hold. It
	// is abandoned once the server holds it: abandoned before it arrived
	// (a timer on a loaded machine), it would leave the held reply queued
	// for the next request.
	s.Enqueue(Reply{Hold: make(chan struct{})})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		errc <- c.Chat(ctx, &api.ChatRequest{Model: "m"}, func(api.ChatResponse) error { return nil })
	}()
	for s.RequestCount() < 2 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want canceled", err)
	}

	s.Enqueue(Reply{Content: "slow", Delay: 20 * time.Millisecond})
	start := time.Now()
	if _, err := chat(t, c, &api.ChatRequest{Model: "m"}); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 20*time.Millisecond {
		t.Errorf("delayed reply came after %v", d)
	}
}

func TestCloseEndsHeldReplies(t *testing.T) {
	s := NewServer()
	s.Enqueue(Reply{Hold: make(chan struct{})})
	c := client(t, s)
	errc := make(chan error, 1)
	go func() {
		errc <- c.Chat(context.Background(), &api.ChatRequest{Model: "m"}, func(api.ChatResponse) error { return nil })
	}()
	for s.RequestCount() == 0 {
		time.Sleep(time.Millisecond)
	}
	s.Close() // must not hang
	<-errc
}

func TestConcurrentChats(t *testing.T) {
	s := NewServer()
	defer s.Close()
	c := client(t, s)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				if _, err := chat(t, c, &api.ChatRequest{Model: "m"}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
		s.Enqueue(Reply{Content: "x"})
	}
	wg.Wait()
	if n := s.RequestCount(); n != 80 {
		t.Errorf("recorded %d, want 80", n)
	}
}

func TestSplit(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"a", []string{"a"}},
		{"abcdef", []string{"ab", "cd", "ef"}},
		{"abcdefg", []string{"abc", "def", "g"}},
		{"ééé", []string{"é", "é", "é"}},
	}
	for _, tt := range tests {
		if got := split(tt.in, 3); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("split(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
