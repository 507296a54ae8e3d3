package e2e

// Tool selection through the binary: seven servers (the built-in fs, bash,
// fetch and todo, and the npm server-everything, server-filesystem and
// server-memory) whose 56 tools (mcphost's two resource tools included)
// take more than 6,500 tokens, more than a quarter of the default
// 8,192-token window.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/ollamatest"
)

// manyServers writes a config with the seven servers into a fresh
// directory and returns it.
func manyServers(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	cfg := map[string]any{"mcpServers": map[string]any{
		"fs":         map[string]any{"type": "builtin", "name": "fs"},
		"bash":       map[string]any{"type": "builtin", "name": "bash"},
		"fetch":      map[string]any{"type": "builtin", "name": "fetch"},
		"todo":       map[string]any{"type": "builtin", "name": "todo"},
		"everything": map[string]any{"command": mcptest.NPMBin(t, "mcp-server-everything")},
		"filesystem": map[string]any{"command": mcptest.NPMBin(t, "mcp-server-filesystem"), "args": []string{dir}},
		"memory": map[string]any{"command": mcptest.NPMBin(t, "mcp-server-memory"),
			"env": map[string]string{"MEMORY_FILE_PATH": filepath.Join(dir, "memory.jsonl")}},
	}}
	data, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	writeConfig(t, dir, ".mcp.json", string(data))
	return dir
}

func requestTools(req api.ChatRequest) []string {
	names := make([]string, len(req.Tools))
	for i, tool := range req.Tools {
		names[i] = tool.Function.Name
	}
	return names
}

// selectedLine is a tools_selected line of stream-json.
type selectedLine struct {
	Type  string `json:"type"`
	Step  int    `json:"step"`
	Tools []struct {
		Name, Reason string
	} `json:"offered"`
	Total, Tokens, Budget int
	Ranker                string
}

// streamLines returns the stream-json lines of one type.
func streamLines(t *testing.T, stdout, typ string) []selectedLine {
	t.Helper()
	var out []selectedLine
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var head struct{ Type string }
		if err := json.Unmarshal([]byte(line), &head); err != nil {
			t.Fatalf("stream-json line %q: %v", line, err)
		}
		if head.Type != typ {
			continue
		}
		var l selectedLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("stream-json line %q: %v", line, err)
		}
		out = append(out, l)
	}
	return out
}

func (l selectedLine) reason(name string) string {
	for _, tool := range l.Tools {
		if tool.Name == name {
			return tool.Reason
		}
	}
	return ""
}

func TestToolSelectionOffersTheToolTheRequestNeeds(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	dir := manyServers(t)
	ollama.Enqueue(ollamatest.Reply{Content: "Noted."})

	out := runBinary(t, invocation{args: []string{"-m", "tiny", "--output", "stream-json", "--debug", "-p",
		"Remember that Alice works at Acme Corp as an engineer"}, dir: dir, host: ollama.URL})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	reqs := ollama.Requests()
	offered := requestTools(reqs[0])
	for _, want := range []string{"memory__create_entities", "memory__add_observations", "mcphost__search_tools"} {
		if !slices.Contains(offered, want) {
			t.Errorf("%s not offered: %q", want, offered)
		}
	}
	if len(offered) >= 56 {
		t.Fatalf("%d tools offered: nothing was left out", len(offered))
	}
	lines := streamLines(t, out.stdout, "tools_selected")
	if len(lines) != 1 {
		t.Fatalf("tools_selected lines: %+v", lines)
	}
	l := lines[0]
	if l.Step != 1 || l.Total != 56 || l.Budget != 2048 || l.Tokens > l.Budget || l.Ranker != "lexical" || len(l.Tools) != len(offered) {
		t.Errorf("tools_selected %+v", l)
	}
	if l.reason("memory__create_entities") != "ranked" || l.reason("mcphost__search_tools") != "search" {
		t.Errorf("reasons: %+v", l.Tools)
	}
	if !strings.Contains(out.stderr, `msg="tools selected" step=1 offered=`+fmt.Sprint(len(offered))+" of=56") ||
		!strings.Contains(out.stderr, "memory__create_entities (ranked)") {
		t.Errorf("--debug does not say which tools were offered:\n%s", out.stderr)
	}
	if strings.Contains(out.stderr, "tools take ~") {
		t.Errorf("warned about the tools' size although they were selected: %s", out.stderr)
	}
}

