package host_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/ollamatest"
	"github.com/mcphost/mcphost/tool"
)

type weatherIn struct {
	City string `json:"city" jsonschema:"the city to forecast"`
	Days int    `json:"days,omitempty" jsonschema:"how many days ahead"`
}

type weatherOut struct {
	City  string  `json:"city"`
	TempC float64 `json:"temp_c"`
}

// weatherTool is a read-only Go tool that records the inputs it got.
func weatherTool(got *[]weatherIn, mu *sync.Mutex, opts ...host.ToolOption) host.Tool {
	return host.NewTool("weather", "Forecast the weather of a city.", func(_ context.Context, in weatherIn) (weatherOut, error) {
		mu.Lock()
		*got = append(*got, in)
		mu.Unlock()
		return weatherOut{City: in.City, TempC: 21.5}, nil
	}, opts...)
}

// warnings collects what a Host warns about.
type warnings struct {
	mu   sync.Mutex
	msgs []string
}

func (w *warnings) add(s string) { w.mu.Lock(); w.msgs = append(w.msgs, s); w.mu.Unlock() }
func (w *warnings) all() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.msgs, "\n")
}

func TestTheModelCallsAGoToolAndSeesItsStructuredResult(t *testing.T) {
	var (
		got []weatherIn
		mu  sync.Mutex
	)
	auditPath := filepath.Join(t.TempDir(), "audit.jsonl")
	h, model, _ := newHost(t, host.Options{Tools: []host.Tool{weatherTool(&got, &mu, host.ReadOnly())}},
		noServers, func(c *config.Settings) { c.Audit = auditPath })
	// "days" comes as a string, as small models write numbers: it is
	// repaired as a server tool's argument would be.
	model.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("weather", map[string]any{"city": "Paris", "days": "3"})}},
		ollamatest.Reply{Content: "21.5 °C in Paris."},
	)
	var events []host.Event
	res, err := h.PromptFunc(context.Background(), "Weather in Paris?", func(ev host.Event) { events = append(events, ev) })
	if err != nil {
		t.Fatal(err)
	}

	// The model was offered the tool under its own name, with the schema
	// inferred from the input type.
	reqs := model.Requests()
	offered, _ := json.Marshal(reqs[0].Tools)
	for _, want := range []string{`"name":"weather"`, `"city"`, `"the city to forecast"`, `"days"`, `"required":["city"]`} {
		if !strings.Contains(string(offered), want) {
			t.Errorf("the model was offered %s, without %s", offered, want)
		}
	}
	mu.Lock()
	if len(got) != 1 || got[0] != (weatherIn{City: "Paris", Days: 3}) {
		t.Errorf("the Go function got %+v", got)
	}
	mu.Unlock()
	// The model reads the output's JSON.
	if last := reqs[1].Messages[len(reqs[1].Messages)-1]; last.Role != "tool" || last.Content != `{"city":"Paris","temp_c":21.5}` {
		t.Errorf("the model got back %+v", last)
	}
	if res.Answer != "21.5 °C in Paris." || len(res.ToolCalls) != 1 || res.ToolCalls[0].IsError {
		t.Errorf("result %+v", res)
	}

	// The events carry the call as they do a server's, its server being
	// the host's own.
	var repaired, started, finished bool
	for _, ev := range events {
		switch ev := ev.(type) {
		case host.ToolCallRepaired:
			repaired = ev.Call.Name == "weather" && len(ev.Repairs) == 1 && strings.Contains(ev.Repairs[0], "days")
		case host.ToolCallStarted:
			started = ev.Call.Name == "weather" && ev.Server == host.HostServer && ev.Tool == "weather"
		case host.ToolCallFinished:
			finished = ev.Call.Name == "weather" && ev.Server == host.HostServer && !ev.IsError && strings.Contains(ev.Output, "temp_c")
		}
	}
	if !repaired || !started || !finished {
		t.Errorf("events repaired %v, started %v, finished %v: %#v", repaired, started, finished, events)
	}

	// The audit log records the call.
	h.Close()
	recs := readAudit(t, auditPath)
	if len(recs) != 1 || recs[0]["name"] != "weather" || recs[0]["server"] != host.HostServer || recs[0]["decision"] != "allowed" || recs[0]["ok"] != true {
		t.Errorf("audit log %v", recs)
	}
}

func readAudit(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []map[string]any
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("audit line %q: %v", sc.Text(), err)
		}
		if rec["kind"] == nil {
			recs = append(recs, rec)
		}
	}
	return recs
}

