package e2e

// End-to-end: "mcphost doctor" against scripted engines (Ollama's API and
// an OpenAI-compatible server): a model that calls natively, one that
// writes the call as text, one that never calls, an engine that is down, a
// missing model, a server that cannot start, and the JSON report.

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/ollamatest"
	"github.com/mcphost/mcphost/openaitest"
)

// weatherModel answers as a model that calls the probe's tool natively:
// get_weather for Paris, then an answer from its result; without tools
// (the speed check), a sentence.
func weatherModel(req api.ChatRequest) ollamatest.Reply {
	switch {
	case len(req.Tools) == 0:
		return ollamatest.Reply{Content: "Because air scatters blue light most.", EvalCount: 8}
	case lastMessage(req).Role == "tool":
		return ollamatest.Reply{Content: "Sunny in Paris, 21 °C, for the next 2 days.", EvalCount: 12}
	}
	return ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("get_weather", map[string]any{"city": "Paris", "days": 2})}}
}

func TestDoctorModelThatCallsNatively(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Handle(weatherModel)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))

	// A window in which the everything server's 16 tools (about 2.2k
	// tokens) fit their quarter.
	out := runExit(t, invocation{args: []string{"doctor", "-m", "qwen3:8b", "--num-ctx", "16384"}, dir: dir, host: ollama.URL}, 0) // nothing wrong
	addr := strings.TrimPrefix(ollama.URL, "http://")
	wantAll(t, "stdout", out.stdout,
		"✓ engine: Ollama "+ollamatest.Version+" at http://"+addr+" (from OLLAMA_HOST) answers",
		"✓ model: qwen3:8b is there",
		"✓ capabilities: tools: yes, vision: no, thinking: no",
		"✓ context: trained on 32768 tokens",
		"✓ tool call: calls get_weather natively",
		`✓ arguments: city "Paris" (string), days 2 (integer), as asked`,
		`✓ stops: answered after one call: "Sunny in Paris, 21 °C, for the next 2 days."`,
		"✓ thinking: the model does not think",
		"✓ speed: first token after ",
		"✓ server everything: started in ",
		"✓ tool share: all tools (about ",
	)
	// The checks come in the order the issue lists them.
	order := []string{"engine:", "model:", "capabilities:", "context:", "tool call:", "arguments:", "stops:", "thinking:", "speed:", "server everything:", "tool share:"}
	last := -1
	for _, name := range order {
		i := regexp.MustCompile(`(?m)^. ` + regexp.QuoteMeta(name)).FindStringIndex(out.stdout)
		if i == nil || i[0] < last {
			t.Errorf("%q comes before an earlier check:\n%s", name, out.stdout)
		}
		if i != nil {
			last = i[0]
		}
	}
	// The probe offers mcphost's own two tools, never the user's: the
	// servers are only started and listed.
	for _, req := range ollama.Requests() {
		if got := slices.Sorted(slices.Values(requestTools(req))); len(got) > 0 && !slices.Equal(got, []string{"get_time", "get_weather"}) {
			t.Errorf("a probe offered %v, want only get_time and get_weather", got)
		}
	}
}

func TestDoctorModelThatWritesTheCallAsText(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Handle(func(req api.ChatRequest) ollamatest.Reply {
		if len(req.Tools) > 0 && lastMessage(req).Role == "user" {
			// The number written as a string, as llama3.2 does.
			return ollamatest.Reply{Content: "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": \"2\"}}\n</tool_call>"}
		}
		return weatherModel(req)
	})
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", `{"mcpServers": {}}`)

	// Recovered calls and repaired arguments work: caveats, not failures.
	out := runExit(t, invocation{args: []string{"doctor", "-m", "llama3.2"}, dir: dir, host: ollama.URL}, 0)
	wantAll(t, "stdout", out.stdout,
		"! tool call: writes the call of get_weather as text (<tool_call>), which mcphost recovered",
		`! arguments: right values, wrong types, repaired by mcphost: "days": string "2" taken as`,
		"✓ stops: answered after one call",
		"✓ servers: no MCP server is configured",
		"Recommendations:",
		"Set a low temperature: --temperature 0.2 (temperature: 0.2 in the config); mcphost now leaves it to the engine",
	)
}

