package runner_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/runner"
)

// recordingServer is an SDK server whose tools take raw schemas (so the
// SDK does not validate anything itself) and record what they receive.
type recordingServer struct {
	mu    sync.Mutex
	calls []string // tool name and arguments as JSON
}

func (s *recordingServer) record(name string, req *mcp.CallToolRequest) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, name+" "+string(req.Params.Arguments))
}

func (s *recordingServer) got() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.calls...)
}

// lookupSchema is written the way pydantic writes schemas: $defs and $ref,
// nullable fields as anyOf with null, the 2020-12 $schema.
const lookupSchema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"Filter":{"type":"object","properties":{"field":{"type":"string"},"value":{"type":"string"}},"required":["field","value"]}},"properties":{"query":{"type":"string"},"limit":{"type":"integer"},"note":{"anyOf":[{"type":"string"},{"type":"null"}]},"filter":{"$ref":"#/$defs/Filter"}},"required":["query"]}`

func newRecordingToolbox(t *testing.T) (*toolbox, *recordingServer) {
	t.Helper()
	rec := &recordingServer{}
	srv := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "lookup", InputSchema: json.RawMessage(lookupSchema)}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		rec.record("lookup", req)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "found it"}}}, nil
	})
	noisy := "\x1b[1;31mred\x1b[0m\r\nnext\x07 line\x1b]0;title\x07\n" + strings.Repeat("0123456789", 500) + "\nthe end"
	srv.AddTool(&mcp.Tool{Name: "noisy", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		rec.record("noisy", req)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: noisy}}}, nil
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
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tb := &toolbox{session: cs}
	for _, tool := range list.Tools {
		schema, _ := json.Marshal(tool.InputSchema)
		tb.tools = append(tb.tools, provider.Tool{Name: "test__" + tool.Name, Description: tool.Description, Parameters: schema})
	}
	return tb, rec
}

func TestRunStreamsTheProseButNotTheCall(t *testing.T) {
	tests := []struct {
		name     string
		chunks   []string
		streamed string
		content  string // the assistant message in the history
		format   string // ModelCallFinished.Format
	}{
		{"tag split across chunks", []string{"Let me ", "look that up.\n<to", "ol_call>\n{\"name\": \"lookup\", ", "\"arguments\": {\"query\": \"go\"}}\n</tool_call>"},
			"Let me look that up.\n", "Let me look that up.", "<tool_call>"},
		{"bare JSON on its own line", []string{"Sure.", "\n", "{\"name\": \"test.lookup\",", " \"arguments\": {\"query\": \"go\"}}"},
			"Sure.\n", "Sure.", "JSON"},
		{"fence", []string{"``", "`json\n{\"name\": \"LOOKUP\", \"arguments\": {\"query\": \"go\"}}\n``", "`"}, "", "", "fenced block"},
		{"mistral with text after the call", []string{"[TOOL_CALLS][{\"name\": \"lookup\", \"arguments\": {\"query\": \"go\"}}]", " I will report back."},
			"I will report back.", "I will report back.", "[TOOL_CALLS]"},
		{"qwen3 xml split inside the tag", []string{"Looking it up.\n<func", "tion=lookup>\n<parameter=query>\ngo\n</para", "meter>\n</function>"},
			"Looking it up.\n", "Looking it up.", "<function=…><parameter=…>"},
		{"deepseek token split inside a character", []string{"Searching.", "<\xef\xbd", "\x9ctool▁calls▁begin｜><｜tool▁call▁begin｜>lookup<｜tool▁sep｜>", "{\"query\": \"go\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>"},
			"Searching.", "Searching.", "DeepSeek tool tokens"},
		{"harmony header before the recipient", []string{"<|start|>assistant<|chan", "nel|>commentary to=functions.lookup <|constrain|>json<|message|>{\"query\":\"go\"}<|call|>"},
			"", "", "harmony"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb, rec := newRecordingToolbox(t)
			model := chunked(tt.chunks, []string{"It found it."})
			r := runner.New(model, tb, runner.Options{Model: toolModel()})
			var streamed strings.Builder
			var deltas []string
			var started []runner.ToolCallStarted
			var finishedModel []runner.ModelCallFinished
			res, err := r.Run(context.Background(), "look up go", func(ev runner.Event) {
				switch ev := ev.(type) {
				case runner.TextDelta:
					streamed.WriteString(ev.Text)
					deltas = append(deltas, ev.Text)
				case runner.ToolCallStarted:
					started = append(started, ev)
				case runner.ModelCallFinished:
					finishedModel = append(finishedModel, ev)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := rec.got(); len(got) != 1 || got[0] != `lookup {"query":"go"}` {
				t.Fatalf("server received %q", got)
			}
			if want := tt.streamed + "It found it."; streamed.String() != want {
				t.Errorf("streamed %q, want %q", streamed.String(), want)
			}
			// Prose before the call is not held back: it streams as it comes.
			if tt.name == "tag split across chunks" && (len(deltas) < 2 || deltas[0] != "Let me ") {
				t.Errorf("deltas = %q, want the prose streamed chunk by chunk", deltas)
			}
			if len(started) != 1 || !started[0].Recovered || started[0].Call.Name != "test__lookup" {
				t.Errorf("ToolCallStarted = %+v, want a recovered call of test__lookup", started)
			}
			if f := finishedModel[0]; f.Recovered != 1 || f.ToolCalls != 1 || f.Message.Content != tt.content || f.Format != tt.format {
				t.Errorf("ModelCallFinished = %+v", f)
			}
			if res.Recovered != 1 || res.Answer != "It found it." {
				t.Errorf("result = %+v", res)
			}
			h := r.History()
			if a := h[1]; a.Role != provider.RoleAssistant || a.Content != tt.content || len(a.ToolCalls) != 1 || a.ToolCalls[0].Name != "test__lookup" || a.ToolCalls[0].ID == "" {
				t.Errorf("history records %+v", a)
			}
			if res := h[2]; res.Role != provider.RoleTool || res.ToolCallID != h[1].ToolCalls[0].ID {
				t.Errorf("result %+v does not answer call %q", res, h[1].ToolCalls[0].ID)
			}
		})
	}
}

