package openai_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcphost/mcphost/openaitest"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/provider/openai"
)

// fastRetry keeps retry tests quick: the same attempts, no real waits.
func fastRetry() openai.Retry {
	return openai.Retry{Attempts: 4, Delay: time.Millisecond, MaxDelay: time.Millisecond}
}

func newProvider(t *testing.T, srv *openaitest.Server, kind openai.Kind, mod func(*openai.Options)) (*openai.Provider, *[]string) {
	t.Helper()
	var mu sync.Mutex
	warnings := &[]string{}
	opts := openai.Options{Name: string(kind), Kind: kind, URL: srv.BaseURL, Warn: func(s string) {
		mu.Lock()
		*warnings = append(*warnings, s)
		mu.Unlock()
	}}
	if mod != nil {
		mod(&opts)
	}
	p, err := openai.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	p.SetRetry(fastRetry())
	return p, warnings
}

func chatReq(model string, tools ...provider.Tool) provider.Request {
	return provider.Request{Model: model, Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}, Tools: tools}
}

var echoTool = provider.Tool{Name: "everything__echo", Description: "Echo", Parameters: []byte(`{"type":"object","properties":{"message":{"type":"string"}}}`)}

func TestStreamsTextReasoningAndUsage(t *testing.T) {
	for _, field := range []string{"reasoning_content", "reasoning"} {
		t.Run(field, func(t *testing.T) {
			srv := openaitest.NewServer(openaitest.Options{Flavor: openaitest.VLLM, Models: []openaitest.Model{{ID: "Qwen/Qwen3-8B"}}})
			defer srv.Close()
			srv.Enqueue(openaitest.Reply{Reasoning: "Let me think.", ReasoningField: field, Content: "The answer is 42.", PromptTokens: 120, CompletionTokens: 9})
			p, _ := newProvider(t, srv, openai.KindVLLM, nil)
			var deltas []provider.Delta
			resp, err := p.Chat(context.Background(), chatReq("Qwen/Qwen3-8B"), func(d provider.Delta) { deltas = append(deltas, d) })
			if err != nil {
				t.Fatal(err)
			}
			if resp.Message.Content != "The answer is 42." || resp.Message.Thinking != "Let me think." {
				t.Errorf("message = %+v", resp.Message)
			}
			if len(deltas) < 4 {
				t.Errorf("%d deltas: the answer was not streamed piece by piece", len(deltas))
			}
			if resp.Usage.PromptTokens != 120 || resp.Usage.CompletionTokens != 9 || resp.DoneReason != "stop" {
				t.Errorf("usage %+v, done %q", resp.Usage, resp.DoneReason)
			}
			req := srv.Requests()[0]
			if !req.Stream || req.StreamOptions == nil || !req.StreamOptions.IncludeUsage {
				t.Errorf("the request did not ask for a stream with usage: %+v", req)
			}
			if len(req.Extra) != 0 {
				t.Errorf("fields the API does not have were sent: %v", req.Extra)
			}
		})
	}
}