func TestDoctorModelThatNeverCallsGetsAnotherRecommended(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer(
		ollamatest.Model{Name: "chatty"},
		ollamatest.Model{Name: "caller"},
		ollamatest.Model{Name: "nomic-embed-text", Capabilities: []string{"embedding"}},
	)
	defer ollama.Close()
	ollama.Handle(func(req api.ChatRequest) ollamatest.Reply {
		if strings.TrimSuffix(req.Model, ":latest") == "caller" {
			return weatherModel(req)
		}
		return ollamatest.Reply{Content: "I cannot look up the weather, but Paris is lovely."}
	})
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", `{"mcpServers": {}}`)

	out := runExit(t, invocation{args: []string{"doctor", "-m", "chatty"}, dir: dir, host: ollama.URL}, 3) // a model problem
	wantAll(t, "stdout", out.stdout,
		`✗ tool call: never called a tool: it answered "I cannot look up the weather, but Paris is lovely."`,
		"→ the model does not use tools as mcphost offers them",
		"? arguments: not known: get_weather was not called",
		"? stops: not known: no tool was called",
		"Another model does better: ollama:caller calls the probe's tool natively, with the right arguments, and stops: mcphost doctor -m ollama:caller",
	)
	for _, req := range ollama.Requests() {
		if strings.HasPrefix(req.Model, "nomic-embed-text") {
			t.Error("an embedding model was probed")
		}
	}
}

func TestDoctorEngineDownNamesTheAddress(t *testing.T) {
	t.Parallel()
	dead := closedPort(t)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", `{"mcpServers": {}}`)
	out := runExit(t, invocation{args: []string{"doctor", "-m", "qwen3:8b"}, dir: dir, host: dead}, 3)
	wantAll(t, "stdout", out.stdout,
		"✗ engine: cannot reach Ollama at "+dead+" (from OLLAMA_HOST)",
		"→ start it: ollama serve, or correct OLLAMA_HOST",
	)
	if strings.Contains(out.stdout, "tool call:") {
		t.Errorf("the model was probed without an engine:\n%s", out.stdout)
	}
}

func TestDoctorMissingModelSaysWhatWasMeant(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer(ollamatest.Model{Name: "qwen3:8b"}, ollamatest.Model{Name: "llama3.2:3b"})
	defer ollama.Close()
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", `{"mcpServers": {}}`)
	out := runExit(t, invocation{args: []string{"doctor", "-m", "qwen3:8"}, dir: dir, host: ollama.URL}, 3)
	wantAll(t, "stdout", out.stdout,
		"✗ model: Ollama does not have qwen3:8; did you mean ollama:qwen3:8b?",
		"→ mcphost doctor -m ollama:qwen3:8b; or download it: mcphost doctor -m qwen3:8 --pull (or ollama pull qwen3:8)",
	)
	if ollama.RequestCount() != 0 {
		t.Error("a missing model was sent a chat request")
	}
}

func TestDoctorWithoutAModelListsTheEngines(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer(ollamatest.Model{Name: "qwen3:8b"}, ollamatest.Model{Name: "llama3.2:3b"})
	defer ollama.Close()
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", `{"mcpServers": {}}`)
	out := runExit(t, invocation{args: []string{"doctor"}, dir: dir, host: ollama.URL}, 0)
	wantAll(t, "stdout", out.stdout, "✓ engine: Ollama", "? model: no model given (-m or model in a config file); Ollama has llama3.2:3b, qwen3:8b", "→ check one: mcphost doctor -m ollama:llama3.2:3b")
}