func TestToolSelectionSearchFindsAToolTheModelThenCalls(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	dir := manyServers(t)
	audit := filepath.Join(dir, "audit.jsonl")
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("mcphost__search_tools", map[string]any{"query": "add two numbers"})}},
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__get-sum", map[string]any{"a": 2, "b": 3})}},
		ollamatest.Reply{Content: "5, and noted."},
	)
	// A small share, so that the sum tool is not offered from the start.
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "--tool-share", "0.1", "--allow-tool", "everything__get-sum",
		"--audit", audit, "--output", "stream-json", "-p", "Remember that Alice works at Acme Corp, and tell me 2 and 3 together"},
		dir: dir, host: ollama.URL})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	reqs := ollama.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model calls, want 3", len(reqs))
	}
	if slices.Contains(requestTools(reqs[0]), "everything__get-sum") {
		t.Fatalf("the sum tool was offered from the start: the test proves nothing (%q)", requestTools(reqs[0]))
	}
	found := lastMessage(reqs[1])
	if found.Role != "tool" || !strings.Contains(found.Content, "everything__get-sum") || !strings.Contains(found.Content, "a (number, required)") {
		t.Errorf("the search result the model got: %+v", found)
	}
	if !slices.Contains(requestTools(reqs[1]), "everything__get-sum") {
		t.Errorf("the found tool is not offered at the next step: %q", requestTools(reqs[1]))
	}
	if res := lastMessage(reqs[2]); res.Role != "tool" || res.ToolName != "everything__get-sum" || !strings.Contains(res.Content, "5") {
		t.Errorf("the found tool's result: %+v", res)
	}
	lines := streamLines(t, out.stdout, "tools_selected")
	if len(lines) < 2 || lines[1].Step != 2 || lines[1].reason("everything__get-sum") != "found" {
		t.Errorf("tools_selected %+v: want a new set at step 2 with the found tool", lines)
	}
	// The search is the host's own: not a server's call, so not audited.
	log, err := os.ReadFile(audit)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(log), "search_tools") || !strings.Contains(string(log), `"name":"everything__get-sum"`) {
		t.Errorf("audit log:\n%s", log)
	}
}

func TestToolSelectionStillAsksApprovalForFoundTools(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	dir := manyServers(t)
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("mcphost__search_tools", map[string]any{"query": "toggle simulated logging"})}},
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__toggle-simulated-logging", map[string]any{})}},
		ollamatest.Reply{Content: "I could not."},
	)
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "--tool-share", "0.1", "-p", "What do you know about Bob?"}, dir: dir, host: ollama.URL})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	reqs := ollama.Requests()
	if len(reqs) != 3 || !strings.Contains(lastMessage(reqs[1]).Content, "everything__toggle-simulated-logging") {
		t.Fatalf("the search did not find the tool: %d requests", len(reqs))
	}
	if res := lastMessage(reqs[2]); res.Role != "tool" || !strings.Contains(res.Content, "approval") {
		t.Errorf("a found tool that needs approval ran in a run that cannot ask: %+v", res)
	}
	if !strings.Contains(out.stderr, "refused everything__toggle-simulated-logging") {
		t.Errorf("stderr does not say the call was refused:\n%s", out.stderr)
	}
}

