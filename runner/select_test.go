package runner_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcphost/mcphost/internal/budget"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/runner"
	"github.com/mcphost/mcphost/tool"
)

// selectionData is where the tool definitions of seven real servers and
// the requests for them are kept (see toolselect/testdata).
const selectionData = "../internal/toolselect/testdata"

// serverTools reads the tools of the servers in toolselect/testdata, as
// "mcphost tools list --output json" printed them, named server__tool.
// copies > 1 repeats every server under other names (fs2, bash2, …), for
// a bigger catalogue.
func serverTools(t testing.TB, copies int) []provider.Tool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(selectionData, "servers", "*.json"))
	if err != nil || len(files) < 5 {
		t.Fatalf("server definitions: %v (%d files)", err, len(files))
	}
	var tools []provider.Tool
	for c := 1; c <= copies; c++ {
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var list struct {
				Tools []struct {
					Name        string          `json:"name"`
					Description string          `json:"description"`
					InputSchema json.RawMessage `json:"inputSchema"`
				} `json:"tools"`
			}
			if err := json.Unmarshal(data, &list); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			server := strings.TrimSuffix(filepath.Base(f), ".json")
			if c > 1 {
				server += fmt.Sprint(c)
			}
			for _, tl := range list.Tools {
				tools = append(tools, provider.Tool{Name: server + "__" + tl.Name, Description: tl.Description, Parameters: tl.InputSchema})
			}
		}
	}
	return tools
}

// selectionRequest is a request and the tools that answer it; Kind is
// how it is written: en, typo, everyday, or the language (es, de, fr, pt,
// it).
type selectionRequest struct {
	Request string   `json:"request"`
	Tools   []string `json:"tools"`
	Kind    string   `json:"kind"`
}

func selectionRequests(t testing.TB, file string) []selectionRequest {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(selectionData, file))
	if err != nil {
		t.Fatal(err)
	}
	var reqs []selectionRequest
	if err := json.Unmarshal(data, &reqs); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return reqs
}

// recall is what tool selection achieved over a set of requests.
type recall struct {
	requests, hits int
	misses         []string
	// byKind counts the requests and hits of each kind.
	byKind map[string][2]int
	// tools and tokens add up what the first request of each turn
	// offered; maxTokens is the largest. jsonTokens are the offered
	// tools' JSON, as an OpenAI-style request declares them, at 3 bytes
	// per token, one per request.
	tools, tokens, maxTokens int
	jsonTokens               []int
}

func (r recall) rate() float64 { return float64(r.hits) / float64(r.requests) }

// measureRecall runs each request as the first turn of a conversation with
// the catalogue and an 8,192-token window, and checks that the tools the
// model was offered hold one that answers it.
func measureRecall(t testing.TB, tools []provider.Tool, reqs []selectionRequest, share float64) recall {
	t.Helper()
	out := recall{byKind: map[string][2]int{}}
	for _, req := range reqs {
		model := &scriptedModel{replies: []provider.Message{{Content: "ok"}}}
		r := runner.New(model, instantTools{tools: tools}, runner.Options{Model: toolModel(), NumCtx: 8192, ToolShare: share})
		if _, err := r.Run(context.Background(), req.Request, nil); err != nil {
			t.Fatalf("%q: %v", req.Request, err)
		}
		offered := model.requests[0].Tools
		tokens := 0
		hit := false
		for _, tool := range offered {
			tokens += budget.Tool(tool)
			hit = hit || slices.Contains(req.Tools, tool.Name)
		}
		out.requests++
		k := out.byKind[req.Kind]
		k[0]++
		if hit {
			k[1]++
		}
		out.byKind[req.Kind] = k
		out.tools += len(offered)
		out.tokens += tokens
		out.jsonTokens = append(out.jsonTokens, declaredJSON(offered)/3)
		out.maxTokens = max(out.maxTokens, tokens)
		if hit {
			out.hits++
		} else {
			out.misses = append(out.misses, req.Request)
		}
	}
	return out
}

