package e2e

// "mcphost eval": task files run on models through the binary, against
// the scripted engines; real models are in eval_ollama_test.go.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/ollamatest"
	"github.com/mcphost/mcphost/openaitest"
)

// echoTasks is a task file with its own server (everything), expecting
// echo to be called with kiwi and the answer to say kiwi.
func echoTasks(t *testing.T, repeat int) string {
	return fmt.Sprintf(`mcpServers:
  everything:
    command: %q
approval:
  allow: [everything__echo]
tasks:
  - name: echo-kiwi
    prompt: "Echo the word kiwi with the echo tool."
    expect:
      tools: [everything__echo]
      args: {everything__echo: {message: kiwi}}
      answer: "(?i)kiwi"
    repeat: %d
`, mcptest.NPMBin(t, "mcp-server-everything"), repeat)
}

// evalJSONReport is --output json's report.
type evalJSONReport struct {
	OK     bool `json:"ok"`
	Models []struct {
		Model     string  `json:"model"`
		Passed    int     `json:"passed"`
		Runs      int     `json:"runs"`
		Native    int     `json:"native_calls"`
		Recovered int     `json:"recovered_calls"`
		Rejected  int     `json:"rejected_calls"`
		MeanSteps float64 `json:"mean_steps"`
		Tokens    int     `json:"tokens"`
		Verdict   string  `json:"verdict"`
		Tasks     []struct {
			Name     string   `json:"name"`
			Passed   int      `json:"passed"`
			Runs     int      `json:"runs"`
			Failures []string `json:"failures"`
		} `json:"tasks"`
	} `json:"models"`
}

// scriptedModels answers as four kinds of model would, by the model's
// name: "right" calls echo natively, "oracle" the tool that
// examples/eval/everything.yaml's task asks for, "text" writes the call as text,
// "wrong" calls another tool, "silent" never calls.
func scriptedModels(req api.ChatRequest) ollamatest.Reply {
	last := lastMessage(req)
	if last.Role == "tool" && !strings.HasPrefix(req.Model, "loop") {
		return ollamatest.Reply{Content: "Done: " + last.Content}
	}
	switch {
	case strings.HasPrefix(req.Model, "right"):
		return ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__echo", map[string]any{"message": "kiwi"})}}
	case strings.HasPrefix(req.Model, "text"):
		return ollamatest.Reply{Content: `{"name": "everything__echo", "arguments": {"message": "kiwi"}}`}
	case strings.HasPrefix(req.Model, "oracle") && strings.Contains(last.Content, "2 plus 40"):
		return ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__get-sum", map[string]any{"a": 2, "b": 40})}}
	case strings.HasPrefix(req.Model, "oracle"):
		return ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__echo", map[string]any{"message": "kiwi"})}}
	case strings.HasPrefix(req.Model, "loop") && len(req.Tools) == 0:
		return ollamatest.Reply{Content: "kiwi, I think."}
	case strings.HasPrefix(req.Model, "loop"):
		return ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__echo", map[string]any{"message": "kiwi"})}}
	case strings.HasPrefix(req.Model, "wrong"):
		return ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__get-sum", map[string]any{"a": 1, "b": 2})}}
	}
	return ollamatest.Reply{Content: "I would rather not."}
}