func TestRunOffersNormalisedSchemasAndValidatesTheOriginal(t *testing.T) {
	tb, rec := newRecordingToolbox(t)
	model := &scriptedModel{replies: []provider.Message{
		// null is fine for note: the original schema allows it.
		{ToolCalls: []provider.ToolCall{call("1", "test__lookup", map[string]any{"query": "a", "note": nil})}},
		// A string for the integer, and the filter as a JSON string.
		{ToolCalls: []provider.ToolCall{call("2", "lookup", map[string]any{"query": "b", "limit": "5", "filter": `{"field": "lang", "value": "go"}`})}},
		// The filter misses its value: refused, the server never sees it.
		{ToolCalls: []provider.ToolCall{call("3", "test__lookup", map[string]any{"query": "c", "filter": map[string]any{"field": "lang"}})}},
		{Content: "done"},
	}}
	r := runner.New(model, tb, runner.Options{Model: toolModel()})
	var repaired []runner.ToolCallRepaired
	var rejected []runner.ToolCallRejected
	res, err := r.Run(context.Background(), "search", func(ev runner.Event) {
		switch ev := ev.(type) {
		case runner.ToolCallRepaired:
			repaired = append(repaired, ev)
		case runner.ToolCallRejected:
			rejected = append(rejected, ev)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	offered := string(model.requests[0].Tools[0].Parameters)
	for _, gone := range []string{"$ref", "$defs", "$schema", "anyOf", "null"} {
		if strings.Contains(offered, gone) {
			t.Errorf("offered schema still has %s: %s", gone, offered)
		}
	}
	if !strings.Contains(offered, `"filter":{"properties":{"field":{"type":"string"}`) || !strings.Contains(offered, `"note":{"type":"string"}`) {
		t.Errorf("offered schema = %s", offered)
	}
	want := []string{`lookup {"note":null,"query":"a"}`, `lookup {"filter":{"field":"lang","value":"go"},"limit":5,"query":"b"}`}
	if got := rec.got(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("server received\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(repaired) != 1 || repaired[0].Total != 1 || len(repaired[0].Repairs) != 2 || res.Repaired != 1 {
		t.Errorf("repaired events %+v, result %d", repaired, res.Repaired)
	}
	if len(rejected) != 1 || rejected[0].Total != 1 || !strings.Contains(rejected[0].Reason, `argument "filter" is invalid: required: missing properties: ["value"]`) || res.Rejected != 1 {
		t.Errorf("rejected events %+v, result %d", rejected, res.Rejected)
	}
	// The model saw the refusal as the call's result.
	msgs := model.requests[3].Messages
	if last := msgs[len(msgs)-1]; !last.IsError || !strings.Contains(last.Content, `Schema of "filter"`) {
		t.Errorf("refusal sent back = %+v", last)
	}
	// The repaired call is in the history as it ran.
	if c := msgs[len(msgs)-4].ToolCalls[0]; c.Name != "test__lookup" || c.Arguments["limit"] != float64(5) {
		t.Errorf("history call = %+v", c)
	}
}

func TestRunCleansAndCutsToolResults(t *testing.T) {
	tb, _ := newRecordingToolbox(t)
	model := &scriptedModel{replies: []provider.Message{
		{ToolCalls: []provider.ToolCall{call("1", "test__noisy", nil)}},
		{Content: "done"},
	}}
	r := runner.New(model, tb, runner.Options{Model: toolModel(), ResultBudget: 400})
	var out string
	if _, err := r.Run(context.Background(), "go", func(ev runner.Event) {
		if f, ok := ev.(runner.ToolCallFinished); ok {
			out = f.Output
		}
	}); err != nil {
		t.Fatal(err)
	}
	msgs := model.requests[1].Messages
	sent := msgs[len(msgs)-1].Content
	if sent != out {
		t.Errorf("the event's output differs from what the model got")
	}
	if !strings.HasPrefix(sent, "red\nnext line\n0123") || !strings.HasSuffix(sent, "\nthe end") {
		t.Errorf("result = %q", sent)
	}
	if strings.ContainsAny(sent, "\x1b\x07\r") {
		t.Errorf("control characters reached the model: %q", sent)
	}
	if !strings.Contains(sent, " bytes cut]\n") || len(sent) > 400+40 {
		t.Errorf("result of %d bytes not cut to the 400-byte budget with a marker: %q", len(sent), sent)
	}
}

func TestToolTokens(t *testing.T) {
	tb, _ := newRecordingToolbox(t)
	r := runner.New(&scriptedModel{}, tb, runner.Options{Model: toolModel()})
	costs := r.ToolTokens()
	// The lookup schema, inlined, is several times the size of noisy's.
	if len(costs) != 2 || costs["test__noisy"] < 10 || costs["test__lookup"] < 2*costs["test__noisy"] {
		t.Errorf("costs = %v", costs)
	}
}