// declaredJSON is the size of tools as a request declares them.
func declaredJSON(tools []provider.Tool) int {
	type function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters,omitempty"`
	}
	type declared struct {
		Type     string   `json:"type"`
		Function function `json:"function"`
	}
	var all []declared
	for _, t := range tools {
		all = append(all, declared{"function", function{t.Name, t.Description, t.Parameters}})
	}
	b, _ := json.Marshal(all)
	return len(b)
}

// TestToolSelectionRecall is the goal of tool selection: with the 52 tools
// of seven servers (≈ 7,800 tokens) and an 8,192-token window, the tools
// offered for a request take at most a quarter of the window, and hold
// the tool the request needs at least 95% of the time. The requests of
// requests.json were tuned on (the English ones written before the
// ranker, those with typos, in other languages and in everyday words
// before the tables of words.txt); those of heldout.json were written
// after the tuning of the ranker and were not tuned on; checked-people.json
// was held out in the first round of the tables and has been seen since;
// heldout-round2.json (five languages, typos, everyday wording) was written
// after the second round of tuning and not tuned on (see
// testdata/README.md).
func TestToolSelectionRecall(t *testing.T) {
	tools := serverTools(t, 1)
	all := 0
	for _, tool := range tools {
		all += budget.Tool(runnerOffer(tool))
	}
	if all <= 8192/4 {
		t.Fatalf("the catalogue takes %d tokens: too few to need selection", all)
	}
	for _, set := range []struct {
		file string
		min  float64
	}{{"requests.json", 0.95}, {"heldout.json", 0.90}, {"checked-people.json", 0.95}, {"heldout-round2.json", 0.95}} {
		reqs := selectionRequests(t, set.file)
		got := measureRecall(t, tools, reqs, 0.25)
		t.Logf("%s: recall %d/%d = %.1f%%, %.1f of %d tools offered, %d tokens on average, %d at most (of %d for all tools)",
			set.file, got.hits, got.requests, 100*got.rate(), float64(got.tools)/float64(got.requests), len(tools),
			got.tokens/got.requests, got.maxTokens, all)
		slices.Sort(got.jsonTokens)
		t.Logf("  the offered tools' JSON at 3 bytes per token: %.1f%% of the window at the median, %.1f%% at most",
			100*float64(got.jsonTokens[len(got.jsonTokens)/2])/8192, 100*float64(got.jsonTokens[len(got.jsonTokens)-1])/8192)
		for _, kind := range slices.Sorted(maps.Keys(got.byKind)) {
			k := got.byKind[kind]
			t.Logf("  %s: %d/%d", kind, k[1], k[0])
		}
		for _, m := range got.misses {
			t.Logf("  missed: %s", m)
		}
		if got.maxTokens > 8192/4 {
			t.Errorf("%s: the offered tools took up to %d tokens, more than a quarter of the window", set.file, got.maxTokens)
		}
		if got.rate() < set.min {
			t.Errorf("%s: recall %.1f%% < %.0f%%; missed: %q", set.file, 100*got.rate(), 100*set.min, got.misses)
		}
	}
}

// runnerOffer is a tool as the model is sent it.
func runnerOffer(t provider.Tool) provider.Tool {
	offered, _ := runner.Offer(t)
	return offered
}

// BenchmarkToolSelection prints the recall of tool selection over the
// request sets, the share of the window the offered tools take, and the
// host's time per step of a tool loop when it selects among 52 and 364
// tools.
func BenchmarkToolSelection(b *testing.B) {
	tools := serverTools(b, 1)
	for _, share := range []float64{0.25, 0.125, 0.0625} {
		for _, file := range []string{"requests.json", "heldout.json"} {
			reqs := selectionRequests(b, file)
			got := measureRecall(b, tools, reqs, share)
			b.Logf("share %.4g, %s: recall %d/%d = %.1f%%; offered %.1f of %d tools, %.1f%% of the 8192-token window on average, %.1f%% at most",
				share, file, got.hits, got.requests, 100*got.rate(), float64(got.tools)/float64(got.requests), len(tools),
				100*float64(got.tokens)/float64(got.requests)/8192, 100*float64(got.maxTokens)/8192)
		}
	}
	for _, copies := range []int{1, 7} {
		tools := serverTools(b, copies)
		b.Run(fmt.Sprintf("step/%d-tools", len(tools)), func(b *testing.B) {
			benchmarkSelectionSteps(b, tools, 0.25)
		})
		b.Run(fmt.Sprintf("step/%d-tools-all-offered", len(tools)), func(b *testing.B) {
			benchmarkSelectionSteps(b, tools, 0)
		})
	}
}

