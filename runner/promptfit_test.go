package runner_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/runner"
	"github.com/mcphost/mcphost/tool"
)

// fixedModel answers every request with the same reply, after calls
// first: one reply with calls each, and records the requests.
type fixedModel struct {
	calls    [][]provider.ToolCall
	reply    provider.Response
	requests []provider.Request
}

func (m *fixedModel) Name() string { return "fixed" }
func (m *fixedModel) Show(context.Context, string) (provider.ModelInfo, error) {
	return provider.ModelInfo{}, nil
}
func (m *fixedModel) Chat(_ context.Context, req provider.Request, _ func(provider.Delta)) (provider.Response, error) {
	req.Messages = slices.Clone(req.Messages)
	m.requests = append(m.requests, req)
	if len(m.calls) > 0 {
		c := m.calls[0]
		m.calls = m.calls[1:]
		return provider.Response{Message: provider.Message{ToolCalls: c}, Usage: provider.Usage{CompletionTokens: 5}}, nil
	}
	return m.reply, nil
}

// bigTools has one tool, "big", whose result is n bytes, described by
// desc.
type bigTools struct {
	n    int
	desc string
}

func (b bigTools) Tools() []provider.Tool {
	tools := []provider.Tool{{Name: "big", Description: "returns a lot", Parameters: json.RawMessage(`{"type":"object"}`)}}
	// Descriptions are cut short for the model: many tools make a long
	// list.
	for i := range len(b.desc) / 400 {
		tools = append(tools, provider.Tool{Name: fmt.Sprintf("more%d", i), Description: b.desc[:400], Parameters: json.RawMessage(`{"type":"object"}`)})
	}
	return tools
}
func (b bigTools) Call(context.Context, string, map[string]any) (*tool.Result, error) {
	return &tool.Result{Content: []tool.Content{{Kind: tool.Text, Text: strings.Repeat("data line\n", b.n/10)}}}, nil
}
func (b bigTools) Lookup(name string) (string, string, bool) { return "srv", name, name == "big" }

func answer(text string) provider.Response {
	// No prompt count: the estimate stays uncorrected.
	return provider.Response{Message: provider.Message{Content: text}, Usage: provider.Usage{CompletionTokens: 5}}
}

// A prompt that cannot fit the window is not sent: the error names the
// biggest part (an attached file here), and the history is as it was.
func TestAPromptOverTheWindowIsNotSent(t *testing.T) {
	m := &fixedModel{reply: answer("fine")}
	r := runner.New(m, nil, runner.Options{SystemPrompt: "Be brief.", NumCtx: 2048, Model: provider.ModelInfo{Name: "m", ContextLength: 32768}})
	if _, err := r.Run(context.Background(), "hello", nil); err != nil {
		t.Fatal(err)
	}
	before := r.History()
	msg := "Summarise @big.txt\n\nFile: big.txt\n```\n" + strings.Repeat("word ", 4000) + "```"
	var events []runner.Event
	res, err := r.Run(context.Background(), msg, func(ev runner.Event) { events = append(events, ev) })
	var tl *runner.PromptTooLargeError
	if !errors.Is(err, runner.ErrPromptTooLarge) || !errors.As(err, &tl) {
		t.Fatalf("err = %v", err)
	}
	if tl.Part != "@big.txt" || tl.Window != 2048 || tl.Step != 1 || res.Steps != 0 {
		t.Errorf("error %+v, steps %d", tl, res.Steps)
	}
	if want := "@big.txt is about 5k tokens; the window is 2,048: raise --num-ctx or attach less; the prompt was not sent"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if len(m.requests) != 1 {
		t.Errorf("%d requests, want only the first turn's", len(m.requests))
	}
	for _, ev := range events {
		if _, ok := ev.(runner.ModelCallStarted); ok {
			t.Errorf("a model call started")
		}
	}
	if got := r.History(); len(got) != len(before) {
		t.Errorf("history has %d messages, was %d", len(got), len(before))
	}
	// The conversation goes on.
	if _, err := r.Run(context.Background(), "again", nil); err != nil || len(m.requests) != 2 {
		t.Errorf("next turn: %v, %d requests", err, len(m.requests))
	}
}

