package e2e

// End-to-end tests of the OpenAI-compatible path: the real binary against
// the scripted server of openaitest speaking as llama.cpp, vLLM and LM
// Studio, with real MCP servers.

import (
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/ollamatest"
	"github.com/mcphost/mcphost/openaitest"
)

func TestOpenAIToolCallThroughLlamaCpp(t *testing.T) {
	t.Parallel()
	llama := openaitest.NewServer(openaitest.Options{Flavor: openaitest.LlamaCpp, Models: []openaitest.Model{{ID: "qwen2.5-7b-instruct-q4_k_m.gguf", ContextLength: 16384}}})
	defer llama.Close()
	llama.Enqueue(
		openaitest.Reply{Reasoning: "I should echo.", ToolCalls: []openaitest.Call{
			{ID: "call_1", Name: "everything__echo", Arguments: `{"message":"hello from llama"}`},
			{ID: "call_2", Name: "everything__get-sum", Arguments: `{"a":2,"b":40}`},
		}, ArgPiece: 2, Interleave: true},
		openaitest.Reply{Chunks: []string{"Echoed ", "and summed: ", "42."}},
	)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	out := runBinary(t, invocation{args: []string{"-m", "llamacpp:any", "--provider-url", llama.BaseURL, "-p", "echo and sum"}, dir: dir})
	if out.code != 0 || out.stdout != "Echoed and summed: 42.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	if !strings.Contains(out.stderr, "✓ everything › echo") || !strings.Contains(out.stderr, "✓ everything › get-sum") {
		t.Errorf("tool lines: %q", out.stderr)
	}
	reqs := llama.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	msgs := reqs[1].Messages
	first, second := msgs[len(msgs)-2], msgs[len(msgs)-1]
	if first.Role != "tool" || first.ToolCallID != "call_1" || first.Text() != "Echo: hello from llama" ||
		second.ToolCallID != "call_2" || !strings.Contains(second.Text(), "42") {
		t.Errorf("results sent back: %+v / %+v", first, second)
	}
	for _, m := range msgs {
		if m.ReasoningContent != "" || m.Reasoning != "" || strings.Contains(m.Text(), "I should echo") {
			t.Errorf("thinking sent back: %+v", m)
		}
	}
	if len(reqs[0].Tools) == 0 || len(reqs[0].Extra) != 0 {
		t.Errorf("first request: %d tools, extra fields %v", len(reqs[0].Tools), reqs[0].Extra)
	}
}