// benchmarkSelectionSteps is the host's time per step of a 20-step tool
// loop whose tools do not fit: ranking once per turn, choosing per step;
// with share 0, every tool offered, for comparison.
// A first turn, not timed, prepares the tool list and its index, which a
// conversation does once (BenchmarkNewIndex in toolselect measures that).
func benchmarkSelectionSteps(b *testing.B, tools []provider.Tool, share float64) {
	const steps = 20
	var total time.Duration
	for b.Loop() {
		model := &scriptedModel{replies: []provider.Message{{Content: "ready"}}}
		for step := range steps {
			model.replies = append(model.replies, provider.Message{ToolCalls: []provider.ToolCall{{
				ID: fmt.Sprint(step), Name: "everything__get-sum", Arguments: map[string]any{"a": float64(step), "b": 1.0}}}})
		}
		model.replies = append(model.replies, provider.Message{Content: "done"})
		// Every tool offered needs a window they fit in (7.8k tokens for
		// 52 of them).
		numCtx := 8192
		if share == 0 {
			numCtx = 65536
		}
		r := runner.New(model, instantTools{tools: tools}, runner.Options{Model: toolModel(), MaxSteps: steps + 1, NumCtx: numCtx, ToolShare: share})
		if _, err := r.Run(context.Background(), "hello", nil); err != nil {
			b.Fatal(err)
		}
		r.Reset()
		start := time.Now()
		res, err := r.Run(context.Background(), "Add up the numbers from 1 to 20 with the sum tool, then list the files of the project folder", nil)
		total += time.Since(start)
		if err != nil || len(res.ToolCalls) != steps || res.Rejected > 0 {
			b.Fatalf("run: %v, %d calls, %d rejected", err, len(res.ToolCalls), res.Rejected)
		}
		if n := len(model.requests[1].Tools); (n < len(tools)) != (share > 0) {
			b.Fatalf("%d of %d tools offered with share %v", n, len(tools), share)
		}
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N*(steps+1)), "host-ms/step")
}

// recordingTools answers every call with "ok from NAME" and records the
// names called.
type recordingTools struct {
	instantTools
	mu    sync.Mutex
	calls []string
}

func (t *recordingTools) Call(_ context.Context, name string, _ map[string]any) (*tool.Result, error) {
	t.mu.Lock()
	t.calls = append(t.calls, name)
	t.mu.Unlock()
	return &tool.Result{Content: []tool.Content{{Kind: tool.Text, Text: "ok from " + name}}}, nil
}

func toolNames(tools []provider.Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name
	}
	return out
}

// selectionRunner is a runner over the seven servers' tools with an
// 8,192-token window and a quarter of it for the tools.
func selectionRunner(t *testing.T, model *scriptedModel, opts runner.Options) (*runner.Runner, *recordingTools) {
	tools := &recordingTools{instantTools: instantTools{tools: serverTools(t, 1)}}
	opts.Model, opts.NumCtx = toolModel(), 8192
	if opts.ToolShare == 0 {
		opts.ToolShare = 0.25
	}
	return runner.New(model, tools, opts), tools
}