func TestGoToolArgumentsAreCheckedLikeAServersTool(t *testing.T) {
	var (
		got []weatherIn
		mu  sync.Mutex
	)
	h, model, _ := newHost(t, host.Options{Tools: []host.Tool{weatherTool(&got, &mu, host.ReadOnly())}}, noServers)
	// "city" is required.
	model.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("weather", map[string]any{"days": 2})}},
		ollamatest.Reply{Content: "I need a city."},
	)
	var rejected string
	res, err := h.PromptFunc(context.Background(), "Weather?", func(ev host.Event) {
		if ev, ok := ev.(host.ToolCallRejected); ok {
			rejected = ev.Reason
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rejected, "city") || len(res.ToolCalls) != 1 || !res.ToolCalls[0].Rejected || !strings.Contains(res.ToolCalls[0].Output, "city") {
		t.Errorf("rejected %q, calls %+v", rejected, res.ToolCalls)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 0 {
		t.Errorf("the Go function ran with %+v", got)
	}
}

func TestAGoToolNeedsApprovalUnlessMarkedReadOnly(t *testing.T) {
	var (
		got []weatherIn
		mu  sync.Mutex
	)
	var warned warnings
	h, model, _ := newHost(t, host.Options{Warn: warned.add, Tools: []host.Tool{weatherTool(&got, &mu)}}, noServers)
	call := ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("weather", map[string]any{"city": "Oslo"})}}
	model.Enqueue(call, ollamatest.Reply{Content: "not allowed"})
	res, err := h.Prompt(context.Background(), "Weather in Oslo?")
	if err != nil {
		t.Fatal(err)
	}
	if !res.ToolCalls[0].IsError || !strings.Contains(res.ToolCalls[0].Output, "needs the user's approval") {
		t.Errorf("the call was not refused: %+v", res.ToolCalls[0])
	}
	if w := warned.all(); !strings.Contains(w, "--allow-tool 'weather'") {
		t.Errorf("warnings %q do not say how to allow it", w)
	}

	// The person asked is asked about the tool by its name.
	var asked []string
	h.SetAsker(callAsker{approve: func(req ask.CallRequest) ask.Approval {
		asked = append(asked, req.Name+" "+req.Server)
		return ask.Approval{Choice: ask.YesOnce}
	}})
	model.Enqueue(call, ollamatest.Reply{Content: "sunny"})
	if _, err := h.Prompt(context.Background(), "Weather in Oslo?"); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 1 || asked[0] != "weather "+host.HostServer || len(got) != 1 || got[0].City != "Oslo" {
		t.Errorf("asked %q, the function got %+v", asked, got)
	}
}

func TestApprovalRulesMatchAGoToolByItsName(t *testing.T) {
	for _, rule := range []string{"weather", host.HostServer + "__*"} {
		t.Run(rule, func(t *testing.T) {
			var (
				got []weatherIn
				mu  sync.Mutex
			)
			h, model, _ := newHost(t, host.Options{Tools: []host.Tool{weatherTool(&got, &mu)}}, noServers, allowing(rule))
			model.Enqueue(ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("weather", map[string]any{"city": "Rome"})}}, ollamatest.Reply{Content: "ok"})
			res, err := h.Prompt(context.Background(), "Weather in Rome?")
			if err != nil {
				t.Fatal(err)
			}
			if res.ToolCalls[0].IsError {
				t.Errorf("allowed by %q, the call failed: %+v", rule, res.ToolCalls[0])
			}
		})
	}
	// A deny rule hides it from the model.
	h, model, _ := newHost(t, host.Options{Tools: []host.Tool{weatherTool(new([]weatherIn), new(sync.Mutex), host.ReadOnly())}},
		noServers, func(c *config.Settings) { c.Approval.Deny = []string{"weather"} })
	model.Enqueue(ollamatest.Reply{Content: "ok"})
	if _, err := h.Prompt(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	if tools := model.Requests()[0].Tools; len(tools) != 0 || len(h.Tools()) != 0 {
		t.Errorf("a denied Go tool was offered: %v", tools)
	}
}