// TestOpenAIRecoversACallWrittenAsText: a model behind vLLM without a tool
// parser writes its call as text; the runner runs it, exactly as on Ollama.
func TestOpenAIRecoversACallWrittenAsText(t *testing.T) {
	t.Parallel()
	vllm := openaitest.NewServer(openaitest.Options{Flavor: openaitest.VLLM, Models: []openaitest.Model{{ID: "Qwen/Qwen3-8B", ContextLength: 40960}}})
	defer vllm.Close()
	vllm.Enqueue(
		openaitest.Reply{Chunks: []string{"<tool_call>\n{\"name\": \"everything__echo\", ", "\"arguments\": {\"message\": \"from text\"}}\n</tool_call>"}},
		openaitest.Reply{Content: "Done: from text."},
	)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	out := runBinary(t, invocation{args: []string{"-m", "vllm:Qwen/Qwen3-8B", "--provider-url", vllm.BaseURL, "-p", "echo", "--output", "json"}, dir: dir})
	if out.code != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	var final struct {
		Answer    string `json:"answer"`
		ToolCalls []struct {
			Name   string `json:"name"`
			Output string `json:"output"`
		} `json:"tool_calls"`
		Usage struct {
			PromptTokens int `json:"prompt_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal([]byte(out.stdout), &final); err != nil {
		t.Fatalf("%v: %q", err, out.stdout)
	}
	if final.Answer != "Done: from text." || len(final.ToolCalls) != 1 || final.ToolCalls[0].Output != "Echo: from text" || final.Usage.PromptTokens == 0 {
		t.Errorf("final = %+v", final)
	}
	reqs := vllm.Requests()
	msgs := reqs[1].Messages
	asst := msgs[len(msgs)-2]
	if len(asst.ToolCalls) != 1 || asst.ToolCalls[0].Function.Name != "everything__echo" || msgs[len(msgs)-1].ToolCallID != asst.ToolCalls[0].ID {
		t.Errorf("the history does not hold the recovered call: %+v", asst)
	}
}

func TestOpenAIErrorsThroughTheBinary(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	vllm := openaitest.NewServer(openaitest.Options{Flavor: openaitest.VLLM, APIKey: "the-right-key", Models: []openaitest.Model{{ID: "Qwen/Qwen3-8B"}}})
	defer vllm.Close()
	lm := openaitest.NewServer(openaitest.Options{Flavor: openaitest.LMStudio, Models: []openaitest.Model{{ID: "qwen3-8b"}, {ID: "gemma-3-4b"}}})
	defer lm.Close()

	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"unreachable", []string{"-m", "llamacpp:m", "--provider-url", dead}, []string{"cannot reach llama.cpp at " + dead, `llama-server -m model.gguf --jinja`}},
		{"refused key", []string{"-m", "vllm:Qwen/Qwen3-8B", "--provider-url", vllm.BaseURL, "--provider-api-key", "wrong-secret-value"}, []string{"refused the request (HTTP 401)", "the API key from --provider-api-key was refused"}},
		{"unknown model", []string{"-m", "lmstudio:qwen3", "--provider-url", lm.BaseURL}, []string{`model "qwen3" is not served by LM Studio at ` + lm.BaseURL + `: it serves gemma-3-4b, qwen3-8b; pick one with -m lmstudio:NAME`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := runBinary(t, invocation{args: append(tt.args, "-p", "hi", "--debug")})
			if out.code != 3 {
				t.Errorf("exit %d, want 3; stderr %q", out.code, out.stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(out.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, out.stderr)
				}
			}
			if strings.Contains(out.stderr, "wrong-secret-value") || strings.Contains(out.stderr, "goroutine ") {
				t.Errorf("stderr quotes the key or a stack: %q", out.stderr)
			}
		})
	}
}

// TestNamedEngineFromConfig picks an engine a config file names, with its
// key from the environment, masked in the debug log.
func TestNamedEngineFromConfig(t *testing.T) {
	t.Parallel()
	vllm := openaitest.NewServer(openaitest.Options{Flavor: openaitest.VLLM, APIKey: "gpu-box-secret-key", Models: []openaitest.Model{{ID: "Qwen/Qwen3-32B", ContextLength: 32768}}})
	defer vllm.Close()
	vllm.Enqueue(openaitest.Reply{Content: "the key is gpu-box-secret-key"})
	dir := t.TempDir()
	writeConfig(t, dir, ".mcphost.yml", fmt.Sprintf("mcpServers: {}\nproviders:\n  gpu-box:\n    type: vllm\n    url: %s\n    api-key: ${GPU_KEY}\n", vllm.BaseURL))
	out := runBinary(t, invocation{args: []string{"-m", "gpu-box:Qwen/Qwen3-32B", "-p", "hi", "--debug"}, dir: dir, env: []string{"GPU_KEY=gpu-box-secret-key"}})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	if r := vllm.Requests(); len(r) != 1 || r[0].Authorization != "Bearer gpu-box-secret-key" {
		t.Errorf("requests = %+v", r)
	}
	// The answer is the model's and goes out as written; the debug log,
	// which quotes it, masks the key.
	if strings.Contains(out.stderr, "gpu-box-secret-key") {
		t.Errorf("the key appears in stderr: %q", out.stderr)
	}
}

func TestModelsCommand(t *testing.T) {
	t.Parallel()
	model := ollamatest.NewServer(ollamatest.Model{Name: "qwen3:8b", ContextLength: 40960})
	defer model.Close()
	llama := openaitest.NewServer(openaitest.Options{Flavor: openaitest.LlamaCpp, TemplateTools: openaitest.Bool(true),
		Models: []openaitest.Model{{ID: "gemma.gguf", ContextLength: 8192, Size: 2_500_000_000}}})
	defer llama.Close()
	dir := t.TempDir()
	// The presets are moved away from anything that may run here.
	writeConfig(t, dir, ".mcphost.yml", fmt.Sprintf(`providers:
  llamacpp: {url: %s}
  lmstudio: {url: "http://127.0.0.1:1/v1"}
  vllm: {url: "http://127.0.0.1:1/v1"}
`, llama.BaseURL))
	out := runBinary(t, invocation{args: []string{"models"}, dir: dir, host: model.URL})
	if out.code != 0 {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	for _, want := range []string{"MODEL", "ollama:qwen3:8b", "1.0 MB", "40960", "llamacpp:gemma.gguf", "2.5 GB", "8192 (served)", "not running: lmstudio, vllm"} {
		if !strings.Contains(out.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out.stdout)
		}
	}
	out = runBinary(t, invocation{args: []string{"models", "--output", "json"}, dir: dir, host: model.URL})
	var listing struct {
		Models []struct {
			Model         string `json:"model"`
			Tools         *bool  `json:"tools"`
			ContextLength int    `json:"context_length"`
		} `json:"models"`
		Engines []struct {
			Name  string `json:"name"`
			Error string `json:"error"`
		} `json:"engines"`
	}
	if err := json.Unmarshal([]byte(out.stdout), &listing); err != nil || out.code != 0 {
		t.Fatalf("exit %d, %v: %q", out.code, err, out.stdout)
	}
	if len(listing.Models) != 2 || listing.Models[1].Model != "llamacpp:gemma.gguf" || listing.Models[1].Tools == nil || !*listing.Models[1].Tools || len(listing.Engines) != 4 {
		t.Errorf("listing = %+v", listing)
	}

	// No engine answers: exit 3, saying how to start one.
	deadDir := t.TempDir()
	writeConfig(t, deadDir, ".mcphost.yml", "providers:\n  llamacpp: {url: \"http://127.0.0.1:1/v1\"}\n  lmstudio: {url: \"http://127.0.0.1:1/v1\"}\n  vllm: {url: \"http://127.0.0.1:1/v1\"}\n")
	out = runBinary(t, invocation{args: []string{"models"}, dir: deadDir, host: "http://127.0.0.1:1"})
	if out.code != 3 || !strings.Contains(out.stderr, "no engine answered: start one (ollama serve, llama-server -m model.gguf --jinja, lms server start, vllm serve MODEL), or give its address") || !strings.Contains(out.stdout, "not running: ollama, llamacpp, lmstudio, vllm") {
		t.Errorf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
}

// TestEngineMisspeltIsAConfigError: a slip in the engine's name exits 2 at
// once, saying the reference meant, instead of asking Ollama for a model
// of that name until its retries run out.
func TestEngineMisspeltIsAConfigError(t *testing.T) {
	t.Parallel()
	for ref, want := range map[string]string{
		"olama:qwen3:8b":    `mcphost: unknown engine "olama" in model "olama:qwen3:8b": did you mean ollama:qwen3:8b?`,
		"vlm:Qwen/Qwen3-8B": `mcphost: unknown engine "vlm" in model "vlm:Qwen/Qwen3-8B": did you mean vllm:Qwen/Qwen3-8B?`,
	} {
		out := runBinary(t, invocation{args: []string{"-m", ref, "-p", "hi"}, host: "http://127.0.0.1:1"})
		if out.code != 2 || !strings.Contains(out.stderr, want) || strings.Contains(out.stderr, "cannot reach") {
			t.Errorf("-m %s: exit %d, stderr %q; want 2 and %q", ref, out.code, out.stderr, want)
		}
	}
}

func TestPullWhenPiped(t *testing.T) {
	t.Parallel()
	model := ollamatest.NewServer(ollamatest.Model{Name: "tiny"})
	defer model.Close()
	model.Pullable(ollamatest.Model{Name: "qwen3:8b"})
	out := runBinary(t, invocation{args: []string{"-m", "qwen3:8b", "-p", "hi", "--pull"}, host: model.URL})
	if out.code != 0 || out.stdout != "ok\n" || strings.Contains(out.stderr, "pulling") {
		t.Errorf("exit %d, stdout %q, stderr %q (piped: no progress)", out.code, out.stdout, out.stderr)
	}
	if p := model.PullRequests(); len(p) != 1 || p[0] != "qwen3:8b" {
		t.Errorf("pulls = %q", p)
	}
	out = runBinary(t, invocation{args: []string{"-m", "other:1b", "-p", "hi"}, host: model.URL})
	if out.code != 3 || !strings.Contains(out.stderr, `run "ollama pull other:1b"`) {
		t.Errorf("without --pull: exit %d, stderr %q", out.code, out.stderr)
	}
}
