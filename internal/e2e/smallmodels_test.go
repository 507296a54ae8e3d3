package e2e

// End-to-end: what a person running mcphost with a small local model sees
// when the model writes calls as text, gets arguments wrong, repeats
// itself, or is given more tools than its context window holds.

import (
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/ollamatest"
)

func TestCallWrittenAsTextRunsAndIsMarked(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{Content: "<tool_call>\n{\"name\": \"echo\", \"arguments\": {\"message\": \"hello\"}}\n</tool_call>"},
		ollamatest.Reply{Content: "The server said hello."},
	)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))

	out := runBinary(t, invocation{args: []string{"-m", "qwen2.5:7b", "-p", "echo hello", "--debug"}, dir: dir, host: ollama.URL})
	if out.code != 0 || out.stdout != "The server said hello.\n" {
		t.Fatalf("exit %d, stdout %q (the call's text must not be printed), stderr %q", out.code, out.stdout, out.stderr)
	}
	if !strings.Contains(out.stderr, `✓ everything › echo {"message":"hello"} (recovered from text)`) {
		t.Errorf("no tool line marking the recovered call: %q", out.stderr)
	}
	for _, want := range []string{"recovered_from_text=1", "requested=echo", "recovered=true"} {
		if !strings.Contains(out.stderr, want) {
			t.Errorf("--debug log lacks %q", want)
		}
	}
	if res := lastMessage(ollama.Requests()[1]); res.Role != "tool" || res.Content != "Echo: hello" {
		t.Errorf("tool result sent back = %+v", res)
	}
}

func TestRepairsAndRejectionsInTheDebugLog(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		// llama3.2 writes numbers as strings: repaired.
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__get-sum", map[string]any{"a": "2", "b": "3"})}},
		// A word for a number: refused, the server never sees it.
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__get-sum", map[string]any{"a": "two", "b": 3})}},
		ollamatest.Reply{Content: "2 + 3 = 5."},
	)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))

	out := runBinary(t, invocation{args: []string{"-m", "llama3.2", "-p", "add 2 and 3", "--debug"}, dir: dir, host: ollama.URL})
	if out.code != 0 || out.stdout != "2 + 3 = 5.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	wantAll(t, "stderr", out.stderr,
		`msg="tool call repaired" name=everything__get-sum repairs="\"a\": string \"2\" taken as number; \"b\": string \"3\" taken as number" repaired_calls=1`,
		`msg="tool call rejected" name=everything__get-sum`,
		`rejected_calls=1`,
		`✗ everything › get-sum {"a":"two","b":3}`,
	)
	reqs := ollama.Requests()
	if res := lastMessage(reqs[1]); !strings.Contains(res.Content, "The sum of 2 and 3 is 5") {
		t.Errorf("repaired call's result = %q", res.Content)
	}
	if res := lastMessage(reqs[2]); !strings.Contains(res.Content, `argument "a" must be a number, got a string "two"`) {
		t.Errorf("refusal sent back = %q", res.Content)
	}
}

func TestLoopGuardStopsWithAnAnswerAndExit4(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Handle(func(req api.ChatRequest) ollamatest.Reply {
		if len(req.Tools) == 0 {
			return ollamatest.Reply{Content: "It echoes again."}
		}
		return ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__echo", map[string]any{"message": "again"})}}
	})
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))

	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "loop"}, dir: dir, host: ollama.URL})
	if out.code != 4 || out.stdout != "It echoes again.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	if !strings.Contains(out.stderr, "called everything__echo 3 times in a row with the same arguments") {
		t.Errorf("stderr does not say why it stopped: %q", out.stderr)
	}
	if n := ollama.RequestCount(); n != 4 {
		t.Errorf("model called %d times, want 3 with tools and 1 for the answer", n)
	}
	if got := strings.Count(out.stderr, "✓ everything › echo"); got != 2 {
		t.Errorf("echo ran %d times, want 2 (the third is refused)", got)
	}
}

func TestSmallContextWindowWarnsAndCutsResults(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__echo", map[string]any{"message": strings.Repeat("long ", 400)})}},
		ollamatest.Reply{Content: "ok"},
	)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))

	// Tool selection off: with it, only the tools that fit a quarter of
	// the window would be offered, and nothing would be worth a warning.
	// A window the tools take more than half of, with room left for the
	// prompt and the answer (a window they filled would not be sent).
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "go", "--num-ctx", "3072", "--max-result-bytes", "500", "--tool-share", "0"}, dir: dir, host: ollama.URL})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	if !strings.Contains(out.stderr, "warning: tools take ~") || !strings.Contains(out.stderr, " of 3072 context tokens (everything ~") {
		t.Errorf("no warning about the tools' share of the window: %q", out.stderr)
	}
	reqs := ollama.Requests()
	if got := reqs[0].Options["num_ctx"]; got != float64(3072) {
		t.Errorf("num_ctx = %v", got)
	}
	res := lastMessage(reqs[1]).Content
	if !strings.HasPrefix(res, "Echo: long long") || !strings.Contains(res, " bytes cut]") || len(res) > 560 {
		t.Errorf("result of %d bytes not cut to 500: %q", len(res), res)
	}
}