func TestEvalReportsEachModelOnTheTasks(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Handle(scriptedModels)
	dir := t.TempDir()
	tasks := writeConfig(t, dir, "tasks.yaml", echoTasks(t, 2))
	args := []string{"eval", tasks, "-m", "ollama:right", "-m", "ollama:text", "-m", "ollama:wrong", "-m", "ollama:silent", "--parallel", "2"}

	out := runBinary(t, invocation{args: args, dir: dir, host: ollama.URL})
	if out.code != 1 {
		t.Fatalf("exit %d, want 1 (some models fail); stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^TASK +ollama:right +ollama:text +ollama:wrong +ollama:silent$`),
		regexp.MustCompile(`(?m)^echo-kiwi +2/2 +2/2 +0/2 +0/2$`),
		regexp.MustCompile(`(?m)^MODEL +PASSED +NATIVE +RECOVERED +REPAIRED +REJECTED +STEPS +TOKENS +TIME$`),
		regexp.MustCompile(`(?m)^ollama:right +2/2 +2 +0 +0 +0 +2\.0 +\d+ +\S+$`),
		regexp.MustCompile(`(?m)^ollama:text +2/2 +0 +2 +0 +0 +2\.0 `),
		regexp.MustCompile(`(?m)^ollama:silent +0/2 +0 +0 +0 +0 +1\.0 `),
		regexp.MustCompile(`(?m)^ollama:right: passes every task, calling tools natively$`),
		regexp.MustCompile(`(?m)^ollama:text: passes every task; writes its calls as text`),
		regexp.MustCompile(`(?m)^ollama:silent: fails every task; never called a tool`),
		regexp.MustCompile(`(?m)^  ollama:wrong, echo-kiwi: did not call everything__echo \(called everything__get-sum\)$`),
	} {
		if !want.MatchString(out.stdout) {
			t.Errorf("the report lacks %s:\n%s", want, out.stdout)
		}
	}
	if strings.Contains(out.stderr, "eval 1/") {
		t.Errorf("a progress line was drawn on a pipe: %q", out.stderr)
	}

	// The same, as JSON; with --min-pass 0 every model passes.
	out = runBinary(t, invocation{args: append(args, "--output", "json", "--min-pass", "0"), dir: dir, host: ollama.URL})
	if out.code != 0 {
		t.Fatalf("--min-pass 0: exit %d, want 0; stderr %q", out.code, out.stderr)
	}
	var rep evalJSONReport
	if err := json.Unmarshal([]byte(out.stdout), &rep); err != nil {
		t.Fatalf("--output json is not JSON: %v\n%s", err, out.stdout)
	}
	if !rep.OK || len(rep.Models) != 4 {
		t.Fatalf("report = %+v", rep)
	}
	right, text, wrong := rep.Models[0], rep.Models[1], rep.Models[2]
	if right.Model != "ollama:right" || right.Passed != 2 || right.Runs != 2 || right.Native != 2 || right.Tokens == 0 || right.MeanSteps != 2 {
		t.Errorf("right = %+v", right)
	}
	if text.Recovered != 2 || text.Native != 0 || text.Passed != 2 {
		t.Errorf("text = %+v", text)
	}
	if wrong.Passed != 0 || len(wrong.Tasks) != 1 || wrong.Tasks[0].Name != "echo-kiwi" || wrong.Tasks[0].Runs != 2 ||
		len(wrong.Tasks[0].Failures) != 1 || !strings.Contains(wrong.Tasks[0].Failures[0], "did not call everything__echo") {
		t.Errorf("wrong = %+v", wrong)
	}
}

// TestEvalPassesWhenEveryModelDoes checks exit 0, the models running one
// after another, that the generation flags reach every run, and that the
// task file's system prompt and servers replace the config's.
func TestEvalPassesWhenEveryModelDoes(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Handle(scriptedModels)
	dir := t.TempDir()
	// The task file's servers replace the config's, whose server never starts.
	started := filepath.Join(dir, "started")
	writeConfig(t, dir, ".mcp.json", fmt.Sprintf(`{"mcpServers": {"other": {"command": "sh", "args": ["-c", "echo > %s"]}}}`, started))
	tasks := writeConfig(t, dir, "tasks.yaml", "system-prompt: Answer in one word.\n"+echoTasks(t, 2))
	out := runBinary(t, invocation{args: []string{"eval", tasks, "-m", "ollama:right", "-m", "ollama:right-too", "--temperature", "0", "--seed", "7"}, dir: dir, host: ollama.URL})
	if out.code != 0 {
		t.Fatalf("exit %d, want 0; stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	reqs := ollama.Requests()
	if len(reqs) != 8 {
		t.Fatalf("%d chat requests, want 8 (2 models × 2 runs × 2 steps)", len(reqs))
	}
	for i, r := range reqs {
		want := "right"
		if i >= 4 {
			want = "right-too"
		}
		if r.Model != want {
			t.Errorf("request %d went to %s, want %s: models run one after another", i, r.Model, want)
		}
		if r.Options["temperature"] != float64(0) || r.Options["seed"] != float64(7) {
			t.Errorf("request %d options = %v, want temperature 0 and seed 7", i, r.Options)
		}
		if r.Messages[0].Role != "system" || r.Messages[0].Content != "Answer in one word." {
			t.Errorf("request %d starts with %+v, not the task file's system prompt", i, r.Messages[0])
		}
	}
	if _, err := os.Stat(started); err == nil {
		t.Error("the config's server started although the task file names its own")
	}
}

func TestEvalOnAnOpenAICompatibleEngine(t *testing.T) {
	t.Parallel()
	vllm := openaitest.NewServer(openaitest.Options{Flavor: openaitest.VLLM, Models: []openaitest.Model{{ID: "Qwen/Qwen3-8B", ContextLength: 40960}}})
	defer vllm.Close()
	vllm.Handle(func(req openaitest.Request) openaitest.Reply {
		last := req.Messages[len(req.Messages)-1]
		if last.Role == "tool" {
			return openaitest.Reply{Content: "Echoed kiwi."}
		}
		return openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c1", Name: "everything__echo", Arguments: `{"message":"kiwi"}`}}}
	})
	dir := t.TempDir()
	tasks := writeConfig(t, dir, "tasks.yaml", echoTasks(t, 1))
	out := runBinary(t, invocation{args: []string{"eval", tasks, "-m", "vllm:Qwen/Qwen3-8B", "--provider-url", vllm.BaseURL, "--output", "json"}, dir: dir})
	if out.code != 0 {
		t.Fatalf("exit %d; stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	var rep evalJSONReport
	if err := json.Unmarshal([]byte(out.stdout), &rep); err != nil || len(rep.Models) != 1 || rep.Models[0].Model != "vllm:Qwen/Qwen3-8B" || rep.Models[0].Passed != 1 || rep.Models[0].Native != 1 {
		t.Fatalf("report %q (%v)", out.stdout, err)
	}
}

// TestEvalRefusesBadTaskFiles checks that a task file's mistakes stop the
// run with exit 2, naming the file and line, before any model is called.
func TestEvalRefusesBadTaskFiles(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	// The default server (fs on the working directory) has fs__read_file.
	tests := []struct {
		name, file string
		want       []string
	}{
		{"unknown key", "tasks:\n  - name: a\n    promt: hi\n", []string{"tasks.yaml: line 3: unknown key \"promt\" in a task: did you mean \"prompt\"?"}},
		{"unknown expect key", "tasks:\n  - name: a\n    prompt: hi\n    expect:\n      tool: [fs__read_file]\n", []string{"line 5", `did you mean "tools"?`}},
		{"unknown top key", "task:\n  - name: a\n", []string{"line 1", `did you mean "tasks"?`}},
		{"bad regexp", "tasks:\n  - name: a\n    prompt: hi\n    expect:\n      answer: \"(kiwi\"\n", []string{"tasks.yaml: line 5:", `"(kiwi" is not a regular expression that compiles`}},
		{"not yaml", "tasks: [\n", []string{"tasks.yaml: not valid YAML"}},
		{"no prompt", "tasks:\n  - name: a\n", []string{"line 2", `the task "a" has no "prompt"`}},
		{"bad repeat", "tasks:\n  - name: a\n    prompt: hi\n    repeat: 0\n", []string{"line 4", `"repeat" must be a whole number`}},
		{"same name", "tasks:\n  - name: a\n    prompt: hi\n  - name: a\n    prompt: ho\n", []string{"line 4", `a second task is named "a" (the first is on line 2)`}},
		{"unknown tool", "tasks:\n  - name: a\n    prompt: hi\n    expect:\n      tools: [fs__read_fiel]\n", []string{"tasks.yaml: line 2:", "expects the tool fs__read_fiel, which no server has: did you mean fs__read_file?"}},
		{"unknown tool in args", "tasks:\n  - name: a\n    prompt: hi\n    expect:\n      args: {nowhere__x: {a: 1}}\n", []string{"expects the tool nowhere__x, which no server has"}},
	}
	t.Run("files", func(t *testing.T) {
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				path := writeConfig(t, dir, "tasks.yaml", tc.file)
				out := runBinary(t, invocation{args: []string{"eval", path, "-m", "ollama:right"}, dir: dir, host: ollama.URL})
				if out.code != 2 || out.stdout != "" {
					t.Fatalf("exit %d, want 2; stdout %q, stderr %q", out.code, out.stdout, out.stderr)
				}
				wantAll(t, "stderr", out.stderr, tc.want...)
			})
		}
	})
	if n := ollama.RequestCount(); n != 0 {
		t.Errorf("the model was called %d times for bad task files", n)
	}
}

// TestEvalTaskFileNeedsTrust checks that a task file starting servers is
// used only when trusted, as a project config file.
func TestEvalTaskFileNeedsTrust(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Handle(scriptedModels)
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "started")
	tasks := writeConfig(t, dir, "tasks.yaml", fmt.Sprintf(`mcpServers:
  probe:
    command: sh
    args: ["-c", "echo started > %s"]
tasks:
  - name: a
    prompt: hi
`, pidFile))
	out := runBinary(t, invocation{args: []string{"eval", tasks, "-m", "ollama:silent"}, dir: dir, host: ollama.URL, untrusted: true})
	if out.code != 2 || !strings.Contains(out.stderr, "tasks.yaml is not trusted: it starts the servers probe") || !strings.Contains(out.stderr, "--trust-project") {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	if _, err := os.Stat(pidFile); err == nil {
		t.Error("the untrusted task file's server was started")
	}
	if ollama.RequestCount() != 0 {
		t.Error("the model was called")
	}
	// A task file of prompts only starts nothing: no trust needed.
	plain := writeConfig(t, dir, "plain.yaml", "tasks:\n  - name: a\n    prompt: hi\n    expect: {answer: rather}\n")
	out = runBinary(t, invocation{args: []string{"eval", plain, "-m", "ollama:silent"}, dir: dir, host: ollama.URL, untrusted: true})
	if out.code != 0 {
		t.Fatalf("prompts only: exit %d, stderr %q", out.code, out.stderr)
	}
}

func TestEvalUsageErrors(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer(ollamatest.Model{Name: "right"})
	defer ollama.Close()
	dir := t.TempDir()
	tasks := writeConfig(t, dir, "tasks.yaml", "tasks:\n  - name: a\n    prompt: hi\n")
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"eval"}, 2, "eval needs a task file"},
		{[]string{"eval", tasks}, 2, "eval needs a model: give each one to evaluate with -m MODEL"},
		{[]string{"eval", filepath.Join(dir, "nope.yaml"), "-m", "ollama:right"}, 2, "nope.yaml: cannot read the task file"},
		{[]string{"eval", tasks, "-m", "ollama:right", "--min-pass", "2"}, 2, "--min-pass 2 must be a share from 0 to 1"},
		{[]string{"-p", "hi", "-m", "ollama:right", "--parallel", "2"}, 2, "--min-pass and --parallel go with mcphost eval"},
		{[]string{"eval", tasks, "-m", "ollama:right", "-m", "ollama:missing"}, 3, "missing"},
		{[]string{"eval", tasks, "-m", "ollama:right", "-m", "ollama:right"}, 2, "-m ollama:right is given twice"},
		{[]string{"eval", tasks, tasks, "-m", "ollama:right"}, 2, "after the task file: give each model with -m MODEL"},
	}
	for _, tc := range tests {
		out := runBinary(t, invocation{args: tc.args, dir: dir, host: ollama.URL})
		if out.code != tc.code || !strings.Contains(out.stderr, tc.want) {
			t.Errorf("%v: exit %d (want %d), stderr %q (want %q)", tc.args, out.code, tc.code, out.stderr, tc.want)
		}
	}
	if ollama.RequestCount() != 0 {
		t.Error("a model was called although a model was missing")
	}
}