func TestCallToolReachesGoTools(t *testing.T) {
	var (
		got []weatherIn
		mu  sync.Mutex
	)
	echo := host.NewTool("echo", "Say the text back.", func(_ context.Context, in struct {
		Text string `json:"text"`
	}) (string, error) {
		return in.Text, nil
	})
	anyOut := host.NewTool("anything", "Return what it is given.", func(_ context.Context, in map[string]any) (any, error) {
		return in["value"], nil
	})
	ctx := context.Background()
	h, err := host.New(ctx, host.Options{Config: host.DefaultConfig(), Tools: []host.Tool{weatherTool(&got, &mu), echo, anyOut}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()

	var names []string
	for _, ti := range h.Tools() {
		names = append(names, ti.Name+"@"+ti.Server)
		if ti.Name == "weather" && (len(ti.Def.OutputSchema) == 0 || !strings.Contains(string(ti.Def.InputSchema), `"city"`)) {
			t.Errorf("weather's definition %+v", ti.Def)
		}
	}
	if strings.Join(names, " ") != "weather@mcphost echo@mcphost anything@mcphost" {
		t.Errorf("tools %v", names)
	}
	if name, err := h.ResolveTool("Weather"); err != nil || name != "weather" {
		t.Errorf("ResolveTool: %q, %v", name, err)
	}

	// A struct result: structured content, and its JSON as text. The
	// approval policy does not apply: the program named the tool.
	res, err := h.CallTool(ctx, "weather", map[string]any{"city": "Lima"})
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := res.Structured.(map[string]any); !ok || m["city"] != "Lima" || m["temp_c"] != 21.5 || res.Text() != `{"city":"Lima","temp_c":21.5}` || res.IsError {
		t.Errorf("weather: %+v", res)
	}
	// Arguments that do not fit the schema are a tool error, and the
	// function does not run.
	res, err = h.CallTool(ctx, "weather", map[string]any{"days": 1})
	if err != nil || !res.IsError || !strings.Contains(res.Text(), "city") {
		t.Errorf("bad arguments: %+v, %v", res, err)
	}
	// A string result is the text itself.
	res, err = h.CallTool(ctx, "echo", map[string]any{"text": "hello"})
	if err != nil || res.Text() != "hello" || res.Structured != nil {
		t.Errorf("echo: %+v, %v", res, err)
	}
	// An any result: a value as its JSON, a string as text.
	res, err = h.CallTool(ctx, "anything", map[string]any{"value": []any{1, "two"}})
	if err != nil || res.Text() != `[1,"two"]` || res.Structured == nil {
		t.Errorf("anything: %+v, %v", res, err)
	}
	res, err = h.CallTool(ctx, "anything", map[string]any{"value": "plain"})
	if err != nil || res.Text() != "plain" || res.Structured != nil {
		t.Errorf("anything (a string): %+v, %v", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 {
		t.Errorf("weather ran %d times, want 1", len(got))
	}
}

func TestAGoToolsPanicOrErrorIsAToolError(t *testing.T) {
	boom := host.NewTool("boom", "Fail.", func(_ context.Context, in struct {
		Panic bool `json:"panic,omitempty"`
	}) (string, error) {
		if in.Panic {
			panic("a bug of the program")
		}
		return "", errors.New("the disk is full")
	}, host.ReadOnly())
	var warned warnings
	h, model, _ := newHost(t, host.Options{Warn: warned.add, Tools: []host.Tool{boom}}, noServers)
	model.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("boom", map[string]any{"panic": true})}},
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("boom", map[string]any{})}},
		ollamatest.Reply{Content: "both failed"},
	)
	res, err := h.Prompt(context.Background(), "go")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ToolCalls) != 2 || res.Answer != "both failed" {
		t.Fatalf("result %+v", res)
	}
	if c := res.ToolCalls[0]; !c.IsError || !strings.Contains(c.Output, "failed unexpectedly") {
		t.Errorf("the panic reached the model as %+v", c)
	}
	if !strings.Contains(warned.all(), `Go tool "boom" panicked: a bug of the program`) {
		t.Errorf("warnings %q", warned.all())
	}
	if c := res.ToolCalls[1]; !c.IsError || c.Output != "the disk is full" {
		t.Errorf("the error reached the model as %+v", c)
	}
}

func TestAGoToolIsCancelledWithItsTurn(t *testing.T) {
	started := make(chan struct{})
	wait := host.NewTool("wait", "Wait for a long time.", func(ctx context.Context, _ struct{}) (string, error) {
		close(started)
		<-ctx.Done()
		return "", ctx.Err()
	}, host.ReadOnly())
	h, model, _ := newHost(t, host.Options{Tools: []host.Tool{wait}}, noServers)
	model.Enqueue(ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("wait", nil)}}, ollamatest.Reply{Content: "never"})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	if _, err := h.Prompt(ctx, "wait"); !errors.Is(err, context.Canceled) {
		t.Errorf("the turn ended with %v, want context.Canceled", err)
	}
	if n := model.RequestCount(); n != 1 {
		t.Errorf("the model was called %d times after the cancelled call", n-1)
	}
}

