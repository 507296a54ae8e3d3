package e2e

// Machine-readable runs and sessions, through the real binary.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/ollamatest"
)

type finalObject struct {
	Type       string `json:"type"`
	Answer     string `json:"answer"`
	Model      string `json:"model"`
	StopReason string `json:"stop_reason"`
	Steps      int    `json:"steps"`
	ToolCalls  []struct {
		Name, Server, Tool string
		Arguments          map[string]any
		OK                 bool
		DurationMS         float64 `json:"duration_ms"`
		Output             string
	} `json:"tool_calls"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	}
	Warnings []string
	Error    string
	ExitCode int `json:"exit_code"`
}

func echoLoop(ollama *ollamatest.Server) {
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__echo", map[string]any{"message": "json"})}},
		ollamatest.Reply{Chunks: []string{"Echoed ", "json", "."}},
	)
}

func TestOutputJSONIsOneObject(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	echoLoop(ollama)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))

	out := runBinary(t, invocation{args: []string{"-m", "ollama:tiny", "-p", "echo", "--output", "json"}, dir: dir, host: ollama.URL})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	var f finalObject
	dec := json.NewDecoder(strings.NewReader(out.stdout))
	if err := dec.Decode(&f); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, out.stdout)
	}
	if dec.More() {
		t.Errorf("more than one object on stdout: %s", out.stdout)
	}
	if f.Type != "final" || f.Answer != "Echoed json." || f.Model != "ollama:tiny" || f.StopReason != "answered" || f.Steps != 2 || f.ExitCode != 0 {
		t.Errorf("final = %+v", f)
	}
	if len(f.ToolCalls) != 1 || f.ToolCalls[0].Server != "everything" || f.ToolCalls[0].Tool != "echo" || !f.ToolCalls[0].OK ||
		f.ToolCalls[0].Arguments["message"] != "json" || f.ToolCalls[0].Output != "Echo: json" {
		t.Errorf("tool calls = %+v", f.ToolCalls)
	}
	if f.Usage.PromptTokens == 0 || f.Usage.CompletionTokens == 0 {
		t.Errorf("usage = %+v", f.Usage)
	}
}

func TestOutputStreamJSONLines(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	echoLoop(ollama)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))

	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "echo", "--output", "stream-json"}, dir: dir, host: ollama.URL})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	var types []string
	var text strings.Builder
	lines := strings.Split(strings.TrimSuffix(out.stdout, "\n"), "\n")
	for i, line := range lines {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("line %d does not parse: %q", i+1, line)
		}
		types = append(types, ev["type"].(string))
		if ev["type"] == "text" {
			text.WriteString(ev["text"].(string))
		}
		if i == 0 {
			servers, _ := ev["servers"].([]any)
			tools, _ := ev["tools"].([]any)
			if len(servers) != 1 || len(tools) == 0 {
				t.Errorf("start line = %s", line)
			}
		}
	}
	joined := strings.Join(types, " ")
	if types[0] != "start" || types[len(types)-1] != "final" ||
		!strings.Contains(joined, "tool_call_start tool_call_end") || !strings.Contains(joined, "text text text") || !strings.Contains(joined, "usage") {
		t.Errorf("event types = %s", joined)
	}
	if text.String() != "Echoed json." {
		t.Errorf("streamed text = %q", text.String())
	}
}

func TestOutputJSONReportsErrorsAndStops(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer(ollamatest.Model{Name: "tiny"})
	defer ollama.Close()
	ollama.Handle(func(api.ChatRequest) ollamatest.Reply {
		return ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__echo", map[string]any{"message": "again"})}}
	})
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	tests := []struct {
		name   string
		args   []string
		code   int
		reason string
	}{
		{"missing model", []string{"-m", "nope", "-p", "x", "--output", "json"}, 3, "error"},
		{"max steps", []string{"-m", "tiny", "-p", "x", "--output", "json", "--max-steps", "2"}, 4, "max_steps"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := runBinary(t, invocation{args: tt.args, dir: dir, host: ollama.URL})
			var f finalObject
			if err := json.Unmarshal([]byte(out.stdout), &f); err != nil {
				t.Fatalf("stdout is not one JSON object: %q", out.stdout)
			}
			if out.code != tt.code || f.ExitCode != tt.code || f.StopReason != tt.reason || f.Error == "" {
				t.Errorf("exit %d, final %+v", out.code, f)
			}
		})
	}
}

func TestSessionContinuesAcrossRuns(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "Nice to meet you, Ann."}, ollamatest.Reply{Content: "Your name is Ann."})
	dir := t.TempDir()
	file := filepath.Join(dir, "s.json")

	for _, prompt := range []string{"My name is Ann.", "What is my name?"} {
		out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", prompt, "--session", file}, dir: dir, host: ollama.URL})
		if out.code != 0 {
			t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
		}
	}
	second := ollama.Requests()[1].Messages
	if len(second) != 3 || second[0].Content != "My name is Ann." || second[1].Content != "Nice to meet you, Ann." {
		t.Errorf("the second run did not continue the first: %+v", second)
	}
	var saved struct{ Messages []map[string]any }
	data, _ := os.ReadFile(file)
	if err := json.Unmarshal(data, &saved); err != nil || len(saved.Messages) != 4 {
		t.Errorf("session file holds %d messages (%v), want 4", len(saved.Messages), err)
	}

	os.WriteFile(file, []byte("{broken"), 0o644)
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "again", "--session", file}, dir: dir, host: ollama.URL})
	if out.code != 2 || !strings.Contains(out.stderr, file) || !strings.Contains(out.stderr, "not a session file") {
		t.Errorf("broken session: exit %d, stderr %q", out.code, out.stderr)
	}
	if data, _ := os.ReadFile(file); string(data) != "{broken" {
		t.Error("a broken session file was overwritten: its content is lost")
	}
}

// TestThinkingModel asks a reasoning model to think (Ollama then returns
// the thinking apart) and keeps the thinking out of the answer.
func TestThinkingModel(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer(ollamatest.Model{Name: "qwen3", Capabilities: []string{"completion", "tools", "thinking"}}, ollamatest.Model{Name: "plain"})
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Thinking: "The user wants 42.", Content: "42"}, ollamatest.Reply{Content: "ok"})

	out := runBinary(t, invocation{args: []string{"-m", "qwen3", "-p", "answer?"}, host: ollama.URL})
	if out.code != 0 || out.stdout != "42\n" || strings.Contains(out.stderr, "The user wants") {
		t.Errorf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	out = runBinary(t, invocation{args: []string{"-m", "plain", "-p", "answer?"}, host: ollama.URL})
	if out.code != 0 {
		t.Errorf("a model without thinking: exit %d, stderr %q", out.code, out.stderr)
	}
	reqs := ollama.Requests()
	if reqs[0].Think == nil || reqs[0].Think.Value != true {
		t.Errorf("think = %v for a thinking model, want true", reqs[0].Think)
	}
	if reqs[1].Think != nil {
		t.Errorf("think = %v sent to a model without the capability", reqs[1].Think)
	}
}