// TestEvalExampleTaskFiles runs examples/eval's task files as they are
// written (npx replaced by a stand-in that starts the installed reference
// servers, as npx would): they parse, their servers start, every tool
// they expect exists, and each task runs.
func TestEvalExampleTaskFiles(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Handle(scriptedModels) // "silent": runs every task, passes none
	bin := t.TempDir()
	npmBin := filepath.Dir(mcptest.NPMBin(t, "mcp-server-everything"))
	npx := "#!/bin/sh\n[ \"$1\" = -y ] && shift\npkg=${1##*/}; shift\nexec " + npmBin + "/mcp-$pkg \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "npx"), []byte(npx), 0o755); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join("examples", "eval", "*.yaml"))
	if len(files) < 2 {
		t.Fatalf("examples/eval has %d task files", len(files))
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			abs, _ := filepath.Abs(file)
			out := runBinary(t, invocation{args: []string{"eval", abs, "-m", "ollama:silent", "--output", "json", "--parallel", "4"}, host: ollama.URL,
				env: []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}})
			var rep evalJSONReport
			if err := json.Unmarshal([]byte(out.stdout), &rep); err != nil || out.code != 1 || len(rep.Models) != 1 || rep.Models[0].Runs < 2 {
				t.Fatalf("exit %d (%v), stdout %q, stderr %q", out.code, err, out.stdout, out.stderr)
			}
			if filepath.Base(file) != "everything.yaml" {
				return
			}
			// Its tasks can be passed.
			out = runBinary(t, invocation{args: []string{"eval", abs, "-m", "ollama:oracle", "--parallel", "3"}, host: ollama.URL,
				env: []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}})
			if out.code != 0 || !strings.Contains(out.stdout, "ollama:oracle: passes every task") {
				t.Errorf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
			}
		})
	}
}

