package runner_test

// Replies written the way small local models write them, replayed by the
// scripted Ollama server through the real Ollama backend against real MCP
// servers. Each case says which tool ran with which arguments, or that
// nothing ran and why.

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/servers"
	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/ollamatest"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/provider/ollama"
	"github.com/mcphost/mcphost/runner"
)

// ran is a call that reached a server.
type ran struct{ server, tool, args string }

func TestSmallModelReplies(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("buy milk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	memFile := filepath.Join(t.TempDir(), "memory.json")
	// Two server-everything instances make "echo" and "get-sum" ambiguous
	// when written without the server.
	manager := servers.NewManager([]config.ServerSpec{
		mcptest.EverythingSpec(t, "everything"),
		mcptest.EverythingSpec(t, "mirror"),
		mcptest.FilesystemSpec(t, "files", dir),
		mcptest.MemorySpec(t, "memory", memFile),
	}, servers.Options{})
	defer manager.Close()
	if errs := manager.Start(ctx); len(errs) > 0 {
		t.Fatal(errs)
	}
	model := ollamatest.NewServer()
	defer model.Close()
	backend, err := ollama.New(model.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	info, err := backend.Show(ctx, "small")
	if err != nil {
		t.Fatal(err)
	}
	info.Name = "small"

	text := func(s string) ollamatest.Reply {
		return ollamatest.Reply{Content: strings.ReplaceAll(s, "{{dir}}", dir)}
	}
	native := func(name string, args map[string]any) ollamatest.Reply {
		return ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call(name, args)}}
	}
	tests := []struct {
		name  string
		reply ollamatest.Reply
		// ran lists the calls that reached a server, in order; none means
		// nothing ran.
		ran []ran
		// output is in the first result the model got back.
		output string
		// rejected is in the refusal the model got back instead.
		rejected string
		// stays is true when the reply is the answer, as text.
		stays bool
		// repairs lists the repairs made.
		repairs string
		check   func(t *testing.T)
	}{
		{name: "qwen2.5 <tool_call> tag",
			reply: text("<tool_call>\n{\"name\": \"everything__echo\", \"arguments\": {\"message\": \"hello\"}}\n</tool_call>"),
			ran:   []ran{{"everything", "echo", `{"message":"hello"}`}}, output: "Echo: hello"},
		{name: "qwen2.5 bare JSON with a bare unique tool name",
			reply: text(`{"name": "write_file", "arguments": {"path": "{{dir}}/todo.txt", "content": "call mum"}}`),
			ran:   []ran{{"files", "write_file", `{"content":"call mum","path":"` + dir + `/todo.txt"}`}},
			check: func(t *testing.T) {
				if b, _ := os.ReadFile(filepath.Join(dir, "todo.txt")); string(b) != "call mum" {
					t.Errorf("todo.txt = %q", b)
				}
			}},
		{name: "llama3.1 <|python_tag|> with parameters and server.tool",
			reply: text(`<|python_tag|>{"name": "everything.get-sum", "parameters": {"a": 2, "b": 3}}<|eom_id|>`),
			ran:   []ran{{"everything", "get-sum", `{"a":2,"b":3}`}}, output: "5"},
		{name: "llama3.2 native call with numbers as strings",
			reply: native("everything__get-sum", map[string]any{"a": "2", "b": "40"}),
			ran:   []ran{{"everything", "get-sum", `{"a":2,"b":40}`}}, output: "42",
			repairs: `"a": string "2" taken as number; "b": string "40" taken as number`},
		{name: "llama3.2 bare JSON with type function and string numbers",
			reply: text(`{"type": "function", "name": "mirror__get-sum", "parameters": {"a": "1.5", "b": "1"}}`),
			ran:   []ran{{"mirror", "get-sum", `{"a":1.5,"b":1}`}}, output: "2.5",
			repairs: `"a": string "1.5" taken as number; "b": string "1" taken as number`},
		{name: "mistral [TOOL_CALLS] list",
			reply: text(`[TOOL_CALLS] [{"name": "everything__echo", "arguments": {"message": "bonjour"}}]`),
			ran:   []ran{{"everything", "echo", `{"message":"bonjour"}`}}, output: "Echo: bonjour"},
		{name: "mistral [TOOL_CALLS] with Python quotes",
			reply: text(`[TOOL_CALLS][{'name': 'mirror__echo', 'arguments': {'message': 'ciao'}}]`),
			ran:   []ran{{"mirror", "echo", `{"message":"ciao"}`}}, output: "Echo: ciao"},
		{name: "mistral small 3.2 name[ARGS] form",
			reply: text(`[TOOL_CALLS]memory__create_entities[ARGS]{"entities": [{"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]}]}`),
			ran:   []ran{{"memory", "create_entities", `{"entities":[{"entityType":"person","name":"Ada","observations":["wrote the first program"]}]}`}},
			check: func(t *testing.T) {
				if b, _ := os.ReadFile(memFile); !strings.Contains(string(b), "wrote the first program") {
					t.Errorf("memory file = %q", b)
				}
			}},
		{name: "phi4-mini <|tool_call|> list",
			reply: text(`<|tool_call|>[{"name": "list_allowed_directories", "arguments": {}}]<|/tool_call|>`),
			ran:   []ran{{"files", "list_allowed_directories", `{}`}}, output: filepath.Base(dir)},
		{name: "gemma3 tool_code block",
			reply: text("```tool_code\nprint(default_api.read_text_file(path=\"{{dir}}/notes.txt\"))\n```"),
			ran:   []ran{{"files", "read_text_file", `{"path":"` + dir + `/notes.txt"}`}}, output: "buy milk"},
		{name: "gemma3 prose then fenced JSON",
			reply: text("I'll list the directory for you.\n```json\n{\"name\": \"list_directory\", \"parameters\": {\"path\": \"{{dir}}\"}}\n```"),
			ran:   []ran{{"files", "list_directory", `{"path":"` + dir + `"}`}}, output: "[FILE] notes.txt"},
		{name: "native call with a decorated name",
			reply: native("Everything/Echo", map[string]any{"message": "case"}),
			ran:   []ran{{"everything", "echo", `{"message":"case"}`}}, output: "Echo: case"},
		{name: "native call with arguments as a JSON string",
			reply:   native("memory__create_relations", map[string]any{"relations": `[{"from": "Ada", "to": "Babbage", "relationType": "worked with"}]`}),
			ran:     []ran{{"memory", "create_relations", `{"relations":[{"from":"Ada","relationType":"worked with","to":"Babbage"}]}`}},
			repairs: `"relations": JSON string parsed as array`},
		{name: "native call with null for an optional argument",
			reply: native("files__read_text_file", map[string]any{"path": dir + "/notes.txt", "head": nil}),
			ran:   []ran{{"files", "read_text_file", `{"path":"` + dir + `/notes.txt"}`}}, output: "buy milk",
			repairs: `"head": dropped null for an optional argument`},

		{name: "ambiguous bare name",
			reply:    native("echo", map[string]any{"message": "which?"}),
			rejected: `tool name "echo" is ambiguous: it could be "everything__echo" or "mirror__echo"`},
		{name: "qwen2.5 tag with an ambiguous name",
			reply:    text("<tool_call>\n{\"name\": \"get-sum\", \"arguments\": {\"a\": 1, \"b\": 2}}\n</tool_call>"),
			rejected: `tool name "get-sum" is ambiguous: it could be "everything__get-sum" or "mirror__get-sum"`},
		{name: "unknown tool",
			reply:    native("get_weather", map[string]any{"city": "Paris"}),
			rejected: `unknown tool "get_weather"; the closest tools are`},
		{name: "arguments that cannot be repaired",
			reply:    native("everything__get-sum", map[string]any{"a": "two", "b": 3}),
			rejected: `argument "a" must be a number, got a string "two". Schema of "a": {"description":"First number","type":"number"}`},
		{name: "missing required argument",
			reply:    text(`<tool_call>{"name": "files__write_file", "arguments": {"path": "{{dir}}/x.txt"}}</tool_call>`),
			rejected: `argument "content" is required but missing`},
		{name: "text that mentions a tool stays text",
			reply: text(`You can use everything__echo to repeat a message, e.g. {"message": "hi"}.`), stays: true},
		{name: "JSON naming no tool stays text",
			reply: text(`{"name": "get_weather", "arguments": {"city": "Paris"}}`), stays: true},
		{name: "an example with an explanation after it stays text",
			reply: text("Call it like this:\n```json\n{\"name\": \"everything__echo\", \"arguments\": {\"message\": \"hi\"}}\n```\nand it answers with the same text."), stays: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model.Reset()
			model.Enqueue(tt.reply)
			if !tt.stays {
				model.Enqueue(ollamatest.Reply{Content: "Done."})
			}
			r := runner.New(backend, manager, runner.Options{Model: info, NumCtx: 8192})
			var streamed strings.Builder
			var finished []runner.ToolCallFinished
			res, err := r.Run(ctx, "do it", func(ev runner.Event) {
				switch ev := ev.(type) {
				case runner.TextDelta:
					streamed.WriteString(ev.Text)
				case runner.ToolCallFinished:
					finished = append(finished, ev)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			var got []ran
			var refusals []string
			for _, f := range finished {
				if f.Rejected {
					refusals = append(refusals, f.Output)
					continue
				}
				args, _ := json.Marshal(f.Call.Arguments)
				got = append(got, ran{f.Server, f.Tool, string(args)})
				if f.IsError {
					t.Errorf("%s/%s failed: %s", f.Server, f.Tool, f.Output)
				}
			}
			if len(got) != len(tt.ran) {
				t.Fatalf("ran %v, want %v (refused: %q)", got, tt.ran, refusals)
			}
			for i := range got {
				if got[i] != tt.ran[i] {
					t.Errorf("ran %v, want %v", got[i], tt.ran[i])
				}
			}
			reqs := model.Requests()
			if tt.stays {
				want := strings.ReplaceAll(tt.reply.Content, "{{dir}}", dir)
				if len(finished) != 0 || len(reqs) != 1 || res.Answer != want || streamed.String() != want {
					t.Errorf("calls %d, requests %d, answer %q, streamed %q; want the text as the answer", len(finished), len(reqs), res.Answer, streamed.String())
				}
				return
			}
			if len(reqs) != 2 || res.Answer != "Done." {
				t.Fatalf("requests %d, answer %q: the model did not get its turn after the call", len(reqs), res.Answer)
			}
			result := reqs[1].Messages[len(reqs[1].Messages)-1]
			if result.Role != "tool" {
				t.Fatalf("second request ends with %+v, want the tool result", result)
			}
			if tt.output != "" && !strings.Contains(result.Content, tt.output) {
				t.Errorf("result %q lacks %q", result.Content, tt.output)
			}
			if tt.rejected != "" {
				if len(got) != 0 || len(refusals) != 1 || !strings.Contains(result.Content, tt.rejected) {
					t.Errorf("refusal %q, want %q", result.Content, tt.rejected)
				}
			}
			if len(finished) > 0 {
				if reps := strings.Join(finished[0].Repairs, "; "); reps != tt.repairs {
					t.Errorf("repairs %q, want %q", reps, tt.repairs)
				}
			}
			// What the user saw never includes the call written as text.
			for _, leak := range []string{`"name"`, "<tool_call>", "[TOOL_CALLS]", "<|", "```"} {
				if strings.Contains(streamed.String(), leak) {
					t.Errorf("streamed text shows the call: %q", streamed.String())
				}
			}
			// The history sent back records the assistant's call as it ran,
			// next to its result, so the next turn is coherent.
			call := reqs[1].Messages[len(reqs[1].Messages)-2]
			if call.Role != "assistant" || len(call.ToolCalls) != 1 || call.ToolCalls[0].ID != result.ToolCallID {
				t.Errorf("assistant message before the result = %+v", call)
			}
			if tt.rejected == "" && call.ToolCalls[0].Function.Name != result.ToolName {
				t.Errorf("history call %q, result for %q", call.ToolCalls[0].Function.Name, result.ToolName)
			}
			if tt.check != nil {
				tt.check(t)
			}
		})
	}
}

// TestContextBudgetWithManyTools runs a chat with a small num_ctx and the
// tools of three real servers: the tools take most of the window, so
// mcphost warns once, and the oldest turns are left out as the chat grows.
func TestContextBudgetWithManyTools(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	manager := servers.NewManager([]config.ServerSpec{
		mcptest.EverythingSpec(t, "everything"),
		mcptest.FilesystemSpec(t, "files", dir),
		mcptest.MemorySpec(t, "memory", filepath.Join(dir, "m.json")),
	}, servers.Options{})
	defer manager.Close()
	if errs := manager.Start(ctx); len(errs) > 0 {
		t.Fatal(errs)
	}
	model := ollamatest.NewServer(ollamatest.Model{Name: "small", ContextLength: 32768})
	defer model.Close()
	backend, err := ollama.New(model.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	info, err := backend.Show(ctx, "small")
	if err != nil {
		t.Fatal(err)
	}
	info.Name = "small"
	const numCtx = 7168
	r := runner.New(backend, manager, runner.Options{Model: info, NumCtx: numCtx, SystemPrompt: "You are terse."})

	var warnings []string
	var trims []runner.HistoryTrimmed
	var started []runner.ModelCallStarted
	var counted []int
	emit := func(ev runner.Event) {
		switch ev := ev.(type) {
		case runner.ModelCallFinished:
			counted = append(counted, ev.Usage.PromptTokens)
		case runner.Warning:
			warnings = append(warnings, ev.Message)
		case runner.HistoryTrimmed:
			trims = append(trims, ev)
		case runner.ModelCallStarted:
			started = append(started, ev)
		}
	}
	// Each turn: a long question (~300 tokens), one tool call, an answer.
	question := strings.Repeat("Please consider this background carefully. ", 28)
	for turn := range 6 {
		model.Enqueue(
			ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__echo", map[string]any{"message": strings.Repeat("x", 400)})}},
			ollamatest.Reply{Content: "Answer " + string(rune('A'+turn)) + "."},
		)
		if _, err := r.Run(ctx, question+string(rune('A'+turn)), emit); err != nil {
			t.Fatal(err)
		}
	}

	if len(warnings) != 1 {
		t.Fatalf("warnings = %q, want exactly one", warnings)
	}
	for _, w := range []string{"of 7168 context tokens (", "files ~", "everything ~", "--num-ctx", "exclude some"} {
		if !strings.Contains(warnings[0], w) {
			t.Errorf("warning %q lacks %q", warnings[0], w)
		}
	}
	if strings.Contains(warnings[0], "\n") {
		t.Errorf("warning %q is not one line", warnings[0])
	}
	if len(trims) == 0 {
		t.Fatal("the history was never trimmed")
	}
	limit := numCtx - numCtx/8
	reqs := model.Requests()
	last := reqs[len(reqs)-1]
	if last.Messages[0].Role != "system" || last.Messages[0].Content != "You are terse." {
		t.Errorf("the system prompt was dropped: %+v", last.Messages[0])
	}
	var users []string
	for _, m := range last.Messages {
		if m.Role == "user" {
			users = append(users, m.Content[len(m.Content)-1:])
		}
	}
	if len(users) == 0 || users[len(users)-1] != "F" || users[0] == "A" {
		t.Errorf("user turns sent in the last request: %q; want the oldest left out and the last kept", users)
	}
	for i, m := range last.Messages {
		if m.Role == "tool" && (i == 0 || last.Messages[i-1].Role != "assistant" || len(last.Messages[i-1].ToolCalls) == 0) {
			t.Errorf("message %d is a tool result without its call", i)
		}
	}
	// The estimate, corrected by the counts the server reported, keeps
	// every request inside the window less the room for the answer.
	for i, s := range started {
		if s.EstimatedTokens > limit || counted[i] > limit {
			t.Errorf("request %d estimated at %d tokens, counted %d, over %d", i, s.EstimatedTokens, counted[i], limit)
		}
		if i > 0 && (s.EstimatedTokens < counted[i]*9/10 || s.EstimatedTokens > counted[i]*11/10) {
			t.Errorf("request %d estimated at %d tokens, counted %d: the correction did not take", i, s.EstimatedTokens, counted[i])
		}
		if got := reqs[i].Options["num_ctx"]; got != float64(numCtx) {
			t.Errorf("request %d num_ctx = %v", i, got)
		}
	}
	if got := len(r.History()); got != 1+6*4 {
		t.Errorf("History has %d messages, want all %d kept", got, 1+6*4)
	}
}

// TestEstimateFollowsTheServerCount: when the backend counts twice the
// tokens mcphost estimated, the next requests are trimmed to fit by that
// count, not by the first estimate.
func TestEstimateFollowsTheServerCount(t *testing.T) {
	ctx := context.Background()
	model := ollamatest.NewServer()
	defer model.Close()
	backend, err := ollama.New(model.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	info := provider.ModelInfo{Name: "small", Capabilities: ollamatest.DefaultCapabilities()}
	r := runner.New(backend, nil, runner.Options{Model: info, NumCtx: 2048})
	var started []runner.ModelCallStarted
	var trims []runner.HistoryTrimmed
	emit := func(ev runner.Event) {
		switch ev := ev.(type) {
		case runner.ModelCallStarted:
			started = append(started, ev)
		case runner.HistoryTrimmed:
			trims = append(trims, ev)
		}
	}
	long := strings.Repeat("abcd ", 200) // 1000 bytes: about 250 tokens by the estimate
	for i := range 4 {
		est := 0
		if i > 0 {
			est = started[i-1].EstimatedTokens
		}
		// The server says the prompt was twice what was estimated.
		model.Enqueue(ollamatest.Reply{Content: "ok", PromptEvalCount: 2 * max(est, 260*(i+1))})
		if _, err := r.Run(ctx, long, emit); err != nil {
			t.Fatal(err)
		}
	}
	// Raw, four turns are about 1100 tokens, inside the 1792 left of the
	// window; counted twice over, they are not.
	if len(trims) == 0 {
		t.Fatalf("nothing trimmed; estimates %+v", started)
	}
	if e := started[1].EstimatedTokens; e < 2*260 {
		t.Errorf("second request estimated at %d tokens: the server's count was ignored", e)
	}
	reqs := model.Requests()
	if n := len(reqs[3].Messages); n >= 7 {
		t.Errorf("last request sent %d messages; want old turns left out", n)
	}
}