func TestGoToolSecretsAreMaskedInEventsAndTheAuditLog(t *testing.T) {
	const key = "sk-secret-0123456789abcdef"
	leak := host.NewTool("leak", "Say the key.", func(_ context.Context, _ struct {
		Note string `json:"note,omitempty"`
	}) (string, error) {
		return "the key is " + key, nil
	}, host.ReadOnly())
	auditPath := filepath.Join(t.TempDir(), "audit.jsonl")
	h, model, _ := newHost(t, host.Options{MaskEvents: true, Tools: []host.Tool{leak}},
		noServers, func(c *config.Settings) { c.ProviderAPIKey, c.Audit = key, auditPath })
	model.Enqueue(ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("leak", map[string]any{"note": key})}}, ollamatest.Reply{Content: "ok"})
	var outputs []string
	if _, err := h.PromptFunc(context.Background(), "key?", func(ev host.Event) {
		if ev, ok := ev.(host.ToolCallFinished); ok {
			outputs = append(outputs, ev.Output)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if len(outputs) != 1 || strings.Contains(outputs[0], key) || !strings.Contains(outputs[0], "the key is") {
		t.Errorf("event outputs %q", outputs)
	}
	h.Close()
	data, err := os.ReadFile(auditPath)
	if err != nil || strings.Contains(string(data), key) || !strings.Contains(string(data), `"leak"`) {
		t.Errorf("audit log %s, %v", data, err)
	}
}

func TestBadGoToolsAreConfigurationErrors(t *testing.T) {
	type noObject string
	ok := func(name string) host.Tool {
		return host.NewTool(name, "", func(context.Context, struct{}) (string, error) { return "", nil })
	}
	dir := t.TempDir()
	cases := []struct {
		name    string
		tools   []host.Tool
		servers []config.ServerSpec
		want    []string
	}{
		{"empty name", []host.Tool{ok("")}, nil, []string{"needs a name"}},
		{"space", []host.Tool{ok("get weather")}, nil, []string{`"get weather"`, `' '`}},
		{"too long", []host.Tool{ok(strings.Repeat("x", 65))}, nil, []string{"at most 64"}},
		{"zero tool", []host.Tool{{}}, nil, []string{"NewTool", "number 1"}},
		{"input not an object", []host.Tool{host.NewTool("t", "", func(context.Context, noObject) (string, error) { return "", nil })}, nil, []string{`"t"`, "struct or a map"}},
		{"twice", []host.Tool{ok("get_weather"), ok("Get-Weather")}, nil, []string{`"Get-Weather"`, `"get_weather"`}},
		{"resource tool", []host.Tool{ok(host.ReadResourceTool)}, nil, []string{host.ReadResourceTool}},
		{"search tool", []host.Tool{ok("mcphost__search_tools")}, nil, []string{"mcphost__search_tools"}},
		{"server tool", []host.Tool{ok("fs__read_file")}, []config.ServerSpec{fsSpec(dir)}, []string{`"fs__read_file"`, `"read_file"`, `server "fs"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := noFiles("", "", c.servers...)
			cfg.NoCache = true
			opts := host.Options{Config: cfg, Tools: c.tools}
			h, err := host.New(context.Background(), opts)
			if err == nil {
				h.Close()
				t.Fatal("New accepted the tools")
			}
			if !errors.Is(err, host.ErrConfig) {
				t.Errorf("%v does not match ErrConfig", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q does not say %s", err, w)
				}
			}
		})
	}
}

func TestGoToolsAreSelectedLikeServersTools(t *testing.T) {
	var tools []host.Tool
	for _, topic := range []string{"invoices", "payroll", "inventory", "shipping", "calendar", "contacts", "tickets", "billing", "reports", "backups", "printers", "badges"} {
		tools = append(tools, host.NewTool("manage_"+topic, "Create, update, list and delete the "+topic+" of the company, with every option a large system offers for "+topic+".",
			func(context.Context, struct {
				ID     string `json:"id" jsonschema:"the record's identifier"`
				Action string `json:"action" jsonschema:"create, update, list or delete"`
				Note   string `json:"note,omitempty" jsonschema:"free text kept with the record"`
			}) (string, error) {
				return "done", nil
			}, host.ReadOnly()))
	}
	var (
		got []weatherIn
		mu  sync.Mutex
	)
	tools = append(tools, weatherTool(&got, &mu, host.ReadOnly()))
	h, model, _ := newHost(t, host.Options{Tools: tools}, noServers, func(c *config.Settings) { c.NumCtx, c.ToolShare = 2048, 0.1 })
	model.Enqueue(ollamatest.Reply{Content: "sunny"})
	var selected *host.ToolsSelected
	if _, err := h.PromptFunc(context.Background(), "What is the weather forecast for Paris?", func(ev host.Event) {
		if ev, ok := ev.(host.ToolsSelected); ok {
			selected = &ev
		}
	}); err != nil {
		t.Fatal(err)
	}
	if selected == nil || selected.Total != len(tools) || len(selected.Offered) >= len(tools) || selected.Offered[0] != "weather" {
		t.Errorf("selected %+v", selected)
	}
}

func TestAGoToolReportsProgress(t *testing.T) {
	slow := host.NewTool("slow", "Work in steps.", func(ctx context.Context, _ struct{}) (string, error) {
		if report := tool.ProgressOf(ctx); report != nil {
			report(tool.Progress{Progress: 1, Total: 2, Message: "half way"})
		}
		return "done", nil
	}, host.ReadOnly())
	h, model, _ := newHost(t, host.Options{Tools: []host.Tool{slow}}, noServers)
	model.Enqueue(ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("slow", nil)}}, ollamatest.Reply{Content: "ok"})
	var progress []string
	if _, err := h.PromptFunc(context.Background(), "go", func(ev host.Event) {
		if ev, ok := ev.(host.ToolProgress); ok {
			progress = append(progress, ev.Message)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if len(progress) != 1 || progress[0] != "half way" {
		t.Errorf("progress events %q", progress)
	}
}

func TestAServerToolThatAppearsUnderAGoToolsNameIsNotOffered(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "web"}, nil)
	type none struct{}
	mcp.AddTool(srv, &mcp.Tool{Name: "ping"}, func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
		return nil, "pong", nil
	})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(ts.Close)

	mine := host.NewTool("web__lookup", "The program's lookup.", func(context.Context, struct{}) (string, error) {
		return "the program's", nil
	}, host.ReadOnly())
	changed := make(chan struct{}, 1)
	var warned warnings
	h, err := host.New(context.Background(), host.Options{Warn: warned.add,
		Config:   noFiles("", "", config.ServerSpec{Name: "web", Transport: config.TransportHTTP, URL: ts.URL}),
		Tools:    []host.Tool{mine},
		OnChange: func(host.ListChange) { changed <- struct{}{} },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	// New found no clash; now the server adds a tool the model would see
	// under the Go tool's name.
	mcp.AddTool(srv, &mcp.Tool{Name: "lookup"}, func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
		return nil, "the server's", nil
	})
	<-changed
	var names []string
	for _, ti := range h.Tools() {
		names = append(names, ti.Name+"@"+ti.Server)
	}
	if strings.Join(names, " ") != "web__ping@web web__lookup@mcphost" {
		t.Errorf("tools %v", names)
	}
	if w := warned.all(); !strings.Contains(w, `tool "lookup" of server "web" is not offered`) || !strings.Contains(w, `Go tool "web__lookup"`) {
		t.Errorf("warnings %q", w)
	}
	res, err := h.CallTool(context.Background(), "web__lookup", nil)
	if err != nil || res.Text() != "the program's" {
		t.Errorf("web__lookup: %+v, %v", res, err)
	}
}

func TestHooksRunForAGoTool(t *testing.T) {
	hooks := config.Hooks{config.HookPreToolUse: {{Matcher: "weather",
		Commands: []config.HookCommand{{Command: "echo 'no forecasts today' >&2; exit 2", Timeout: 10 * time.Second}}}}}
	var (
		got []weatherIn
		mu  sync.Mutex
	)
	h, model, _ := newHost(t, host.Options{Tools: []host.Tool{weatherTool(&got, &mu, host.ReadOnly())}},
		noServers, func(c *config.Settings) { c.Hooks = hooks })
	model.Enqueue(ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("weather", map[string]any{"city": "Paris"})}}, ollamatest.Reply{Content: "blocked"})
	res, err := h.Prompt(context.Background(), "Weather in Paris?")
	if err != nil {
		t.Fatal(err)
	}
	if c := res.ToolCalls[0]; !c.IsError || !strings.Contains(c.Output, "no forecasts today") {
		t.Errorf("the hook did not block the call: %+v", c)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 0 {
		t.Errorf("the Go function ran with %+v", got)
	}
}