func TestToolSelectionAlwaysOffersNamedAndCalledTools(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	dir := manyServers(t)
	session := filepath.Join(dir, "s.json")
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__get-sum", map[string]any{"a": 2, "b": 3})}},
		ollamatest.Reply{Content: "5"},
		ollamatest.Reply{Content: "Done."},
	)
	// A share that leaves room for little but the search tool: what is
	// offered is what must be.
	args := []string{"-m", "tiny", "--tool-share", "0.03", "--allow-tool", "everything__get-sum", "--session", session}
	out := runBinary(t, invocation{args: append(args, "-p", "Use everything__get-sum and then `get_file_info`"), dir: dir, host: ollama.URL})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	first := requestTools(ollama.Requests()[0])
	for _, want := range []string{"everything__get-sum", "fs__get_file_info", "filesystem__get_file_info", "mcphost__search_tools"} {
		if !slices.Contains(first, want) {
			t.Errorf("%s, named in the prompt, not offered: %q", want, first)
		}
	}
	out = runBinary(t, invocation{args: append(args, "-p", "Now forget everything about Zeus"), dir: dir, host: ollama.URL})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	reqs := ollama.Requests()
	next := requestTools(reqs[len(reqs)-1])
	if !slices.Contains(next, "everything__get-sum") {
		t.Errorf("the tool called in the session's first turn is not offered in the next run: %q", next)
	}
	if slices.Contains(next, "fs__get_file_info") {
		t.Errorf("a tool named in an earlier prompt but never called is still offered: %q", next)
	}
}

func TestToolSelectionOffersEveryToolBelowTheThreshold(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	dir := manyServers(t)
	ollama.Enqueue(ollamatest.Reply{Content: "ok"}, ollamatest.Reply{Content: "ok"})

	// 30% of 32,768 tokens holds the 56 tools (8.6k).
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "--num-ctx", "32768", "--tool-share", "0.3", "--output", "stream-json", "-p", "Remember that Alice works at Acme"}, dir: dir, host: ollama.URL})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	// --tool-share 0 turns selection off (in a window the 56 tools fit,
	// taking more than half of it).
	off := runBinary(t, invocation{args: []string{"-m", "tiny", "--tool-share", "0", "--num-ctx", "16384", "-p", "Remember that Alice works at Acme"}, dir: dir, host: ollama.URL})
	if off.code != 0 {
		t.Fatalf("exit %d, stderr %q", off.code, off.stderr)
	}
	for i, req := range ollama.Requests() {
		tools := requestTools(req)
		if len(tools) != 56 || slices.Contains(tools, "mcphost__search_tools") {
			t.Errorf("run %d offered %d tools (search tool: %v), want all 56 and no search", i+1, len(tools), slices.Contains(tools, "mcphost__search_tools"))
		}
	}
	if lines := streamLines(t, out.stdout, "tools_selected"); len(lines) != 0 {
		t.Errorf("tools_selected without selection: %+v", lines)
	}
	if !strings.Contains(off.stderr, "of 16384 context tokens") {
		t.Errorf("with selection off the tools' size is warned about as before: %s", off.stderr)
	}
}

func TestToolSelectionByAnEmbeddingModel(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	dir := manyServers(t)
	// This embedding model knows that a kitten is what the tiny image tool
	// returns; no word of the request matches a tool ("show me" would:
	// it means list).
	ollama.HandleEmbed(func(model string, input []string) ollamatest.EmbedReply {
		if model != "nomic-embed-text" {
			return ollamatest.EmbedReply{Status: 404, Error: fmt.Sprintf("model %q not found, try pulling it first", model)}
		}
		var r ollamatest.EmbedReply
		for _, text := range input {
			v := []float32{0.01, 0}
			if strings.Contains(text, "kitten") || strings.Contains(text, "tiny image") {
				v[1] = 1
			}
			r.Embeddings = append(r.Embeddings, v)
		}
		return r
	})
	ollama.Enqueue(ollamatest.Reply{Content: "ok"}, ollamatest.Reply{Content: "ok"})
	prompt := []string{"-p", "Give me a kitten", "--tool-share", "0.1", "--output", "stream-json"}

	out := runBinary(t, invocation{args: append([]string{"-m", "tiny", "--embed-model", "nomic-embed-text"}, prompt...), dir: dir, host: ollama.URL})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	lines := streamLines(t, out.stdout, "tools_selected")
	if len(lines) != 1 || lines[0].Ranker != "embedding+lexical" || lines[0].reason("everything__get-tiny-image") != "ranked" {
		t.Errorf("with the embedding model: %+v", lines)
	}
	embeds := ollama.EmbedRequests()
	if len(embeds) != 2 {
		t.Fatalf("%d embed requests, want the tools in one and the request in another", len(embeds))
	}
	if texts, _ := embeds[0].Input.([]any); len(texts) != 56 {
		t.Errorf("the tools were embedded in %d texts, want 56", len(texts))
	}

	// A model that is not there: words alone, and a warning.
	out = runBinary(t, invocation{args: append([]string{"-m", "tiny", "--embed-model", "all-minilm"}, prompt...), dir: dir, host: ollama.URL})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	lines = streamLines(t, out.stdout, "tools_selected")
	if len(lines) != 1 || lines[0].Ranker != "lexical" {
		t.Errorf("with a missing embedding model: %+v", lines)
	}
	if !strings.Contains(out.stderr, `embedding model failed (model "all-minilm" not found: run "ollama pull all-minilm")`) {
		t.Errorf("stderr does not explain the fallback:\n%s", out.stderr)
	}
}