func TestAllToolsOfferedWhenTheyFit(t *testing.T) {
	model := &scriptedModel{replies: []provider.Message{{Content: "ok"}, {Content: "ok"}}}
	tools := instantTools{tools: serverTools(t, 1)[:10]}
	var selected []runner.ToolsSelected
	emit := func(ev runner.Event) {
		if s, ok := ev.(runner.ToolsSelected); ok {
			selected = append(selected, s)
		}
	}
	r := runner.New(model, tools, runner.Options{Model: toolModel(), NumCtx: 8192, ToolShare: 0.25})
	if _, err := r.Run(context.Background(), "what is in the knowledge graph?", emit); err != nil {
		t.Fatal(err)
	}
	// Off: every tool even when they take more than a quarter.
	r = runner.New(model, instantTools{tools: serverTools(t, 1)}, runner.Options{Model: toolModel(), NumCtx: 16384})
	if _, err := r.Run(context.Background(), "what is in the knowledge graph?", emit); err != nil {
		t.Fatal(err)
	}
	if got := toolNames(model.requests[0].Tools); !slices.Equal(got, toolNames(tools.tools)) {
		t.Errorf("tools that fit: offered %q, want all %d in order", got, len(tools.tools))
	}
	if n := len(model.requests[1].Tools); n != 52 {
		t.Errorf("ToolShare 0 offered %d tools, want all 52", n)
	}
	if len(selected) != 0 {
		t.Errorf("ToolsSelected without selection: %+v", selected)
	}
}

func TestSelectionOffersTheBestMatchesAndSaysWhy(t *testing.T) {
	model := &scriptedModel{replies: []provider.Message{{Content: "ok"}, {Content: "ok"}}}
	r, _ := selectionRunner(t, model, runner.Options{})
	var selected []runner.ToolsSelected
	emit := func(ev runner.Event) {
		if s, ok := ev.(runner.ToolsSelected); ok {
			selected = append(selected, s)
		}
	}
	if _, err := r.Run(context.Background(), "Forget everything about the project Zeus; then run `echo`", emit); err != nil {
		t.Fatal(err)
	}
	offered := toolNames(model.requests[0].Tools)
	if len(selected) != 1 {
		t.Fatalf("%d ToolsSelected events, want 1: %+v", len(selected), selected)
	}
	s := selected[0]
	if !slices.Equal(s.Offered, offered) || len(s.Reasons) != len(offered) || s.Total != 52 || s.Step != 1 || s.Ranker != runner.RankerLexical {
		t.Fatalf("event %+v does not describe the request's %q", s, offered)
	}
	if s.Tokens > s.Budget || s.Budget != 2048 {
		t.Errorf("tokens %d, budget %d: want at most a quarter of 8192", s.Tokens, s.Budget)
	}
	reason := map[string]string{}
	for i, name := range s.Offered {
		reason[name] = s.Reasons[i]
	}
	for name, want := range map[string]string{
		"memory__delete_entities": runner.ReasonRanked,
		"everything__echo":        runner.ReasonNamed,
		runner.SearchToolName:     runner.ReasonSearch,
	} {
		if reason[name] != want {
			t.Errorf("%s offered for %q, want %q (offered: %q)", name, reason[name], want, offered)
		}
	}
	if offered[len(offered)-1] != runner.SearchToolName {
		t.Errorf("the search tool should come last: %q", offered)
	}
}

