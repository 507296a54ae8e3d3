//go:build linux

package e2e

// The OpenAI-compatible path against a real Ollama: mcphost reaches the
// server of ../shared/ollama through its /v1/chat/completions endpoint
// ("-m openai:MODEL --provider-url …/v1"), with tiny deterministic models,
// so the request mcphost builds and the stream it reads are Ollama's own
// OpenAI layer's, not a scripted imitation.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/openaitest"
)

// completions returns the /v1/chat/completions requests mcphost sent.
func (o *realOllama) completions() []openaitest.Request {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []openaitest.Request
	for _, r := range o.requests {
		if r.path != "/v1/chat/completions" {
			continue
		}
		var req openaitest.Request
		if err := json.Unmarshal(r.body, &req); err != nil {
			o.t.Fatalf("mcphost sent a request that does not decode: %v", err)
		}
		out = append(out, req)
	}
	return out
}

// viaV1 is the command line that reaches o's model through /v1.
func viaV1(o *realOllama, model string, args ...string) []string {
	return append([]string{"-m", "openai:" + model, "--provider-url", o.URL + "/v1"}, args...)
}

func TestRealOllamaV1ToolCall(t *testing.T) {
	t.Parallel()
	o := startRealOllama(t, "tiny", "-call", `everything__echo={"message":"hello v1"}`, "-answer", "Echoed over v1.")
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	out := runBinary(t, invocation{args: viaV1(o, "tiny", "-p", "echo hello"), dir: dir, host: "http://127.0.0.1:1"})
	if out.code != 0 || out.stdout != "Echoed over v1.\n" || !strings.Contains(out.stderr, "✓ everything › echo") {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	reqs := o.completions()
	if len(reqs) != 2 || len(o.chats()) != 0 {
		t.Fatalf("%d /v1 requests, %d /api/chat requests", len(reqs), len(o.chats()))
	}
	msgs := reqs[1].Messages
	call, res := msgs[len(msgs)-2], msgs[len(msgs)-1]
	if len(call.ToolCalls) != 1 || res.Role != "tool" || res.ToolCallID != call.ToolCalls[0].ID || res.Text() != "Echo: hello v1" {
		t.Errorf("call %+v, result %+v", call, res)
	}
}

func TestRealOllamaV1SequentialCalls(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	os.WriteFile(filepath.Join(data, "notes.txt"), []byte("tea"), 0o644)
	memory := filepath.Join(t.TempDir(), "memory.jsonl")
	steps := fmt.Sprintf(`[[{"name":"files__list_directory","arguments":{"path":%q}}],[{"name":"memory__create_entities","arguments":{"entities":[{"name":"Ann","entityType":"person","observations":["likes tea"]}]}}]]`, data)
	o := startRealOllama(t, "tiny", "-calls-json", steps, "-answer", "Remembered Ann.")
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", fmt.Sprintf(`{"mcpServers":{
		"files":{"command":%q,"args":[%q]},
		"memory":{"command":%q,"env":{"MEMORY_FILE_PATH":%q}}}}`,
		mcptest.NPMBin(t, "mcp-server-filesystem"), data, mcptest.NPMBin(t, "mcp-server-memory"), memory))
	out := runBinary(t, invocation{args: viaV1(o, "tiny", "-p", "look and remember", "--allow-tool", "memory__create_entities"), dir: dir})
	if out.code != 0 || out.stdout != "Remembered Ann.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	reqs := o.completions()
	if len(reqs) != 3 || !strings.Contains(reqs[1].Messages[len(reqs[1].Messages)-1].Text(), "notes.txt") {
		t.Errorf("list_directory result not sent: %d requests", len(reqs))
	}
	saved, err := os.ReadFile(memory)
	if err != nil || !strings.Contains(string(saved), "likes tea") {
		t.Errorf("the memory file does not hold the entity: %q (%v)", saved, err)
	}
}

func TestRealOllamaV1ParallelCalls(t *testing.T) {
	t.Parallel()
	steps := `[[{"name":"everything__get-sum","arguments":{"a":2,"b":3}},{"name":"everything__echo","arguments":{"message":"second"}}]]`
	o := startRealOllama(t, "tiny", "-calls-json", steps, "-answer", "Both done.")
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	out := runBinary(t, invocation{args: viaV1(o, "tiny", "-p", "both"), dir: dir})
	if out.code != 0 || out.stdout != "Both done.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	reqs := o.completions()
	msgs := reqs[len(reqs)-1].Messages
	call, first, second := msgs[len(msgs)-3], msgs[len(msgs)-2], msgs[len(msgs)-1]
	if len(call.ToolCalls) != 2 || first.ToolCallID != call.ToolCalls[0].ID || !strings.Contains(first.Text(), "5") ||
		second.ToolCallID != call.ToolCalls[1].ID || second.Text() != "Echo: second" {
		t.Errorf("calls %+v, results %+v / %+v", call.ToolCalls, first, second)
	}
}

func TestRealOllamaV1Streams(t *testing.T) {
	t.Parallel()
	o := startRealOllama(t, "tiny", "-call", `everything__trigger-long-running-operation={"duration":2,"steps":2}`, "-answer", "Streamed answer.")
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	cmd := invocation{args: viaV1(o, "tiny", "-p", "go", "--output", "stream-json"), dir: dir}.command(t)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var types []string
	var text strings.Builder
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		var ev struct {
			Type, Text   string
			PromptTokens int `json:"prompt_tokens"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("line does not parse: %q", sc.Text())
		}
		types = append(types, ev.Type)
		switch ev.Type {
		case "tool_call_start":
			if !alive(cmd.Process.Pid) {
				t.Error("the tool call was reported only after mcphost ended: output is not streamed")
			}
		case "text":
			text.WriteString(ev.Text)
		case "usage":
			if ev.PromptTokens == 0 {
				t.Error("no prompt tokens: usage was not read from the stream")
			}
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("mcphost: %v", err)
	}
	joined := strings.Join(types, " ")
	if !strings.HasSuffix(joined, "text usage final") || !regexp.MustCompile(`tool_call_start( progress)* tool_call_end`).MatchString(joined) {
		t.Errorf("events = %s", joined)
	}
	if text.String() != "Streamed answer." {
		t.Errorf("streamed text = %q", text.String())
	}
	for _, r := range o.completions() {
		if !r.Stream || r.StreamOptions == nil || !r.StreamOptions.IncludeUsage {
			t.Errorf("request did not stream with usage: %+v", r)
		}
	}
}

func TestRealOllamaV1ModelWithoutTools(t *testing.T) {
	t.Parallel()
	o := startRealOllama(t, "tiny")
	o.createPlainModel("plain", "Plain answer.")
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	out := runBinary(t, invocation{args: viaV1(o, "plain", "-p", "hi"), dir: dir})
	if out.code != 0 || out.stdout != "Plain answer.\n" || !strings.Contains(out.stderr, `model "plain" does not support tools`) {
		t.Errorf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	for _, r := range o.completions() {
		if len(r.Tools) != 0 {
			t.Error("tools were sent to a model without the tools capability")
		}
	}
}

func TestRealOllamaV1MissingModel(t *testing.T) {
	t.Parallel()
	o := startRealOllama(t, "tiny")
	out := runBinary(t, invocation{args: viaV1(o, "nosuch:7b", "-p", "hi")})
	if out.code != 3 || !strings.Contains(out.stderr, `model "nosuch:7b" is not served by Ollama at `+o.URL+`/v1: it serves tiny:latest`) {
		t.Errorf("exit %d, stderr %q", out.code, out.stderr)
	}
}