func TestToolSelectionEmbedModelAuto(t *testing.T) {
	t.Parallel()
	dir := manyServers(t)
	prompt := []string{"-m", "tiny", "--embed-model", "auto", "-p", "Give me a kitten", "--tool-share", "0.1", "--output", "stream-json", "--debug"}

	// An engine that has an embedding model: it ranks the tools.
	with := ollamatest.NewServer(ollamatest.Model{Name: "tiny"}, ollamatest.Model{Name: "nomic-embed-text", Capabilities: []string{"embedding"}, Family: "nomic-bert"})
	defer with.Close()
	with.HandleEmbed(func(model string, input []string) ollamatest.EmbedReply {
		var r ollamatest.EmbedReply
		for _, text := range input {
			v := []float32{0.01, 0}
			if strings.Contains(text, "kitten") || strings.Contains(text, "tiny image") {
				v[1] = 1
			}
			r.Embeddings = append(r.Embeddings, v)
		}
		return r
	})
	with.Enqueue(ollamatest.Reply{Content: "ok"})
	out := runBinary(t, invocation{args: prompt, dir: dir, host: with.URL})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	lines := streamLines(t, out.stdout, "tools_selected")
	if len(lines) != 1 || lines[0].Ranker != "embedding+lexical" || lines[0].reason("everything__get-tiny-image") != "ranked" {
		t.Errorf("with an embedding model pulled: %+v", lines)
	}
	embeds := with.EmbedRequests()
	if len(embeds) != 2 || !strings.HasPrefix(embeds[0].Model, "nomic-embed-text") {
		t.Errorf("embed requests %+v, want two to nomic-embed-text", embeds)
	}
	if !strings.Contains(out.stderr, "model=nomic-embed-text") {
		t.Errorf("--debug does not say which embedding model ranks the tools:\n%s", out.stderr)
	}

	// An engine with none: words alone, said in the debug log only.
	without := ollamatest.NewServer(ollamatest.Model{Name: "tiny"})
	defer without.Close()
	without.Enqueue(ollamatest.Reply{Content: "ok"})
	out = runBinary(t, invocation{args: prompt, dir: dir, host: without.URL})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	lines = streamLines(t, out.stdout, "tools_selected")
	if len(lines) != 1 || lines[0].Ranker != "lexical" {
		t.Errorf("without an embedding model: %+v", lines)
	}
	if len(without.EmbedRequests()) != 0 {
		t.Errorf("embed requests to an engine without an embedding model: %+v", without.EmbedRequests())
	}
	if !strings.Contains(out.stderr, "the engine has no embedding model; tools are ranked by their words") {
		t.Errorf("--debug does not say that the tools are ranked by their words:\n%s", out.stderr)
	}
	for _, line := range strings.Split(out.stderr, "\n") {
		if strings.Contains(line, "WARN") || strings.HasPrefix(line, "warning:") {
			t.Errorf("a warning without an embedding model: %s", line)
		}
	}
	if strings.Contains(out.stdout, `"type":"warning"`) {
		t.Errorf("a warning in the JSON without an embedding model:\n%s", out.stdout)
	}
}

