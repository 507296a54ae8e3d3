package ollama

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/ollamatest"
	"github.com/mcphost/mcphost/provider"
)

// TestChatRetries scripts failures before a good answer and checks which
// are retried (the answer arrives), which are not (the failure is
// reported) and how many requests Ollama saw.
func TestChatRetries(t *testing.T) {
	busy := ollamatest.Reply{Status: http.StatusServiceUnavailable, Error: "server busy, please try again.  maximum pending requests exceeded"}
	crashed := ollamatest.Reply{Status: http.StatusInternalServerError, Error: "llama runner process has terminated: signal: killed"}
	tests := []struct {
		name     string
		replies  []ollamatest.Reply
		wantErr  string // "" means the answer "ok" arrives
		requests int
	}{
		{"overloaded then ok", []ollamatest.Reply{busy, busy, {Content: "ok"}}, "", 3},
		{"runner crashed then ok", []ollamatest.Reply{crashed, {Content: "ok"}}, "", 2},
		{"dropped before answering then ok", []ollamatest.Reply{{Drop: true}, {Content: "ok"}}, "", 2},
		{"error before any text then ok", []ollamatest.Reply{{Error: "model runner has unexpectedly stopped"}, {Content: "ok"}}, "", 2},
		{"cut before any text then ok", []ollamatest.Reply{{ToolCalls: []api.ToolCall{ollamatest.Call("x__y", nil)}, CutAfter: 1}, {Content: "ok"}}, "", 2},
		{"always overloaded", []ollamatest.Reply{busy, busy, busy, busy, {Content: "too late"}}, "ollama: " + busy.Error + " (tried 4 times)", 4},
		{"cut after text is not retried", []ollamatest.Reply{{Chunks: []string{"half an ans", "wer"}, CutAfter: 1}, {Content: "ok"}}, "the answer from Ollama was cut off mid-stream", 1},
		{"error after text is not retried", []ollamatest.Reply{{Chunks: []string{"so far"}, Error: "out of memory"}, {Content: "ok"}}, "ollama: out of memory", 1},
		{"bad request is not retried", []ollamatest.Reply{{Status: 400, Error: "invalid options"}, {Content: "ok"}}, "ollama: invalid options", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ollamatest.NewServer()
			defer s.Close()
			s.Enqueue(tt.replies...)
			p := newProvider(t, s)
			var retries []time.Duration
			r := fastRetry
			r.OnRetry = func(_ int, wait time.Duration, _ error) { retries = append(retries, wait) }
			p.SetRetry(r)

			resp, err := p.Chat(context.Background(), provider.Request{Model: "m"}, func(provider.Delta) {})
			switch {
			case tt.wantErr == "" && (err != nil || resp.Message.Content != "ok"):
				t.Errorf("Chat = %q, %v; want the answer after the retries", resp.Message.Content, err)
			case tt.wantErr != "" && (err == nil || err.Error() != tt.wantErr):
				t.Errorf("Chat error = %v, want %q", err, tt.wantErr)
			}
			if tt.wantErr != "" && !errors.Is(err, provider.ErrProvider) {
				t.Errorf("error %v is not a provider error", err)
			}
			if n := s.RequestCount(); n != tt.requests {
				t.Errorf("Ollama saw %d requests, want %d", n, tt.requests)
			}
			if len(retries) != tt.requests-1 {
				t.Errorf("OnRetry heard of %d retries, want %d", len(retries), tt.requests-1)
			}
			for i := 1; i < len(retries); i++ {
				if retries[i] < retries[i-1] {
					t.Errorf("waits %v do not grow", retries)
				}
			}
		})
	}
}

func TestRetryWaitsGrowAndStopOnCancel(t *testing.T) {
	s := ollamatest.NewServer()
	defer s.Close()
	s.Handle(func(api.ChatRequest) ollamatest.Reply { return ollamatest.Reply{Status: 503} })
	p := newProvider(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	var waits []time.Duration
	p.SetRetry(Retry{Attempts: 10, Delay: 10 * time.Millisecond, MaxDelay: 40 * time.Millisecond,
		OnRetry: func(attempt int, wait time.Duration, _ error) {
			waits = append(waits, wait)
			if attempt == 4 {
				cancel() // the user gives up during the fourth wait
			}
		}})
	_, err := p.Chat(ctx, provider.Request{Model: "m"}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want the cancellation", err)
	}
	want := []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond, 40 * time.Millisecond}
	if len(waits) != len(want) {
		t.Fatalf("waits = %v, want %v", waits, want)
	}
	for i := range want {
		if waits[i] != want[i] {
			t.Errorf("waits = %v, want %v (doubling, capped)", waits, want)
			break
		}
	}
	if n := s.RequestCount(); n != 4 {
		t.Errorf("%d requests, want 4", n)
	}
}

func TestShowRetries(t *testing.T) {
	var calls atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= 2 {
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(`{"error":"loading model"}`))
			return
		}
		w.Write([]byte(`{"capabilities":["completion","tools"],"model_info":{"general.architecture":"llama","llama.context_length":4096}}`))
	}))
	defer ts.Close()
	p, err := New(ts.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.SetRetry(fastRetry)
	info, err := p.Show(context.Background(), "m")
	if err != nil || !info.Has("tools") || info.ContextLength != 4096 || calls.Load() != 3 {
		t.Errorf("Show = %+v, %v after %d calls; want the model after 3", info, err, calls.Load())
	}
	calls.Store(-10)
	_, err = p.Show(context.Background(), "m")
	if err == nil || !strings.Contains(err.Error(), "loading model (tried 4 times)") {
		t.Errorf("Show while always busy = %v", err)
	}
}