func TestDoctorServerThatFailsToStartExits1(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Handle(weatherModel)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", fmt.Sprintf(`{"mcpServers": {
		"broken": {"command": "sh", "args": ["-c", "echo 'cannot open database' >&2; exit 3"]},
		"everything": {"command": %q}}}`, mcptest.NPMBin(t, "mcp-server-everything")))
	out := runExit(t, invocation{args: []string{"doctor", "-m", "qwen3:8b"}, dir: dir, host: ollama.URL}, 1) // a server problem
	wantAll(t, "stdout", out.stdout, "✗ server broken: could not start", "cannot open database", "✓ server everything: started in ", "✓ tool call: calls get_weather natively")
}

func TestDoctorJSONReport(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Handle(func(req api.ChatRequest) ollamatest.Reply {
		if len(req.Tools) > 0 && lastMessage(req).Role == "user" {
			return ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("get_time", map[string]any{"zone": "Europe/Paris"})}}
		}
		return ollamatest.Reply{Content: "It is noon."}
	})
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", `{"mcpServers": {}}`)
	out := runExit(t, invocation{args: []string{"doctor", "-m", "tiny", "--output", "json"}, dir: dir, host: ollama.URL}, 3)
	var rep struct {
		Model  string `json:"model"`
		Checks []struct {
			Name   string  `json:"name"`
			OK     *bool   `json:"ok"`
			Status string  `json:"status"`
			Detail string  `json:"detail"`
			Fix    *string `json:"fix"`
		} `json:"checks"`
		Recommendations []string `json:"recommendations"`
		ExitCode        *int     `json:"exit_code"`
	}
	dec := json.NewDecoder(strings.NewReader(out.stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rep); err != nil || dec.More() {
		t.Fatalf("stdout is not one report object (%v):\n%s", err, out.stdout)
	}
	if rep.Model != "tiny" || rep.ExitCode == nil || *rep.ExitCode != 3 || rep.Recommendations == nil {
		t.Errorf("model %q, exit_code %v, recommendations %v", rep.Model, rep.ExitCode, rep.Recommendations)
	}
	byName := map[string]int{}
	for i, c := range rep.Checks {
		byName[c.Name] = i
		if c.OK == nil || c.Status == "" || c.Detail == "" {
			t.Errorf("check %d lacks ok, status or detail: %+v", i, c)
		}
		if *c.OK != (c.Status != "fail") {
			t.Errorf("check %q: ok %v with status %q", c.Name, *c.OK, c.Status)
		}
	}
	i, ok := byName["tool call"]
	if !ok {
		t.Fatalf("no tool call check: %s", out.stdout)
	}
	if c := rep.Checks[i]; c.Status != "fail" || c.Detail != "called get_time when asked to call get_weather" || c.Fix == nil {
		t.Errorf("tool call check = %+v", c)
	}
	if c := rep.Checks[byName["engine"]]; c.Status != "ok" {
		t.Errorf("engine check = %+v", c)
	}
}

func TestDoctorOpenAICompatibleEngine(t *testing.T) {
	t.Parallel()
	llama := openaitest.NewServer(openaitest.Options{Flavor: openaitest.LlamaCpp, Models: []openaitest.Model{{ID: "qwen2.5-7b-instruct", ContextLength: 16384}}})
	defer llama.Close()
	llama.Handle(func(req openaitest.Request) openaitest.Reply {
		switch {
		case len(req.Tools) == 0:
			return openaitest.Reply{Content: "Because air scatters blue light most."}
		case req.Messages[len(req.Messages)-1].Role == "tool":
			return openaitest.Reply{Content: "Sunny in Paris."}
		}
		return openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c1", Name: "get_weather", Arguments: `{"city":"Paris","days":2}`}}}
	})
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", `{"mcpServers": {}}`)
	out := runExit(t, invocation{args: []string{"doctor", "-m", "llamacpp:qwen2.5-7b-instruct", "--provider-url", llama.BaseURL}, dir: dir}, 0)
	wantAll(t, "stdout", out.stdout,
		"✓ engine: llama.cpp at "+llama.BaseURL+" (from --provider-url) answers, 1 model(s); its version is not known (the OpenAI-compatible API does not say)",
		"✓ tool call: calls get_weather natively",
		"✓ stops: answered after one call",
	)
	// What the engine cannot answer is "not known", not a failure.
	if strings.Contains(out.stdout, "✗") {
		t.Errorf("a check failed:\n%s", out.stdout)
	}
	t.Logf("mcphost doctor -m llamacpp:qwen2.5-7b-instruct:\n%s", out.stdout)
}

func TestDoctorThinkingModel(t *testing.T) {
	t.Parallel()
	thinking := []string{"completion", "tools", "thinking"}
	for _, tc := range []struct {
		name     string
		honours  bool
		code     int
		want     []string
		mustNot  []string
		thinkArg []string
	}{
		{"honours think=false", true, 0,
			[]string{"✓ capabilities: tools: yes, vision: no, thinking: yes", "✓ thinking: --think=false takes effect: no thinking came back",
				"Turn thinking off for tool use: --think=false"}, nil, nil},
		{"already off", true, 0, []string{"✓ thinking: --think=false takes effect"}, []string{"Turn thinking off"}, []string{"--think=false"}},
		{"thinks anyway", false, 0,
			[]string{"! thinking: the model thinks even when asked not to (--think=false)"}, []string{"Turn thinking off"}, nil},
		{"thinks although told not to", false, 3,
			[]string{"✗ thinking: the model thinks even when asked not to (--think=false)"}, []string{"Turn thinking off"}, []string{"--think=false"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ollama := ollamatest.NewServer(ollamatest.Model{Name: "qwen3:8b", Capabilities: thinking})
			defer ollama.Close()
			ollama.Handle(func(req api.ChatRequest) ollamatest.Reply {
				r := weatherModel(req)
				if req.Think == nil || req.Think.Bool() || !tc.honours {
					r.Thinking = "The user wants the weather."
				}
				return r
			})
			dir := t.TempDir()
			writeConfig(t, dir, ".mcp.json", `{"mcpServers": {}}`)
			out := runBinary(t, invocation{args: append([]string{"doctor", "-m", "qwen3:8b"}, tc.thinkArg...), dir: dir, host: ollama.URL})
			if out.code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", out.code, tc.code, out.stdout, out.stderr)
			}
			wantAll(t, "stdout", out.stdout, tc.want...)
			for _, not := range tc.mustNot {
				if strings.Contains(out.stdout, not) {
					t.Errorf("stdout has %q:\n%s", not, out.stdout)
				}
			}
		})
	}
}

func TestDoctorToolsThatDoNotFitTheirShare(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Handle(weatherModel)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	// A low temperature already: no recommendation to lower it.
	out := runExit(t, invocation{args: []string{"doctor", "-m", "qwen3:8b", "--num-ctx", "2048", "--temperature", "0.1"}, dir: dir, host: ollama.URL}, 0) // tool selection copes
	wantAll(t, "stdout", out.stdout,
		"✓ context: trained on 32768 tokens; mcphost asks for 2048 (--num-ctx)",
		"! tool share: the tools take about ",
		"more than their share, 25% of the 2048-token window (512): each request offers the most relevant ones and a search tool",
		"Give the model a larger window so that every tool is offered: --num-ctx ",
	)
	if strings.Contains(out.stdout, "--temperature 0.2") {
		t.Errorf("a lower temperature is recommended at 0.1:\n%s", out.stdout)
	}
}

func TestDoctorModelWithoutToolsIsNotProbed(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer(ollamatest.Model{Name: "gemma:2b", Capabilities: []string{"completion"}}, ollamatest.Model{Name: "caller"})
	defer ollama.Close()
	ollama.Handle(weatherModel)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", `{"mcpServers": {}}`)
	out := runExit(t, invocation{args: []string{"doctor", "-m", "gemma:2b"}, dir: dir, host: ollama.URL}, 3)
	wantAll(t, "stdout", out.stdout,
		"✗ capabilities: tools: no, vision: no, thinking: no: the model cannot be given tools",
		"✗ tool call: not probed: the engine says the model has no tools capability",
		"✓ speed: first token after",
		"Another model does better: ollama:caller calls the probe's tool natively",
	)
	for _, req := range ollama.Requests() {
		if strings.HasPrefix(req.Model, "gemma") && len(req.Tools) > 0 {
			t.Error("the model without tools was sent tools")
		}
	}
}

func TestDoctorPullsAMissingModelWithPull(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer(ollamatest.Model{Name: "qwen3:8b"})
	defer ollama.Close()
	ollama.Pullable(ollamatest.Model{Name: "llama3.2:3b"})
	ollama.Handle(weatherModel)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", `{"mcpServers": {}}`)
	out := runBinary(t, invocation{args: []string{"doctor", "-m", "llama3.2:3b", "--pull"}, dir: dir, host: ollama.URL})
	if out.code != 0 || !strings.Contains(out.stdout, "✓ model: llama3.2:3b is there") || !strings.Contains(out.stdout, "✓ tool call: calls get_weather natively") {
		t.Fatalf("exit %d, want 0 with the model pulled\nstdout:\n%s\nstderr:\n%s", out.code, out.stdout, out.stderr)
	}
	if got := ollama.PullRequests(); !slices.Equal(got, []string{"llama3.2:3b"}) {
		t.Errorf("pulls %v, want llama3.2:3b once", got)
	}
}

func TestDoctorJSONReportOfAConfigThatDoesNotLoad(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := runBinary(t, invocation{args: []string{"doctor", "-m", "qwen3:8b", "--output", "json", "--config", filepath.Join(dir, "missing.yml")}, dir: dir, host: closedPort(t)})
	var doc struct {
		Error    string `json:"error"`
		ExitCode int    `json:"exit_code"`
	}
	if err := json.Unmarshal([]byte(out.stdout), &doc); err != nil || out.code != 2 || doc.ExitCode != 2 || !strings.Contains(doc.Error, "missing.yml") {
		t.Errorf("exit %d, stdout %q (%v), stderr %q", out.code, out.stdout, err, out.stderr)
	}
}

func TestDoctorCallWrittenAsTextThatCannotBeRead(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Handle(func(req api.ChatRequest) ollamatest.Reply {
		if len(req.Tools) > 0 {
			// A name no tool has: not a call mcphost can make.
			return ollamatest.Reply{Content: `{"name": "fetch_forecast", "arguments": {"city": "Paris"}}`}
		}
		return weatherModel(req)
	})
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", `{"mcpServers": {}}`)
	out := runExit(t, invocation{args: []string{"doctor", "-m", "phi3", "--temperature", "0.8"}, dir: dir, host: ollama.URL}, 3)
	wantAll(t, "stdout", out.stdout, "Lower the temperature from 0.8: --temperature 0.2",
		`✗ tool call: wrote a tool call as text that mcphost could not take as a call of get_weather (a name no tool has, or a form it cannot read): "{\"name\": \"fetch_forecast\"`)
}