// TestEvalPullsMissingModels checks that --pull pulls every model the
// engine lacks, not only the first.
func TestEvalPullsMissingModels(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer(ollamatest.Model{Name: "silent"})
	defer ollama.Close()
	ollama.Pullable(ollamatest.Model{Name: "silent-fresh"})
	ollama.Handle(scriptedModels)
	dir := t.TempDir()
	tasks := writeConfig(t, dir, "tasks.yaml", "tasks:\n  - name: polite\n    prompt: hi\n    expect: {answer: rather}\n")
	out := runBinary(t, invocation{args: []string{"eval", tasks, "-m", "ollama:silent", "-m", "ollama:silent-fresh", "--pull"}, dir: dir, host: ollama.URL})
	if out.code != 0 || !strings.Contains(out.stdout, "ollama:silent-fresh: passes every task") {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	if pulled := ollama.PullRequests(); len(pulled) != 1 || pulled[0] != "silent-fresh" {
		t.Errorf("pulled %v", pulled)
	}
}

// TestEvalCountsAStoppedRunAsFailed checks that a run the loop guard
// stops fails, saying so, although its calls and answer are right.
func TestEvalCountsAStoppedRunAsFailed(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Handle(scriptedModels)
	dir := t.TempDir()
	tasks := writeConfig(t, dir, "tasks.yaml", echoTasks(t, 1))
	out := runBinary(t, invocation{args: []string{"eval", tasks, "-m", "ollama:loop"}, dir: dir, host: ollama.URL})
	if out.code != 1 || !regexp.MustCompile(`(?m)^echo-kiwi +0/1$`).MatchString(out.stdout) ||
		!strings.Contains(out.stdout, "ollama:loop, echo-kiwi: stopped a repeated tool call") {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
}

// TestEvalApprovalFromTheTaskFile checks that the task file's allow lets a
// tool run that the user's policy would ask about, and that without it
// the call is refused as in any run without a person, with the warning
// that says how to allow it.
func TestEvalApprovalFromTheTaskFile(t *testing.T) {
	t.Parallel()
	for _, allowed := range []bool{true, false} {
		t.Run(fmt.Sprint("allowed=", allowed), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			target := filepath.Join(dir, "out.txt")
			ollama := ollamatest.NewServer()
			defer ollama.Close()
			ollama.Handle(func(req api.ChatRequest) ollamatest.Reply {
				if last := lastMessage(req); last.Role == "tool" {
					return ollamatest.Reply{Content: "Done: " + last.Content}
				}
				return ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fs__write_file", map[string]any{"path": target, "content": "kiwi"})}}
			})
			file := "tasks:\n  - name: write\n    prompt: Write kiwi to out.txt.\n    expect: {tools: [fs__write_file]}\n"
			if allowed {
				file = "approval:\n  allow: [fs__write_file]\n" + file
			}
			tasks := writeConfig(t, dir, "tasks.yaml", file)
			out := runBinary(t, invocation{args: []string{"eval", tasks, "-m", "ollama:writer"}, dir: dir, host: ollama.URL})
			data, err := os.ReadFile(target)
			if allowed && (out.code != 0 || err != nil || string(data) != "kiwi") {
				t.Fatalf("allowed by the task file: exit %d, file %q (%v), stderr %q", out.code, data, err, out.stderr)
			}
			if !allowed && (err == nil || out.code != 1 || !strings.Contains(out.stderr, "refused fs__write_file: it needs approval") ||
				!strings.Contains(out.stdout, "ollama:writer, write: called fs__write_file, which was not run: fs__write_file needs the user's approval")) {
				t.Fatalf("not allowed: exit %d, file written %v, stdout %q, stderr %q", out.code, err == nil, out.stdout, out.stderr)
			}
		})
	}
}