// Each part is named by what the user can change.
func TestPromptTooLargeNamesTheBiggestPart(t *testing.T) {
	big := strings.Repeat("word ", 4000)
	for _, tc := range []struct {
		name, system, prompt, want string
		info                       provider.ModelInfo
		tools                      string
	}{
		{"system", big, "hi", "the system prompt is about 5k tokens; the window is 2,048: raise --num-ctx or shorten the system prompt", provider.ModelInfo{Name: "m"}, ""},
		{"message", "", big, "your message is about 5k tokens; the window is 2,048: raise --num-ctx or send a shorter message", provider.ModelInfo{Name: "m"}, ""},
		{"resource", "", "see\n\n--- resource docs:guide (text/plain) ---\n" + big + "\n--- end of docs:guide ---", "@docs:guide is about 5k tokens", provider.ModelInfo{Name: "m"}, ""},
		{"tools", "", "hi", "the tools (51) are about 8.6k tokens; the window is 2,048: raise --num-ctx or exclude some servers or tools", provider.ModelInfo{Name: "m", Capabilities: []string{provider.CapabilityTools}}, big},
		{"fixed window", "", big, "the window is 2,048: send a shorter message", provider.ModelInfo{Name: "m", ContextLength: 2048, FixedContext: true}, ""},
		{"model's own length", "", big, "the window is 2,048: send a shorter message", provider.ModelInfo{Name: "m", ContextLength: 2048}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tools runner.Toolbox
			if tc.tools != "" {
				tools = bigTools{desc: tc.tools}
			}
			r := runner.New(&fixedModel{reply: answer("x")}, tools, runner.Options{SystemPrompt: tc.system, NumCtx: 2048, Model: tc.info})
			_, err := r.Run(context.Background(), tc.prompt, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// The latest tool results, when they are what does not fit, are cut
// further to fit, and the model is called.
func TestLatestToolResultsAreCutToFit(t *testing.T) {
	calls := []provider.ToolCall{{ID: "1", Name: "big", Arguments: map[string]any{"part": 1.0}},
		{ID: "2", Name: "big", Arguments: map[string]any{"part": 2.0}}, {ID: "3", Name: "big", Arguments: map[string]any{"part": 3.0}}}
	m := &fixedModel{calls: [][]provider.ToolCall{calls}, reply: answer("done")}
	r := runner.New(m, bigTools{n: 4000}, runner.Options{NumCtx: 2048, Model: provider.ModelInfo{Name: "m", Capabilities: []string{provider.CapabilityTools}}})
	var warned []string
	res, err := r.Run(context.Background(), "get it", func(ev runner.Event) {
		if w, ok := ev.(runner.Warning); ok {
			warned = append(warned, w.Message)
		}
	})
	if err != nil || res.Answer != "done" || len(m.requests) != 2 {
		t.Fatalf("answer %q, err %v, %d requests", res.Answer, err, len(m.requests))
	}
	size := 0
	for _, msg := range m.requests[1].Messages {
		size += len(msg.Content)
		if msg.Role == provider.RoleTool && !strings.Contains(msg.Content, "bytes cut]") {
			t.Errorf("a result was not cut: %d bytes", len(msg.Content))
		}
	}
	if size > (2048-256)*4 {
		t.Errorf("the request holds %d bytes of text, more than the window", size)
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "cut further") {
		t.Errorf("warnings %q", warned)
	}
	// The history keeps the results as they came.
	for _, msg := range r.History() {
		if msg.Role == provider.RoleTool && len(msg.Content) < 3000 {
			t.Errorf("the history's result was cut: %d bytes", len(msg.Content))
		}
	}
}

// An engine counting a prompt of the whole window cut it: a warning, and
// ModelCallFinished says so.
func TestAPromptCutByTheEngineIsWarned(t *testing.T) {
	m := &fixedModel{reply: provider.Response{Message: provider.Message{Content: "hi"}, Usage: provider.Usage{PromptTokens: 4096, CompletionTokens: 2}}}
	r := runner.New(m, nil, runner.Options{NumCtx: 4096, Model: provider.ModelInfo{Name: "m"}})
	var cut bool
	var warned []string
	if _, err := r.Run(context.Background(), "hello", func(ev runner.Event) {
		switch ev := ev.(type) {
		case runner.ModelCallFinished:
			cut = ev.PromptCut
		case runner.Warning:
			warned = append(warned, ev.Message)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if !cut || len(warned) != 1 || !strings.Contains(warned[0], "the engine cut the prompt: it counted 4,096 tokens, its whole window") {
		t.Errorf("cut %v, warnings %q", cut, warned)
	}
}

// An empty final answer is said, with why when the reply tells.
func TestAnEmptyAnswerIsSaid(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply provider.Response
		want  string
	}{
		{"dropped call", provider.Response{Usage: provider.Usage{CompletionTokens: 9}}, "the model returned an empty answer: it wrote 9 tokens the engine did not pass on"},
		{"length", provider.Response{DoneReason: "length", Usage: provider.Usage{CompletionTokens: 9}}, "it reached its length limit"},
		{"thinking", provider.Response{Message: provider.Message{Thinking: "hmm", Content: " \n"}}, "it only thought"},
		{"nothing", provider.Response{}, "the model returned an empty answer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runner.New(&fixedModel{reply: tc.reply}, nil, runner.Options{Model: provider.ModelInfo{Name: "m"}})
			var warned []string
			res, err := r.Run(context.Background(), "hello", func(ev runner.Event) {
				if w, ok := ev.(runner.Warning); ok {
					warned = append(warned, w.Message)
				}
			})
			if err != nil || !res.Empty || len(warned) != 1 || !strings.HasPrefix(warned[0], runner.EmptyAnswer) || !strings.Contains(warned[0], tc.want) {
				t.Errorf("err %v, empty %v, warnings %q", err, res.Empty, warned)
			}
		})
	}
	r := runner.New(&fixedModel{reply: answer("text")}, nil, runner.Options{Model: provider.ModelInfo{Name: "m"}})
	if res, _ := r.Run(context.Background(), "hello", nil); res.Empty {
		t.Error("an answer with text is called empty")
	}
}