func TestThinkingIsNeverSentBack(t *testing.T) {
	srv := openaitest.NewServer(openaitest.Options{Flavor: openaitest.LlamaCpp})
	defer srv.Close()
	p, _ := newProvider(t, srv, openai.KindLlamaCpp, nil)
	req := chatReq("model")
	req.Messages = append(req.Messages,
		provider.Message{Role: provider.RoleAssistant, Content: "first", Thinking: "secret reasoning"},
		provider.Message{Role: provider.RoleUser, Content: "again"})
	if _, err := p.Chat(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	for _, m := range srv.Requests()[0].Messages {
		if m.Reasoning != "" || m.ReasoningContent != "" || m.Thinking != "" || strings.Contains(m.Text(), "secret") {
			t.Errorf("thinking sent back: %+v", m)
		}
	}
}

func TestToolCallsAssembledFromFragments(t *testing.T) {
	calls := []openaitest.Call{
		{ID: "call_a", Name: "everything__echo", Arguments: `{"message":"héllo, \"world\""}`},
		{ID: "call_b", Name: "everything__get-sum", Arguments: `{"a":2,"b":3}`},
	}
	for _, tt := range []struct {
		name  string
		reply openaitest.Reply
	}{
		{"one byte at a time", openaitest.Reply{ToolCalls: calls[:1], ArgPiece: 1}},
		{"two calls interleaved by index", openaitest.Reply{ToolCalls: calls, ArgPiece: 2, Interleave: true}},
		{"two calls one after the other", openaitest.Reply{ToolCalls: calls, ArgPiece: 5}},
		{"text before the calls", openaitest.Reply{Content: "Calling.", ToolCalls: calls, Interleave: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := openaitest.NewServer(openaitest.Options{Flavor: openaitest.LlamaCpp})
			defer srv.Close()
			srv.Enqueue(tt.reply)
			p, _ := newProvider(t, srv, openai.KindLlamaCpp, nil)
			resp, err := p.Chat(context.Background(), chatReq("model", echoTool), nil)
			if err != nil {
				t.Fatal(err)
			}
			want := []provider.ToolCall{
				{ID: "call_a", Name: "everything__echo", Arguments: map[string]any{"message": `héllo, "world"`}},
				{ID: "call_b", Name: "everything__get-sum", Arguments: map[string]any{"a": 2.0, "b": 3.0}},
			}[:len(tt.reply.ToolCalls)]
			if !reflect.DeepEqual(resp.Message.ToolCalls, want) {
				t.Errorf("calls = %+v\nwant %+v", resp.Message.ToolCalls, want)
			}
			if resp.DoneReason != "tool_calls" || resp.Message.Content != tt.reply.Content {
				t.Errorf("done %q, content %q", resp.DoneReason, resp.Message.Content)
			}
		})
	}
}

func TestCallsWithoutIDsGetDistinctOnes(t *testing.T) {
	srv := openaitest.NewServer(openaitest.Options{})
	defer srv.Close()
	call := openaitest.Call{Name: "everything__echo", Arguments: `{}`}
	srv.Enqueue(openaitest.Reply{ToolCalls: []openaitest.Call{call, call}}, openaitest.Reply{ToolCalls: []openaitest.Call{call}})
	p, _ := newProvider(t, srv, openai.KindOpenAI, nil)
	var ids []string
	for range 2 {
		resp, err := p.Chat(context.Background(), chatReq("model", echoTool), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range resp.Message.ToolCalls {
			ids = append(ids, c.ID)
			if c.Arguments == nil {
				t.Error("nil arguments")
			}
		}
	}
	if len(ids) != 3 || ids[0] == ids[1] || ids[1] == ids[2] || ids[0] == "" {
		t.Errorf("ids = %q", ids)
	}
}

func TestRequestCarriesToolsHistoryAndKey(t *testing.T) {
	srv := openaitest.NewServer(openaitest.Options{APIKey: "sk-test-123"})
	defer srv.Close()
	p, _ := newProvider(t, srv, openai.KindOpenAI, func(o *openai.Options) {
		o.APIKey, o.KeySource = "sk-test-123", "OPENAI_API_KEY"
		o.Headers = map[string]string{"X-Team": "ml"}
	})
	req := chatReq("model", echoTool)
	req.Messages = append(req.Messages,
		provider.Message{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c1", Name: "everything__echo", Arguments: map[string]any{"message": "x"}}}},
		provider.Message{Role: provider.RoleTool, ToolCallID: "c1", ToolName: "everything__echo", Content: "boom", IsError: true})
	if _, err := p.Chat(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	got := srv.Requests()[0]
	if got.Authorization != "Bearer sk-test-123" {
		t.Errorf("authorization %q", got.Authorization)
	}
	if len(got.Tools) != 1 || got.Tools[0].Type != "function" || got.Tools[0].Function.Name != "everything__echo" || !strings.Contains(string(got.Tools[0].Function.Parameters), `"message"`) {
		t.Errorf("tools = %+v", got.Tools)
	}
	asst, res := got.Messages[1], got.Messages[2]
	if len(asst.ToolCalls) != 1 || asst.ToolCalls[0].ID != "c1" || asst.ToolCalls[0].Function.Arguments != `{"message":"x"}` {
		t.Errorf("assistant call = %+v", asst)
	}
	if res.Role != "tool" || res.ToolCallID != "c1" || res.Text() != "Error: boom" {
		t.Errorf("tool result = %+v", res)
	}
}

func TestShowReadsEachEnginesWindow(t *testing.T) {
	for _, tt := range []struct {
		name    string
		opts    openaitest.Options
		kind    openai.Kind
		model   string
		want    int
		fixed   bool
		tools   bool
		assumed bool
	}{
		{"llama.cpp /props, any name", openaitest.Options{Flavor: openaitest.LlamaCpp, Models: []openaitest.Model{{ID: "qwen.gguf", ContextLength: 16384}}, TemplateTools: openaitest.Bool(true)}, openai.KindLlamaCpp, "any", 16384, true, true, false},
		{"llama.cpp template without tools", openaitest.Options{Flavor: openaitest.LlamaCpp, Models: []openaitest.Model{{ID: "m", ContextLength: 4096}}, TemplateTools: openaitest.Bool(false)}, openai.KindLlamaCpp, "m", 4096, true, false, false},
		{"llama.cpp detected from /v1/models", openaitest.Options{Flavor: openaitest.LlamaCpp, Models: []openaitest.Model{{ID: "m", ContextLength: 8000}}}, openai.KindOpenAI, "m", 8000, true, true, true},
		{"vLLM max_model_len", openaitest.Options{Flavor: openaitest.VLLM, Models: []openaitest.Model{{ID: "Qwen/Qwen3-8B", ContextLength: 40960}}}, openai.KindVLLM, "Qwen/Qwen3-8B", 40960, true, true, true},
		{"LM Studio loaded", openaitest.Options{Flavor: openaitest.LMStudio, Models: []openaitest.Model{{ID: "qwen3-8b", ContextLength: 12000, Loaded: true}}}, openai.KindLMStudio, "qwen3-8b", 12000, true, true, false},
		{"LM Studio not loaded: the trained maximum", openaitest.Options{Flavor: openaitest.LMStudio, Models: []openaitest.Model{{ID: "qwen3-8b", ContextLength: 12000}}}, openai.KindOpenAI, "qwen3-8b", 24000, false, true, false},
		{"plain server: unknown", openaitest.Options{Models: []openaitest.Model{{ID: "gpt"}}}, openai.KindOpenAI, "gpt", 0, false, true, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := openaitest.NewServer(tt.opts)
			defer srv.Close()
			p, _ := newProvider(t, srv, tt.kind, nil)
			info, err := p.Show(context.Background(), tt.model)
			if err != nil {
				t.Fatal(err)
			}
			if info.Name != tt.model || info.ContextLength != tt.want || info.FixedContext != tt.fixed ||
				info.Has(provider.CapabilityTools) != tt.tools || info.CapabilitiesAssumed != tt.assumed {
				t.Errorf("info = %+v", info)
			}
		})
	}
}

func TestListModels(t *testing.T) {
	srv := openaitest.NewServer(openaitest.Options{Flavor: openaitest.LMStudio, Models: []openaitest.Model{
		{ID: "zeta", ContextLength: 1000, Loaded: true}, {ID: "alpha", ContextLength: 2000}, {ID: "nomic-embed", Embeddings: true}}})
	defer srv.Close()
	p, _ := newProvider(t, srv, openai.KindLMStudio, nil)
	models, err := p.ListModels(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range models {
		names = append(names, m.Name)
	}
	if strings.Join(names, " ") != "alpha nomic-embed zeta" || models[2].ContextLength != 1000 || models[0].ContextLength != 4000 || models[1].Has(provider.CapabilityCompletion) {
		t.Errorf("models = %+v", models)
	}
}

func TestErrorsNameTheEngineAndWhatToDo(t *testing.T) {
	ctx := context.Background()
	t.Run("unreachable", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		for kind, want := range map[openai.Kind]string{
			openai.KindLlamaCpp: `llama-server -m model.gguf --jinja`,
			openai.KindLMStudio: `lms server start`,
			openai.KindVLLM:     `vllm serve MODEL --enable-auto-tool-choice`,
		} {
			p, err := openai.New(openai.Options{Name: string(kind), Kind: kind, URL: "http://" + addr + "/v1"})
			if err != nil {
				t.Fatal(err)
			}
			p.SetRetry(fastRetry())
			_, err = p.Chat(ctx, chatReq("m"), nil)
			if !errors.Is(err, provider.ErrUnreachable) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), addr) || !strings.Contains(err.Error(), "tried 4 times") {
				t.Errorf("%s: %v", kind, err)
			}
		}
	})
	t.Run("refused key is named, not quoted", func(t *testing.T) {
		srv := openaitest.NewServer(openaitest.Options{Flavor: openaitest.VLLM, APIKey: "right-key"})
		defer srv.Close()
		p, _ := newProvider(t, srv, openai.KindVLLM, func(o *openai.Options) { o.APIKey, o.KeySource = "wrong-key-value", "--provider-api-key" })
		_, err := p.Show(ctx, "model")
		if err == nil || !strings.Contains(err.Error(), "HTTP 401") || !strings.Contains(err.Error(), "the API key from --provider-api-key was refused") || strings.Contains(err.Error(), "wrong-key-value") {
			t.Errorf("err = %v", err)
		}
		p, _ = newProvider(t, srv, openai.KindOpenAI, func(o *openai.Options) { o.Name = "openai" })
		if _, err := p.Chat(ctx, chatReq("model"), nil); err == nil || !strings.Contains(err.Error(), "no API key was sent") || !strings.Contains(err.Error(), "OPENAI_API_KEY") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("unknown model lists the engine's", func(t *testing.T) {
		srv := openaitest.NewServer(openaitest.Options{Flavor: openaitest.VLLM, Models: []openaitest.Model{{ID: "Qwen/Qwen3-8B"}, {ID: "meta-llama/Llama-3.1-8B-Instruct"}}})
		defer srv.Close()
		p, _ := newProvider(t, srv, openai.KindVLLM, nil)
		_, err := p.Show(ctx, "qwen3")
		want := `model "qwen3" is not served by vLLM at ` + srv.BaseURL + `: it serves Qwen/Qwen3-8B, meta-llama/Llama-3.1-8B-Instruct; pick one with -m vllm:NAME`
		if !errors.Is(err, provider.ErrModelNotFound) || err.Error() != want {
			t.Errorf("Show: %v\nwant %s", err, want)
		}
		_, err = p.Chat(ctx, chatReq("qwen3"), nil)
		if !errors.Is(err, provider.ErrModelNotFound) || err.Error() != want {
			t.Errorf("Chat: %v", err)
		}
	})
	t.Run("context overflow", func(t *testing.T) {
		for _, flavor := range []openaitest.Flavor{openaitest.LlamaCpp, openaitest.VLLM, openaitest.LMStudio, openaitest.OpenAI} {
			srv := openaitest.NewServer(openaitest.Options{Flavor: flavor})
			srv.Enqueue(openaitest.Reply{Overflow: true})
			p, _ := newProvider(t, srv, openai.Kind(flavor), nil)
			_, err := p.Chat(ctx, chatReq("model"), nil)
			if !errors.Is(err, provider.ErrProvider) || !strings.Contains(err.Error(), `does not fit model "model"'s context window`) || len(srv.Requests()) != 1 {
				t.Errorf("%s: %v (%d requests)", flavor, err, len(srv.Requests()))
			}
			srv.Close()
		}
	})
}

func TestToolsRefusedAnswersWithoutThemAndWarnsOnce(t *testing.T) {
	for _, tt := range []struct {
		flavor openaitest.Flavor
		kind   openai.Kind
		hint   string
	}{
		{openaitest.LlamaCpp, openai.KindLlamaCpp, "start llama-server with --jinja"},
		{openaitest.VLLM, openai.KindVLLM, "--enable-auto-tool-choice --tool-call-parser"},
	} {
		t.Run(string(tt.flavor), func(t *testing.T) {
			srv := openaitest.NewServer(openaitest.Options{Flavor: tt.flavor, ToolsRefused: true})
			defer srv.Close()
			srv.Handle(func(openaitest.Request) openaitest.Reply { return openaitest.Reply{Content: "plain"} })
			p, warnings := newProvider(t, srv, tt.kind, nil)
			for range 2 {
				resp, err := p.Chat(context.Background(), chatReq("model", echoTool), nil)
				if err != nil || resp.Message.Content != "plain" {
					t.Fatalf("%v, %+v", err, resp)
				}
			}
			if len(*warnings) != 1 || !strings.Contains((*warnings)[0], tt.hint) || !strings.Contains((*warnings)[0], "answers without them") {
				t.Errorf("warnings = %q", *warnings)
			}
			reqs := srv.Requests()
			if len(reqs) != 3 || len(reqs[0].Tools) == 0 || len(reqs[1].Tools) != 0 || len(reqs[2].Tools) != 0 {
				t.Errorf("%d requests; tools sent after the refusal", len(reqs))
			}
		})
	}
}

func TestRetriesOnlyBeforeTextWasShown(t *testing.T) {
	ctx := context.Background()
	for _, status := range []int{http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable} {
		srv := openaitest.NewServer(openaitest.Options{Flavor: openaitest.LlamaCpp})
		srv.Enqueue(openaitest.Reply{Status: status, Error: "Loading model"}, openaitest.Reply{Status: status}, openaitest.Reply{Content: "ready"})
		p, _ := newProvider(t, srv, openai.KindLlamaCpp, nil)
		resp, err := p.Chat(ctx, chatReq("model"), nil)
		if err != nil || resp.Message.Content != "ready" || len(srv.Requests()) != 3 {
			t.Errorf("%d: %v, %q after %d requests", status, err, resp.Message.Content, len(srv.Requests()))
		}
		srv.Close()
	}

	srv := openaitest.NewServer(openaitest.Options{})
	defer srv.Close()
	srv.Enqueue(openaitest.Reply{Status: http.StatusInternalServerError, Error: "boom"})
	p, _ := newProvider(t, srv, openai.KindOpenAI, nil)
	if _, err := p.Chat(ctx, chatReq("model"), nil); err == nil || !strings.Contains(err.Error(), "boom") || len(srv.Requests()) != 1 {
		t.Errorf("a 500 was retried or not reported: %v", err)
	}

	// Cut after the role chunk, before any text: retried.
	srv.Enqueue(openaitest.Reply{Content: "lost", CutAfter: 1}, openaitest.Reply{Content: "whole answer"})
	resp, err := p.Chat(ctx, chatReq("model"), nil)
	if err != nil || resp.Message.Content != "whole answer" {
		t.Errorf("a cut before any text was not retried: %v %q", err, resp.Message.Content)
	}

	// Cut after text was shown: an error, never a retry.
	before := len(srv.Requests())
	srv.Enqueue(openaitest.Reply{Content: "This answer is long enough to stream in pieces", CutAfter: 3}, openaitest.Reply{Content: "again"})
	var shown strings.Builder
	_, err = p.Chat(ctx, chatReq("model"), func(d provider.Delta) { shown.WriteString(d.Content) })
	if err == nil || !strings.Contains(err.Error(), "cut off mid-stream") || shown.Len() == 0 || len(srv.Requests()) != before+1 {
		t.Errorf("err %v, shown %q, %d requests", err, shown.String(), len(srv.Requests())-before)
	}
}

func TestStreamEndsWithoutDoneOrWithAnError(t *testing.T) {
	srv := openaitest.NewServer(openaitest.Options{Flavor: openaitest.LlamaCpp})
	defer srv.Close()
	srv.Enqueue(openaitest.Reply{Content: "finished", NoDone: true}, openaitest.Reply{Content: "partial", StreamError: "out of memory"})
	p, _ := newProvider(t, srv, openai.KindLlamaCpp, nil)
	resp, err := p.Chat(context.Background(), chatReq("model"), nil)
	if err != nil || resp.Message.Content != "finished" {
		t.Errorf("a stream ending at its finish reason: %v, %q", err, resp.Message.Content)
	}
	_, err = p.Chat(context.Background(), chatReq("model"), nil)
	if err == nil || !strings.Contains(err.Error(), "out of memory") || !strings.Contains(err.Error(), "llama.cpp at") {
		t.Errorf("error event: %v", err)
	}
}

func TestParseURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:8080":       "http://127.0.0.1:8080/v1",
		"http://127.0.0.1:8080/":      "http://127.0.0.1:8080/v1",
		"http://127.0.0.1:8080/v1/":   "http://127.0.0.1:8080/v1",
		"https://example.com/api/v1":  "https://example.com/api/v1",
		" http://h:1234/v1?token=x  ": "http://h:1234/v1",
	} {
		u, err := openai.ParseURL(in)
		if err != nil || u.String() != want {
			t.Errorf("ParseURL(%q) = %v, %v; want %s", in, u, err, want)
		}
	}
	for _, bad := range []string{"", "127.0.0.1:8080", "ftp://h/v1", "http:///v1"} {
		if _, err := openai.ParseURL(bad); err == nil {
			t.Errorf("ParseURL(%q) accepted", bad)
		}
	}
}

// TestReplyLimits: the call's limits hold on this path too: a reply past
// MaxReplyBytes ends soon after the cap, a silent engine after the idle
// timeout, neither tried again.
func TestReplyLimits(t *testing.T) {
	srv := openaitest.NewServer(openaitest.Options{Flavor: openaitest.VLLM})
	defer srv.Close()
	p, _ := newProvider(t, srv, openai.KindVLLM, nil)
	piece := strings.Repeat("x", 10<<10)
	chunks := make([]string, 2000) // 20 MB
	for i := range chunks {
		chunks[i] = piece
	}
	srv.Enqueue(openaitest.Reply{Chunks: chunks})
	req := chatReq("model")
	req.Limits = provider.Limits{MaxReplyBytes: 1 << 20}
	got := 0
	_, err := p.Chat(context.Background(), req, func(d provider.Delta) { got += len(d.Content) })
	if !errors.Is(err, provider.ErrReplyTooLarge) || !strings.Contains(err.Error(), "grew past 1.0 MB") || got > 1<<20 || len(srv.Requests()) != 1 {
		t.Errorf("too large: %v; %d bytes passed on, %d requests", err, got, len(srv.Requests()))
	}

	hold := make(chan struct{})
	defer close(hold)
	srv.Enqueue(openaitest.Reply{Hold: hold, Content: "too late"})
	req.Limits = provider.Limits{IdleTimeout: 100 * time.Millisecond}
	_, err = p.Chat(context.Background(), req, nil)
	if !errors.Is(err, provider.ErrIdle) || !strings.Contains(err.Error(), "sent nothing for 100ms") || len(srv.Requests()) != 2 {
		t.Errorf("idle: %v, %d requests", err, len(srv.Requests()))
	}
}

// TestChatTotalTimeout: a server that streams a piece now and then, each
// well within the idle timeout, is stopped at the total timeout, without
// retries.
func TestChatTotalTimeout(t *testing.T) {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "text/event-stream")
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			fmt.Fprint(w, `data: {"id":"1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"."}}]}`+"\n\n")
			w.(http.Flusher).Flush()
			select {
			case <-tick.C:
			case <-r.Context().Done():
				return
			}
		}
	}))
	defer srv.Close()
	p, err := openai.New(openai.Options{Name: "vllm", Kind: openai.KindVLLM, URL: srv.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	p.SetRetry(fastRetry())
	req := chatReq("model")
	req.Limits = provider.Limits{IdleTimeout: time.Second, Timeout: 300 * time.Millisecond}
	_, err = p.Chat(context.Background(), req, nil)
	if !errors.Is(err, provider.ErrTimeout) || !strings.Contains(err.Error(), "took longer than 300ms in all") || !strings.Contains(err.Error(), "--model-timeout") {
		t.Errorf("err = %v, want ErrTimeout naming --model-timeout", err)
	}
	if n := requests.Load(); n != 1 {
		t.Errorf("%d requests, want 1: a call past its timeout is not retried", n)
	}
}