func TestSearchToolFindsToolsForTheNextStep(t *testing.T) {
	model := &scriptedModel{replies: []provider.Message{
		{ToolCalls: []provider.ToolCall{{ID: "1", Name: runner.SearchToolName, Arguments: map[string]any{"query": "gzip compression"}}}},
		{ToolCalls: []provider.ToolCall{{ID: "2", Name: "everything__gzip-file-as-resource", Arguments: map[string]any{"name": "a.gz", "data": "aaaa"}}}},
		{Content: "done"},
	}}
	r, tools := selectionRunner(t, model, runner.Options{})
	var selected []runner.ToolsSelected
	var finished []runner.ToolCallFinished
	res, err := r.Run(context.Background(), "Remember that Alice works at Acme", func(ev runner.Event) {
		switch ev := ev.(type) {
		case runner.ToolsSelected:
			selected = append(selected, ev)
		case runner.ToolCallFinished:
			finished = append(finished, ev)
		}
	})
	if err != nil || res.Answer != "done" {
		t.Fatalf("run: %v, %+v", err, res)
	}
	if slices.Contains(toolNames(model.requests[0].Tools), "everything__gzip-file-as-resource") {
		t.Fatal("the gzip tool was offered from the start: the test proves nothing")
	}
	if !slices.Contains(toolNames(model.requests[1].Tools), "everything__gzip-file-as-resource") {
		t.Errorf("after the search the gzip tool is not offered: %q", toolNames(model.requests[1].Tools))
	}
	if len(finished) != 2 || finished[0].Server != "mcphost" || finished[0].IsError ||
		!strings.Contains(finished[0].Output, "everything__gzip-file-as-resource") || !strings.Contains(finished[0].Output, "data (string") {
		t.Fatalf("search result: %+v", finished)
	}
	if !slices.Equal(tools.calls, []string{"everything__gzip-file-as-resource"}) {
		t.Errorf("toolbox calls %q: the search must not reach it, the found tool must", tools.calls)
	}
	if len(selected) != 2 || selected[1].Step != 2 {
		t.Fatalf("ToolsSelected %+v: want one per set, the second at step 2", selected)
	}
	if i := slices.Index(selected[1].Offered, "everything__gzip-file-as-resource"); i < 0 || selected[1].Reasons[i] != runner.ReasonFound {
		t.Errorf("the found tool's reason: %+v", selected[1])
	}
	// The next turn: found tools are forgotten, called ones stay.
	model.replies = append(model.replies, provider.Message{Content: "ok"})
	if _, err := r.Run(context.Background(), "What is in my knowledge graph?", nil); err != nil {
		t.Fatal(err)
	}
	next := toolNames(model.requests[3].Tools)
	if !slices.Contains(next, "everything__gzip-file-as-resource") {
		t.Errorf("a tool called earlier is not offered in the next turn: %q", next)
	}
}

func TestSearchToolCallsThatCannotRun(t *testing.T) {
	model := &scriptedModel{replies: []provider.Message{
		{ToolCalls: []provider.ToolCall{{ID: "1", Name: "search_tools", Arguments: map[string]any{}}}},
		{ToolCalls: []provider.ToolCall{{ID: "2", Name: "functions.mcphost__search_tools", Arguments: map[string]any{"q": "zzqqx"}}}},
		{Content: "done"},
	}}
	r, tools := selectionRunner(t, model, runner.Options{})
	res, err := r.Run(context.Background(), "Remember that Alice works at Acme", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ToolCalls) != 2 || !res.ToolCalls[0].Rejected || !strings.Contains(res.ToolCalls[0].Output, `needs the argument "query"`) {
		t.Errorf("a search without a query: %+v", res.ToolCalls)
	}
	if c := res.ToolCalls[1]; c.Call.Name != runner.SearchToolName || c.Rejected || !strings.Contains(c.Output, "No tool matches") ||
		!strings.Contains(c.Output, "memory (9)") {
		t.Errorf("a search that finds nothing: %+v", c)
	}
	if len(tools.calls) != 0 {
		t.Errorf("searches reached the toolbox: %q", tools.calls)
	}
}

func TestNamedToolsAreAlwaysOffered(t *testing.T) {
	// A share so small that only the named tool and the search fit.
	model := &scriptedModel{replies: []provider.Message{{Content: "ok"}}}
	r, _ := selectionRunner(t, model, runner.Options{ToolShare: 0.03})
	if _, err := r.Run(context.Background(), "Call filesystem__directory_tree and memory__read_graph, then tell me the weather", nil); err != nil {
		t.Fatal(err)
	}
	got := toolNames(model.requests[0].Tools)
	for _, want := range []string{"filesystem__directory_tree", "memory__read_graph", runner.SearchToolName} {
		if !slices.Contains(got, want) {
			t.Errorf("%s not offered: %q", want, got)
		}
	}
}

