package runner_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/internal/servers"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/runner"
	"github.com/mcphost/mcphost/tool"
)

// scriptedModel is the stand-in for the model: it replies from a script
// and records every request. A reply streams word by word, or in the
// pieces given for it in pieces (see chunked).
type scriptedModel struct {
	mu       sync.Mutex
	replies  []provider.Message
	pieces   [][]string
	requests []provider.Request
}

// chunked scripts replies that stream in exactly the given pieces, as a
// model's tokens arrive.
func chunked(replies ...[]string) *scriptedModel {
	m := &scriptedModel{pieces: replies}
	for _, r := range replies {
		m.replies = append(m.replies, provider.Message{Content: strings.Join(r, "")})
	}
	return m
}

func (m *scriptedModel) Name() string { return "scripted" }

func (m *scriptedModel) Show(context.Context, string) (provider.ModelInfo, error) {
	return provider.ModelInfo{}, nil
}

func (m *scriptedModel) Chat(ctx context.Context, req provider.Request, onDelta func(provider.Delta)) (provider.Response, error) {
	m.mu.Lock()
	req.Messages = slices.Clone(req.Messages)
	m.requests = append(m.requests, req)
	if len(m.replies) == 0 {
		m.mu.Unlock()
		return provider.Response{}, errors.New("script exhausted")
	}
	reply := m.replies[0]
	m.replies = m.replies[1:]
	var pieces []string
	if len(m.pieces) > 0 {
		pieces, m.pieces = m.pieces[0], m.pieces[1:]
	} else if reply.Content != "" {
		pieces = strings.SplitAfter(reply.Content, " ")
	}
	m.mu.Unlock()
	if onDelta != nil {
		for _, p := range pieces {
			onDelta(provider.Delta{Content: p})
		}
	}
	return provider.Response{Message: reply, Usage: provider.Usage{PromptTokens: 10, CompletionTokens: 2}}, nil
}

// toolbox serves tools from a real MCP server of the official SDK over its
// in-memory transport.
type toolbox struct {
	session *mcp.ClientSession
	tools   []provider.Tool
}

func (t *toolbox) Tools() []provider.Tool { return t.tools }

func (t *toolbox) Call(ctx context.Context, name string, args map[string]any) (*tool.Result, error) {
	own, ok := strings.CutPrefix(name, "test__")
	if !ok {
		return nil, fmt.Errorf("unknown tool %q", name)
	}
	res, err := t.session.CallTool(ctx, &mcp.CallToolParams{Name: own, Arguments: args})
	if err != nil {
		return nil, err
	}
	return servers.ToolResult(res, 0), nil
}

func (t *toolbox) Lookup(name string) (string, string, bool) {
	tool, ok := strings.CutPrefix(name, "test__")
	return "test", tool, ok
}

type echoArgs struct {
	Message string `json:"message"`
}

// newToolbox starts an SDK server with echo, fail, image and two tools that
// meet each other to prove calls of one turn run concurrently.
func newToolbox(t *testing.T) *toolbox {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo", Description: "echo back"}, func(_ context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Echo: " + in.Message}}}, nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "fail"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "disk on fire"}}}, nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "image"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{MIMEType: "image/png", Data: []byte("PNGDATA")}}}, nil, nil
	})
	met := make(chan struct{})
	mcp.AddTool(srv, &mcp.Tool{Name: "first"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		// Finishes only after "second" ran: sequential dispatch would hang.
		select {
		case <-met:
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "first done"}}}, nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "second"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		close(met)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "second done"}}}, nil, nil
	})
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Close() })
	tb := &toolbox{session: cs}
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		schema, _ := json.Marshal(tool.InputSchema)
		tb.tools = append(tb.tools, provider.Tool{Name: "test__" + tool.Name, Description: tool.Description, Parameters: schema})
	}
	return tb
}

func toolModel(caps ...string) provider.ModelInfo {
	if caps == nil {
		caps = []string{provider.CapabilityCompletion, provider.CapabilityTools}
	}
	return provider.ModelInfo{Name: "tiny", Capabilities: caps}
}

func call(id, name string, args map[string]any) provider.ToolCall {
	return provider.ToolCall{ID: id, Name: name, Arguments: args}
}