func TestDoctorArgumentsThatCannotBeRepaired(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Handle(func(req api.ChatRequest) ollamatest.Reply {
		if len(req.Tools) > 0 && lastMessage(req).Role == "user" {
			return ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("get_weather", map[string]any{"city": "Paris", "days": "two"})}}
		}
		return weatherModel(req)
	})
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", `{"mcpServers": {}}`)
	out := runExit(t, invocation{args: []string{"doctor", "-m", "llama3.2"}, dir: dir, host: ollama.URL}, 3)
	wantAll(t, "stdout", out.stdout,
		"✓ tool call: calls get_weather natively",
		`✗ arguments: get_weather's arguments {city: "Paris", days: "two"} do not fit its schema, and no safe repair made them: `,
	)
}

func TestDoctorWarnsOnceOfAnUntrustedProjectFile(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Handle(weatherModel)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", `{"mcpServers": {"evil": {"command": "definitely-not-run-mcphost"}}}`)
	out := runExit(t, invocation{args: []string{"doctor", "-m", "qwen3:8b"}, dir: dir, host: ollama.URL, untrusted: true}, 0)
	if n := strings.Count(out.stderr, "which is not trusted"); n != 1 {
		t.Errorf("the untrusted file is warned of %d times, want once:\n%s", n, out.stderr)
	}
	if strings.Contains(out.stdout, "evil") {
		t.Errorf("the untrusted file's server was checked:\n%s", out.stdout)
	}
}