// The JSON output says which tools each model request offered, in the
// order sent; with a search in the turn, each request starts with the
// tools of the one before.
func TestJSONSaysWhichToolsEachRequestOffered(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	dir := manyServers(t)
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("mcphost__search_tools", map[string]any{"query": "add two numbers"})}},
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__get-sum", map[string]any{"a": 2, "b": 3})}},
		ollamatest.Reply{Content: "5, and noted."},
		ollamatest.Reply{Content: "ok"},
	)
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "--tool-share", "0.1", "--allow-tool", "everything__get-sum",
		"--output", "stream-json", "-p", "Remember that Alice works at Acme Corp, and tell me 2 and 3 together"},
		dir: dir, host: ollama.URL})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	type modelCall struct {
		Step            int      `json:"step"`
		Offered         []string `json:"offered"`
		Ranker          string   `json:"ranker"`
		EstimatedTokens int      `json:"estimated_tokens"`
	}
	var streamed []modelCall
	var final struct {
		ModelCalls []modelCall `json:"model_calls"`
	}
	for _, line := range strings.Split(strings.TrimSpace(out.stdout), "\n") {
		var head struct{ Type string }
		json.Unmarshal([]byte(line), &head)
		switch head.Type {
		case "model_call":
			var c modelCall
			if err := json.Unmarshal([]byte(line), &c); err != nil {
				t.Fatal(err)
			}
			streamed = append(streamed, c)
		case "final":
			if err := json.Unmarshal([]byte(line), &final); err != nil {
				t.Fatal(err)
			}
		}
	}
	reqs := ollama.Requests()
	if len(reqs) != 3 || len(streamed) != 3 || len(final.ModelCalls) != 3 {
		t.Fatalf("%d requests, %d model_call lines, %d model_calls in the final object; want 3 of each", len(reqs), len(streamed), len(final.ModelCalls))
	}
	for i, req := range reqs {
		sent := requestTools(req)
		for _, c := range []modelCall{streamed[i], final.ModelCalls[i]} {
			if c.Step != i+1 || !slices.Equal(c.Offered, sent) || c.Ranker != "lexical" || c.EstimatedTokens == 0 {
				t.Errorf("request %d sent %q; the JSON says %+v", i+1, sent, c)
			}
		}
		if i > 0 {
			before := requestTools(reqs[i-1])
			if len(sent) < len(before) || !slices.Equal(sent[:len(before)], before) {
				t.Errorf("request %d's tools do not start with request %d's:\nbefore: %q\nnow:    %q", i+1, i, before, sent)
			}
		}
	}
	if !slices.Contains(final.ModelCalls[1].Offered, "everything__get-sum") {
		t.Errorf("the found tool is not among the second request's: %q", final.ModelCalls[1].Offered)
	}

	// Every tool offered: the names, no ranker.
	all := runBinary(t, invocation{args: []string{"-m", "tiny", "--tool-share", "0", "--num-ctx", "16384", "--output", "json", "-p", "hi"}, dir: dir, host: ollama.URL})
	if all.code != 0 {
		t.Fatalf("exit %d, stderr %q", all.code, all.stderr)
	}
	var whole struct {
		ModelCalls []map[string]any `json:"model_calls"`
	}
	if err := json.Unmarshal([]byte(all.stdout), &whole); err != nil {
		t.Fatalf("%v: %s", err, all.stdout)
	}
	if len(whole.ModelCalls) != 1 || len(whole.ModelCalls[0]["offered"].([]any)) != 56 || whole.ModelCalls[0]["ranker"] != nil {
		t.Errorf("model_calls with every tool offered: %v", whole.ModelCalls)
	}
}