func TestCalledToolsComeBackWithALoadedHistory(t *testing.T) {
	// A share with room for little besides the search tool.
	model := &scriptedModel{replies: []provider.Message{{Content: "ok"}}}
	r, _ := selectionRunner(t, model, runner.Options{ToolShare: 0.03})
	r.SetHistory([]provider.Message{
		{Role: provider.RoleUser, Content: "hi"},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "1", Name: "everything__get-tiny-image", Arguments: map[string]any{}}}},
		{Role: provider.RoleTool, ToolName: "everything__get-tiny-image", ToolCallID: "1", Content: "[image]"},
		{Role: provider.RoleAssistant, Content: "here"},
	})
	if _, err := r.Run(context.Background(), "Forget everything about Zeus", nil); err != nil {
		t.Fatal(err)
	}
	if got := toolNames(model.requests[0].Tools); !slices.Contains(got, "everything__get-tiny-image") {
		t.Errorf("the tool called in the loaded history is not offered: %q", got)
	}
}

// meaningEmbedder embeds by a table of meanings: a text's vector has a 1
// for each meaning it holds one of the words of.
type meaningEmbedder struct {
	meanings [][]string
	calls    int
	fail     bool
}

func (e *meaningEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	e.calls++
	if e.fail {
		return nil, fmt.Errorf(`model "nomic-embed-text" not found, try pulling it first`)
	}
	out := make([][]float32, len(texts))
	for i, text := range texts {
		v := make([]float32, len(e.meanings)+1)
		v[len(e.meanings)] = 0.01
		for j, words := range e.meanings {
			for _, w := range words {
				if strings.Contains(strings.ToLower(text), w) {
					v[j] = 1
				}
			}
		}
		out[i] = v
	}
	return out, nil
}

func TestEmbeddingRanksByMeaningAndFallsBack(t *testing.T) {
	// "kitten" is no word of any tool, but to this embedder it means what
	// memory__read_graph does: by words alone nothing matches, and the
	// tools offered are those that fit, in the list's order ("spare").
	e := &meaningEmbedder{meanings: [][]string{{"entire knowledge graph", "kitten"}}}
	model := &scriptedModel{replies: []provider.Message{{Content: "ok"}, {Content: "ok"}}}
	r, _ := selectionRunner(t, model, runner.Options{Embedder: e, ToolShare: 0.1})
	var selected []runner.ToolsSelected
	var warnings []string
	emit := func(ev runner.Event) {
		switch ev := ev.(type) {
		case runner.ToolsSelected:
			selected = append(selected, ev)
		case runner.Warning:
			warnings = append(warnings, ev.Message)
		}
	}
	reason := func(s runner.ToolsSelected, name string) string {
		if i := slices.Index(s.Offered, name); i >= 0 {
			return s.Reasons[i]
		}
		return "not offered"
	}
	if _, err := r.Run(context.Background(), "show me a kitten", emit); err != nil {
		t.Fatal(err)
	}
	if len(selected) != 1 || selected[0].Ranker != runner.RankerEmbedding {
		t.Fatalf("ToolsSelected %+v: want the embedding ranker", selected)
	}
	if got := reason(selected[0], "memory__read_graph"); got != runner.ReasonRanked {
		t.Errorf("memory__read_graph: %s, want ranked by its meaning (%+v)", got, selected[0])
	}
	e.fail = true
	if _, err := r.Run(context.Background(), "show me a kitten", emit); err != nil {
		t.Fatal(err)
	}
	if len(selected) != 2 || selected[1].Ranker != runner.RankerLexical {
		t.Fatalf("after the embedder failed: %+v", selected)
	}
	if got := reason(selected[1], "memory__read_graph"); got == runner.ReasonRanked {
		t.Errorf("by words alone memory__read_graph is ranked: the test proves nothing")
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "embedding model failed") || !strings.Contains(warnings[0], "not found") {
		t.Errorf("warnings %q", warnings)
	}
	calls := e.calls
	model.replies = append(model.replies, provider.Message{Content: "ok"})
	if _, err := r.Run(context.Background(), "a kitten again", emit); err != nil {
		t.Fatal(err)
	}
	if e.calls != calls || len(warnings) != 1 {
		t.Errorf("a failed embedder is asked again (%d calls, %d warnings)", e.calls-calls, len(warnings))
	}
}
