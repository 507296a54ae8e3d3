//go:build linux

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/ollamatest"
	"github.com/mcphost/mcphost/openaitest"
)

// bigFile writes a text file of n bytes of prose into dir.
func bigFile(t *testing.T, dir, name string, n int) {
	t.Helper()
	line := "The quick brown fox jumps over the lazy dog, again and again.\n"
	text := strings.Repeat(line, n/len(line)+1)[:n]
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// finalMap decodes the final object of a --output json run.
func finalMap(t *testing.T, stdout string) map[string]any {
	t.Helper()
	var final map[string]any
	if err := json.Unmarshal([]byte(stdout), &final); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout)
	}
	return final
}

// A prompt whose attachment alone is larger than the window is refused
// before anything is sent, naming the attachment and the window, exit 2;
// a session file is left without the turn.
func TestAPromptOverTheWindowIsNotSent(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "A summary."})
	dir := t.TempDir()
	bigFile(t, dir, "big.txt", 70_000) // about 17.5k tokens; the window is 8,192
	session := filepath.Join(dir, "s.json")
	out := runBinary(t, invocation{args: []string{"-m", "qwen3", "--session", session, "-p", "Summarise @big.txt"}, dir: dir, host: ollama.URL})
	if out.code != 2 {
		t.Fatalf("exit %d, want 2; stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	want := "@big.txt is about 18k tokens; the window is 8,192: raise --num-ctx or attach less; the prompt was not sent"
	if !strings.Contains(out.stderr, want) {
		t.Errorf("stderr does not say %q:\n%s", want, out.stderr)
	}
	if n := len(ollama.Requests()); n != 0 {
		t.Errorf("%d chat requests were sent", n)
	}
	if saved, err := os.ReadFile(session); err == nil && strings.Contains(string(saved), "Summarise") {
		t.Errorf("the session keeps the turn that was not sent:\n%s", saved)
	}

	// JSON says it too.
	out = runBinary(t, invocation{args: []string{"-m", "qwen3", "--output", "json", "-p", "Summarise @big.txt"}, dir: dir, host: ollama.URL})
	final := finalMap(t, out.stdout)
	if out.code != 2 || final["exit_code"] != float64(2) || !strings.Contains(final["error"].(string), "@big.txt is about") {
		t.Errorf("exit %d, final %v", out.code, final)
	}
	if n := len(ollama.Requests()); n != 0 {
		t.Errorf("%d chat requests were sent", n)
	}
	// With a window that holds it, the same prompt is sent.
	out = runBinary(t, invocation{args: []string{"-m", "qwen3", "--num-ctx", "32768", "-p", "Summarise @big.txt"}, dir: dir, host: ollama.URL})
	if out.code != 0 || out.stdout != "A summary.\n" {
		t.Errorf("with --num-ctx 32768: exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
}

// The OpenAI-compatible path knows the window the engine fixed
// (llama.cpp's --ctx-size): a prompt over it is refused, and the advice
// leaves out --num-ctx, which cannot change it.
func TestAPromptOverAFixedWindowIsNotSent(t *testing.T) {
	t.Parallel()
	llama := openaitest.NewServer(openaitest.Options{Flavor: openaitest.LlamaCpp, Models: []openaitest.Model{{ID: "qwen.gguf", ContextLength: 4096}}})
	defer llama.Close()
	dir := t.TempDir()
	bigFile(t, dir, "notes.md", 30_000)
	out := runBinary(t, invocation{args: []string{"-m", "llamacpp:any", "--provider-url", llama.BaseURL, "-p", "Summarise @notes.md"}, dir: dir})
	want := "@notes.md is about 7.5k tokens; the window is 4,096: attach less; the prompt was not sent"
	if out.code != 2 || !strings.Contains(out.stderr, want) {
		t.Fatalf("exit %d, stderr %q; want exit 2 and %q", out.code, out.stderr, want)
	}
	if n := len(llama.Requests()); n != 0 {
		t.Errorf("%d chat requests were sent", n)
	}
}

// An engine that counts a prompt of the whole window has cut it: the run
// warns, on stderr and in JSON.
func TestAPromptCutByTheEngineIsWarned(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "An answer.", PromptEvalCount: 8192},
		ollamatest.Reply{Content: "An answer.", PromptEvalCount: 8192})
	out := runBinary(t, invocation{args: []string{"-m", "qwen3", "-p", "hello"}, host: ollama.URL})
	if out.code != 0 || out.stdout != "An answer.\n" || !strings.Contains(out.stderr, "the engine cut the prompt: it counted 8,192 tokens, its whole window") {
		t.Errorf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	out = runBinary(t, invocation{args: []string{"-m", "qwen3", "--output", "json", "-p", "hello"}, host: ollama.URL})
	final := finalMap(t, out.stdout)
	if w, _ := final["warnings"].([]any); len(w) != 1 || !strings.Contains(w[0].(string), "the engine cut the prompt") {
		t.Errorf("warnings %v", final["warnings"])
	}
	// The OpenAI-compatible path: usage.prompt_tokens of the whole window.
	llama := openaitest.NewServer(openaitest.Options{Flavor: openaitest.LlamaCpp, Models: []openaitest.Model{{ID: "qwen.gguf", ContextLength: 4096}}})
	defer llama.Close()
	llama.Enqueue(openaitest.Reply{Content: "An answer.", PromptTokens: 4096})
	out = runBinary(t, invocation{args: []string{"-m", "llamacpp:any", "--provider-url", llama.BaseURL, "-p", "hello"}})
	if out.code != 0 || !strings.Contains(out.stderr, "the engine cut the prompt: it counted 4,096 tokens, its whole window") {
		t.Errorf("llama.cpp: exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
}

// An empty answer is said: a warning saying why when known, exit 7,
// stop_reason "empty"; a session saved after it keeps the model.
func TestAnEmptyAnswerIsSaid(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	// What a model that called a tool not offered leaves: tokens written,
	// no text and no call (the engine's parser dropped it).
	ollama.Enqueue(ollamatest.Reply{Content: "", EvalCount: 12}, ollamatest.Reply{Content: "", EvalCount: 12})
	dir := t.TempDir()
	session := filepath.Join(dir, "s.json")
	out := runBinary(t, invocation{args: []string{"-m", "qwen3", "--session", session, "-p", "hello"}, dir: dir, host: ollama.URL})
	if out.code != 7 || out.stdout != "" {
		t.Errorf("exit %d, stdout %q; want 7 and nothing", out.code, out.stdout)
	}
	if !strings.Contains(out.stderr, "the model returned an empty answer: it wrote 12 tokens the engine did not pass on") {
		t.Errorf("stderr %q", out.stderr)
	}
	var saved struct{ Model string }
	data, _ := os.ReadFile(session)
	if json.Unmarshal(data, &saved) != nil || saved.Model != "qwen3" {
		t.Errorf("the session's model is %q, want qwen3:\n%s", saved.Model, data)
	}
	out = runBinary(t, invocation{args: []string{"-m", "qwen3", "--output", "json", "-p", "hello"}, host: ollama.URL})
	final := finalMap(t, out.stdout)
	if out.code != 7 || final["stop_reason"] != "empty" || final["exit_code"] != float64(7) {
		t.Errorf("exit %d, final %v", out.code, final)
	}
	if w, _ := final["warnings"].([]any); len(w) != 1 || !strings.HasPrefix(w[0].(string), "the model returned an empty answer") {
		t.Errorf("warnings %v", final["warnings"])
	}
}

// Against the real Ollama, on both its endpoints: an attachment twice the
// window is refused before sending, exit 2, and Ollama never truncates.
func TestRealOllamaPromptOverTheWindowIsNotSent(t *testing.T) {
	t.Parallel()
	o := startRealOllama(t, "tiny")
	dir := t.TempDir()
	bigFile(t, dir, "big.txt", 2*8192*4) // twice the 8,192-token window at 4 bytes a token
	// /v1 takes no num_ctx: the window is the model's own (its
	// Modelfile's num_ctx 8192), which --num-ctx cannot raise.
	for name, tc := range map[string]struct {
		args []string
		want string
	}{
		"native": {[]string{"-m", "ollama:tiny", "-p", "Summarise @big.txt"}, "@big.txt is about 16k tokens; the window is 8,192: raise --num-ctx or attach less"},
		"v1":     {viaV1(o, "tiny", "--num-ctx", "32768", "-p", "Summarise @big.txt"), "@big.txt is about 16k tokens; the window is 8,192: attach less"},
	} {
		out := runBinary(t, invocation{args: tc.args, dir: dir, host: o.URL})
		if out.code != 2 || !strings.Contains(out.stderr, tc.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", name, out.code, out.stdout, out.stderr)
		}
	}
	if n, m := len(o.chats()), len(o.completions()); n+m != 0 {
		t.Errorf("%d /api/chat and %d /v1 requests were sent", n, m)
	}
	// A prompt that fits is answered, so the server's log is live.
	o.createPlainModel("plain", "A summary.")
	if out := runBinary(t, invocation{args: []string{"-m", "ollama:plain", "-p", "hello"}, dir: dir, host: o.URL}); out.code != 0 || out.stdout != "A summary.\n" {
		t.Errorf("a small prompt: exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	if strings.Contains(o.log(), "truncating input prompt") {
		t.Errorf("Ollama truncated a prompt:\n%s", o.log())
	}
}

// A real model that calls a tool it was not offered gets its call dropped
// by Ollama's parser: the answer is empty, and said so, exit 7; the
// session keeps the model.
func TestRealOllamaEmptyAnswerIsSaid(t *testing.T) {
	t.Parallel()
	o := startRealOllama(t, "tiny", "-call", `nowhere__nothing={"x":"y"}`, "-answer", "Never.")
	dir := t.TempDir()
	session := filepath.Join(dir, "s.json")
	out := runBinary(t, invocation{args: []string{"-m", "ollama:tiny", "--session", session, "-p", "do it"}, dir: dir, host: o.URL})
	if out.code != 7 || !strings.Contains(out.stderr, "the model returned an empty answer") {
		t.Errorf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	var saved struct{ Model string }
	data, _ := os.ReadFile(session)
	if json.Unmarshal(data, &saved) != nil || saved.Model != "tiny" {
		t.Errorf("the session's model is %q, want tiny:\n%s", saved.Model, data)
	}
}

// In the chat: an empty answer is a dim line, not a warning; a prompt the
// engine cut shows a full window; a prompt that cannot fit is not sent,
// is not in the conversation, and waits in the input box.
func TestChatEmptyAnswerCutPromptAndAPromptNotSent(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{Content: "", EvalCount: 7},
		ollamatest.Reply{Content: "Cut short.", PromptEvalCount: 8192, EvalCount: 3},
		ollamatest.Reply{Content: "Fine."},
	)
	dir := t.TempDir()
	bigFile(t, dir, "big.txt", 70_000)
	env := slices.DeleteFunc(chatEnv(t, ollama.URL), func(e string) bool { return strings.HasPrefix(e, "NO_COLOR=") })
	term := startTerminal(t, dir, env, "-m", "tiny")
	term.waitFor("servers ready")

	term.typeLine("first")
	term.waitFor("(the model returned an empty answer: it wrote 7 tokens the engine did not pass on")
	if s := term.colorScreen(); !strings.Contains(s, "\x1b[2m(the model returned an empty answer") || strings.Contains(term.screen(), "warning: the model returned") {
		t.Errorf("the empty answer is not one dim line:\n%q", s)
	}

	term.typeLine("second")
	term.waitFor("Cut short.")
	term.waitFor("8.2k/8.2k context (100%, the prompt was cut)")
	term.waitFor("the engine cut the prompt: it counted 8,192 tokens")

	term.typeLine("Summarise @big.txt")
	term.waitForMatch(regexp.MustCompile(`@big.txt is about \d+k tokens; the window is 8,192: raise --num-ctx or attach less; the prompt was not sent`))
	// Echoed once when sent, and back in the input box.
	term.waitForCount("Summarise @big.txt", 2)
	if n := len(ollama.Requests()); n != 2 {
		t.Errorf("%d chat requests, want 2: the prompt over the window was sent", n)
	}
	term.keys("C-u")
	term.typeLine("third")
	term.waitFor("Fine.")
	if got := strings.Join(lastSent(ollama), "|"); strings.Contains(got, "Summarise") {
		t.Errorf("the prompt not sent is in the conversation: %q", got)
	}
	term.keys("C-d")
	term.waitExit()
}

// Text the estimate takes for far fewer tokens than the model's tokenizer
// makes of it (random letters: about one token a byte, estimated at one
// per four) passes the check and is cut by the real Ollama, which counts
// the whole window: the run says so, on both endpoints.
func TestRealOllamaCutPromptIsWarned(t *testing.T) {
	t.Parallel()
	o := startRealOllama(t, "tiny", "-num-ctx", "2048")
	dir := t.TempDir()
	var b strings.Builder
	seed := uint32(7)
	for b.Len() < 4000 {
		seed = seed*1664525 + 1013904223
		b.WriteByte("qxzjkvwpfgbmyhdc"[seed>>28])
		if seed%7 == 0 {
			b.WriteByte(' ')
		}
	}
	os.WriteFile(filepath.Join(dir, "noise.txt"), []byte(b.String()), 0o644)
	for name, args := range map[string][]string{
		"native": {"-m", "ollama:tiny", "--num-ctx", "2048", "-p", "Read @noise.txt"},
		"v1":     viaV1(o, "tiny", "-p", "Read @noise.txt"),
	} {
		out := runBinary(t, invocation{args: args, dir: dir, host: o.URL})
		if !strings.Contains(out.stderr, "the engine cut the prompt: it counted 2,048 tokens, its whole window") {
			t.Errorf("%s: exit %d, stderr %q", name, out.code, out.stderr)
		}
	}
	if n := strings.Count(o.log(), "truncating input prompt"); n != 2 {
		t.Errorf("Ollama truncated %d prompts, want 2 (the test's text does not overflow as it should)", n)
	}
}