func TestRunAnswersWithoutTools(t *testing.T) {
	model := &scriptedModel{replies: []provider.Message{{Content: "Hello there."}}}
	r := runner.New(model, newToolbox(t), runner.Options{Model: toolModel(), SystemPrompt: "be brief"})
	var text strings.Builder
	res, err := r.Run(context.Background(), "hi", func(ev runner.Event) {
		if d, ok := ev.(runner.TextDelta); ok {
			text.WriteString(d.Text)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != "Hello there." || text.String() != "Hello there." || res.Steps != 1 {
		t.Errorf("answer %q, streamed %q, steps %d", res.Answer, text.String(), res.Steps)
	}
	got := model.requests[0]
	if len(got.Messages) != 2 || got.Messages[0].Role != provider.RoleSystem || got.Messages[1].Content != "hi" {
		t.Errorf("first request messages = %+v", got.Messages)
	}
	if len(got.Tools) != 5 {
		t.Errorf("model was offered %d tools, want 5", len(got.Tools))
	}
}

func TestRunToolLoopAppendsResultsAndCallsAgain(t *testing.T) {
	model := &scriptedModel{replies: []provider.Message{
		{ToolCalls: []provider.ToolCall{call("c1", "test__echo", map[string]any{"message": "ping"})}},
		{Content: "It said ping."},
	}}
	r := runner.New(model, newToolbox(t), runner.Options{Model: toolModel()})
	var events []string
	res, err := r.Run(context.Background(), "echo ping", func(ev runner.Event) {
		switch ev := ev.(type) {
		case runner.ToolCallStarted:
			events = append(events, "start "+ev.Server+"/"+ev.Tool)
		case runner.ToolCallFinished:
			events = append(events, fmt.Sprintf("finish %s error=%v", ev.Output, ev.IsError))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != "It said ping." || res.Steps != 2 || len(res.ToolCalls) != 1 {
		t.Errorf("result = %+v", res)
	}
	if want := []string{"start test/echo", "finish Echo: ping error=false"}; !slices.Equal(events, want) {
		t.Errorf("events = %q, want %q", events, want)
	}
	second := model.requests[1].Messages
	last := second[len(second)-1]
	if last.Role != provider.RoleTool || last.Content != "Echo: ping" || last.ToolName != "test__echo" || last.ToolCallID != "c1" {
		t.Errorf("tool message sent back = %+v", last)
	}
	if prev := second[len(second)-2]; prev.Role != provider.RoleAssistant || len(prev.ToolCalls) != 1 {
		t.Errorf("assistant tool-call message missing before the result: %+v", prev)
	}
	if res.Usage.PromptTokens != 20 || res.Usage.CompletionTokens != 4 {
		t.Errorf("usage = %+v, want both calls added up", res.Usage)
	}
}

func TestRunParallelCallsRunConcurrentlyAndReturnInCallOrder(t *testing.T) {
	model := &scriptedModel{replies: []provider.Message{
		{ToolCalls: []provider.ToolCall{call("a", "test__first", nil), call("b", "test__second", nil)}},
		{Content: "both done"},
	}}
	r := runner.New(model, newToolbox(t), runner.Options{Model: toolModel()})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := r.Run(ctx, "go", nil); err != nil {
		t.Fatal(err)
	}
	msgs := model.requests[1].Messages
	results := msgs[len(msgs)-2:]
	if results[0].Content != "first done" || results[0].ToolCallID != "a" || results[1].Content != "second done" || results[1].ToolCallID != "b" {
		t.Errorf("results out of call order: %+v", results)
	}
}

func TestRunStopsAtMaxStepsWithAFinalAnswer(t *testing.T) {
	var replies []provider.Message
	for i := range 3 {
		// Different arguments each time: the loop guard stays out of it.
		replies = append(replies, provider.Message{ToolCalls: []provider.ToolCall{call("x", "test__echo", map[string]any{"message": fmt.Sprint("again ", i)})}})
	}
	replies = append(replies, provider.Message{Content: "I echoed three times."})
	model := &scriptedModel{replies: replies}
	r := runner.New(model, newToolbox(t), runner.Options{Model: toolModel(), MaxSteps: 3})
	var reasons []string
	res, err := r.Run(context.Background(), "loop", func(ev runner.Event) {
		if f, ok := ev.(runner.FinalAnswerRequested); ok {
			reasons = append(reasons, f.Reason)
		}
	})
	if !errors.Is(err, runner.ErrMaxSteps) || errors.Is(err, runner.ErrLoop) {
		t.Fatalf("err = %v, want ErrMaxSteps (not the loop guard)", err)
	}
	if !strings.Contains(err.Error(), "--max-steps") {
		t.Errorf("error %q does not say how to allow more steps", err)
	}
	if len(model.requests) != 4 || res.Steps != 4 || len(res.ToolCalls) != 3 {
		t.Fatalf("model called %d times (steps %d, %d tool calls), want 3 with tools and 1 without", len(model.requests), res.Steps, len(res.ToolCalls))
	}
	if res.Answer != "I echoed three times." {
		t.Errorf("answer = %q, want the final answer", res.Answer)
	}
	last := model.requests[3]
	if len(last.Tools) != 0 {
		t.Errorf("the final request offered %d tools", len(last.Tools))
	}
	if m := last.Messages[len(last.Messages)-1]; m.Role != provider.RoleUser || !strings.Contains(m.Content, "cannot call tools") {
		t.Errorf("the final request does not ask for an answer: %+v", m)
	}
	if len(reasons) != 1 || !strings.Contains(reasons[0], "step limit (3)") {
		t.Errorf("FinalAnswerRequested reasons = %q", reasons)
	}
	// The nudge is not kept; the answer is.
	h := r.History()
	if got := h[len(h)-1]; got.Role != provider.RoleAssistant || got.Content != "I echoed three times." || h[len(h)-2].Role != provider.RoleTool {
		t.Errorf("history ends with %+v after %+v", got, h[len(h)-2])
	}
}

func TestRunLoopGuardStopsARepeatedCall(t *testing.T) {
	same := provider.Message{ToolCalls: []provider.ToolCall{call("x", "test__echo", map[string]any{"message": "again"})}}
	model := &scriptedModel{replies: []provider.Message{same, same, same, {Content: "It says again."}}}
	r := runner.New(model, newToolbox(t), runner.Options{Model: toolModel()})
	var finished []runner.ToolCallFinished
	res, err := r.Run(context.Background(), "loop", func(ev runner.Event) {
		if f, ok := ev.(runner.ToolCallFinished); ok {
			finished = append(finished, f)
		}
	})
	if !errors.Is(err, runner.ErrLoop) || !errors.Is(err, runner.ErrMaxSteps) {
		t.Fatalf("err = %v, want ErrLoop matching ErrMaxSteps", err)
	}
	if !strings.Contains(err.Error(), "test__echo 3 times in a row") {
		t.Errorf("error %q does not say which call repeated", err)
	}
	if res.Answer != "It says again." || len(model.requests) != 4 || len(model.requests[3].Tools) != 0 {
		t.Errorf("answer %q after %d requests (last with %d tools)", res.Answer, len(model.requests), len(model.requests[3].Tools))
	}
	if len(finished) != 3 || finished[1].Rejected || !finished[2].Rejected || !strings.Contains(finished[2].Output, "third time in a row") {
		t.Fatalf("calls = %+v, want two run and the third refused", finished)
	}
	// The refusal is what the model read before answering.
	msgs := model.requests[3].Messages
	if got := msgs[len(msgs)-2]; got.Role != provider.RoleTool || !strings.Contains(got.Content, "answer with what you have") {
		t.Errorf("last tool result = %+v", got)
	}
}

func TestRunLoopGuardStopsEveryRepeatInOneTurn(t *testing.T) {
	c := func(id string) provider.ToolCall {
		return call(id, "test__echo", map[string]any{"message": "again"})
	}
	model := &scriptedModel{replies: []provider.Message{
		{ToolCalls: []provider.ToolCall{c("1"), c("2"), c("3"), c("4")}},
		{Content: "It says again."},
	}}
	r := runner.New(model, newToolbox(t), runner.Options{Model: toolModel()})
	res, err := r.Run(context.Background(), "loop", nil)
	if !errors.Is(err, runner.ErrLoop) {
		t.Fatalf("err = %v, want ErrLoop", err)
	}
	finished := res.ToolCalls // in call order
	if len(finished) != 4 || finished[1].Rejected || !finished[2].Rejected || !finished[3].Rejected ||
		!strings.Contains(finished[3].Output, "4th time in a row") {
		t.Fatalf("calls = %+v, want two run and the third and fourth refused", finished)
	}
}

func TestRunReportsToolErrorsToTheModel(t *testing.T) {
	model := &scriptedModel{replies: []provider.Message{
		{ToolCalls: []provider.ToolCall{call("1", "test__fail", nil), call("2", "nope__missing", nil)}},
		{Content: "sorry"},
	}}
	r := runner.New(model, newToolbox(t), runner.Options{Model: toolModel()})
	if _, err := r.Run(context.Background(), "try", nil); err != nil {
		t.Fatal(err)
	}
	msgs := model.requests[1].Messages
	failed, unknown := msgs[len(msgs)-2], msgs[len(msgs)-1]
	if !failed.IsError || failed.Content != "disk on fire" {
		t.Errorf("isError result = %+v", failed)
	}
	if !unknown.IsError || !strings.Contains(unknown.Content, `unknown tool "nope__missing"; the closest tools are`) {
		t.Errorf("unknown tool result = %+v", unknown)
	}
}

func TestRunSendsNoToolsToAModelWithoutTheCapability(t *testing.T) {
	model := &scriptedModel{replies: []provider.Message{{Content: "plain"}}}
	r := runner.New(model, newToolbox(t), runner.Options{Model: toolModel(provider.CapabilityCompletion)})
	if _, err := r.Run(context.Background(), "hi", nil); err != nil {
		t.Fatal(err)
	}
	if n := len(model.requests[0].Tools); n != 0 {
		t.Errorf("sent %d tools to a model without the tools capability", n)
	}
}

func TestRunImagesGoToVisionModelsOnly(t *testing.T) {
	for _, vision := range []bool{true, false} {
		t.Run(fmt.Sprint("vision=", vision), func(t *testing.T) {
			caps := []string{provider.CapabilityTools}
			if vision {
				caps = append(caps, provider.CapabilityVision)
			}
			model := &scriptedModel{replies: []provider.Message{
				{ToolCalls: []provider.ToolCall{call("1", "test__image", nil)}},
				{Content: "a picture"},
			}}
			r := runner.New(model, newToolbox(t), runner.Options{Model: toolModel(caps...)})
			if _, err := r.Run(context.Background(), "look", nil); err != nil {
				t.Fatal(err)
			}
			msgs := model.requests[1].Messages
			res := msgs[len(msgs)-1]
			if vision != (len(res.Images) == 1) {
				t.Errorf("images attached = %d", len(res.Images))
			}
			if !strings.Contains(res.Content, "image/png, 7 bytes") {
				t.Errorf("placeholder %q does not name the type and size", res.Content)
			}
		})
	}
}

func TestRunKeepsHistoryAcrossTurns(t *testing.T) {
	model := &scriptedModel{replies: []provider.Message{{Content: "one"}, {Content: "two"}}}
	r := runner.New(model, nil, runner.Options{Model: toolModel()})
	for _, p := range []string{"first", "second"} {
		if _, err := r.Run(context.Background(), p, nil); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, m := range model.requests[1].Messages {
		got = append(got, string(m.Role)+":"+m.Content)
	}
	if want := []string{"user:first", "assistant:one", "user:second"}; !slices.Equal(got, want) {
		t.Errorf("second request history = %q, want %q", got, want)
	}
}

func TestConvertResult(t *testing.T) {
	tests := []struct {
		name   string
		result *mcp.CallToolResult
		want   string
		err    bool
	}{
		{"text joined", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "a"}, &mcp.TextContent{Text: "b"}}}, "a\nb", false},
		{"embedded text resource", &mcp.CallToolResult{Content: []mcp.Content{&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///x", Text: "contents"}}}}, "[resource file:///x]\ncontents", false},
		{"resource link", &mcp.CallToolResult{Content: []mcp.Content{&mcp.ResourceLink{URI: "demo://r/1", Name: "one", Description: "the first"}}}, "[resource link demo://r/1 (one: the first)]", false},
		{"binary resource", &mcp.CallToolResult{Content: []mcp.Content{&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///x.bin", MIMEType: "application/zip", Blob: make([]byte, 2048)}}}}, "[resource file:///x.bin, application/zip, 2.0 KB: binary, not shown]", false},
		{"structured without text", &mcp.CallToolResult{StructuredContent: map[string]any{"sum": 3}}, `{"sum":3}`, false},
		{"structured with text keeps text", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "3"}}, StructuredContent: map[string]any{"sum": 3}}, "3", false},
		{"error flag", &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "bad"}}}, "bad", true},
		{"empty", &mcp.CallToolResult{}, "(the tool returned no content)", false},
		{"audio", &mcp.CallToolResult{Content: []mcp.Content{&mcp.AudioContent{MIMEType: "audio/wav", Data: make([]byte, 3<<20)}}}, "[audio audio/wav, 3.0 MB: not shown]", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runner.ConvertResult(servers.ToolResult(tt.result, 0), false)
			if got.Text != tt.want || got.IsError != tt.err {
				t.Errorf("got %q (error %v), want %q (error %v)", got.Text, got.IsError, tt.want, tt.err)
			}
		})
	}
}

func TestSetModelAsksForTheNewModelsWindow(t *testing.T) {
	model := &scriptedModel{replies: []provider.Message{{Content: "a"}, {Content: "b"}}}
	big := provider.ModelInfo{Name: "big", Capabilities: []string{provider.CapabilityTools}, ContextLength: 32768}
	small := provider.ModelInfo{Name: "small", Capabilities: []string{provider.CapabilityTools}, ContextLength: 4096}
	r := runner.New(model, nil, runner.Options{Model: big, NumCtx: 8192})
	if _, err := r.Run(context.Background(), "one", nil); err != nil {
		t.Fatal(err)
	}
	r.SetModel(small)
	if _, err := r.Run(context.Background(), "two", nil); err != nil {
		t.Fatal(err)
	}
	if got := []int{model.requests[0].NumCtx, model.requests[1].NumCtx}; got[0] != 8192 || got[1] != 4096 {
		t.Errorf("num_ctx = %v, want [8192 (the cap) 4096 (the small model's length)]", got)
	}
	if got := runner.ContextWindow(provider.ModelInfo{}, 8192); got != 8192 {
		t.Errorf("unknown length: %d, want the cap", got)
	}
	if got := runner.ContextWindow(big, 0); got != 32768 {
		t.Errorf("no cap: %d, want the trained length", got)
	}
	// A window the engine fixed (llama.cpp's -c, vLLM's max_model_len) is
	// the window: the cap cannot shrink or grow it.
	served := provider.ModelInfo{ContextLength: 16384, FixedContext: true}
	if got := runner.ContextWindow(served, 8192); got != 16384 {
		t.Errorf("fixed window: %d, want the engine's 16384", got)
	}
}

// gauge is a toolbox whose one tool, "gauge__wait", records how many of its
// calls run at once and holds each until release is closed.
type gauge struct {
	mu            sync.Mutex
	running, most int
	calls         int
	limit         int
	filled        bool
	full          chan struct{} // closed when limit calls run at once
	release       chan struct{}
}

func (g *gauge) Tools() []provider.Tool {
	return []provider.Tool{{Name: "gauge__wait", Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`)}}
}

func (g *gauge) Lookup(name string) (string, string, bool) {
	return "gauge", "wait", name == "gauge__wait"
}

func (g *gauge) Call(ctx context.Context, _ string, _ map[string]any) (*tool.Result, error) {
	g.mu.Lock()
	g.running++
	g.calls++
	g.most = max(g.most, g.running)
	if g.running == g.limit && !g.filled {
		g.filled = true
		close(g.full)
	}
	g.mu.Unlock()
	select {
	case <-g.release:
	case <-ctx.Done():
	}
	// A call takes a little while, so calls that are not kept waiting
	// overlap.
	time.Sleep(5 * time.Millisecond)
	g.mu.Lock()
	g.running--
	g.mu.Unlock()
	return &tool.Result{Content: []tool.Content{{Kind: tool.Text, Text: "waited"}}}, nil
}

// TestRunBoundsTheToolCallsOfOneMessage: a message with 40 calls runs 10
// of them (MaxToolCalls), 3 at a time (MaxParallelTools); the other 30
// get an error the model reads.
func TestRunBoundsTheToolCallsOfOneMessage(t *testing.T) {
	var calls []provider.ToolCall
	for i := range 40 {
		calls = append(calls, call(fmt.Sprint("c", i), "gauge__wait", map[string]any{"n": i}))
	}
	model := &scriptedModel{replies: []provider.Message{{ToolCalls: calls}, {Content: "done"}}}
	g := &gauge{limit: 3, full: make(chan struct{}), release: make(chan struct{})}
	r := runner.New(model, g, runner.Options{Model: toolModel(), MaxParallelTools: 3, MaxToolCalls: 10})
	done := make(chan error, 1)
	go func() {
		_, err := r.Run(context.Background(), "wait a lot", nil)
		done <- err
	}()
	<-g.full
	close(g.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if g.most != 3 || g.calls != 10 {
		t.Errorf("%d calls ran, at most %d at once; want 10, 3 at once", g.calls, g.most)
	}
	msgs := model.requests[1].Messages
	refused := 0
	for _, m := range msgs {
		if m.Role == provider.RoleTool && m.IsError {
			refused++
			if !strings.Contains(m.Content, "asked for 40 tool calls and at most 10 run per message") {
				t.Errorf("refusal = %q", m.Content)
			}
		}
	}
	if refused != 30 {
		t.Errorf("%d calls were refused, want 30", refused)
	}
}
