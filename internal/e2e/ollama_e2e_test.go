//go:build linux

package e2e

// End-to-end tests against a real Ollama server (built from its Go module
// by ../shared/ollama/setup.sh) serving tiny deterministic models that emit
// exactly the tool calls and answers each scenario needs, through Ollama's
// own template, tokenizer, inference and tool-call parser.
//
// The binaries come from MCPHOST_OLLAMA_BIN and MCPHOST_TINYMODEL_BIN, or
// the cache setup.sh fills. Missing binaries fail the suite under CI=true
// and skip it elsewhere, with the command that builds them.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/mcptest"
)

// ollamaTools returns the paths of the real ollama and the model generator.
func ollamaTools(t testing.TB) (ollamaBin, genBin, serveScript string) {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	shared := filepath.Join(root, "shared", "ollama")
	home, _ := os.UserHomeDir()
	cache := filepath.Join(home, ".cache", "mcphost-ollama", "bin")
	ollamaBin = envOr("MCPHOST_OLLAMA_BIN", filepath.Join(cache, "ollama"))
	genBin = envOr("MCPHOST_TINYMODEL_BIN", filepath.Join(cache, "tinymodel"))
	serveScript = filepath.Join(shared, "serve.sh")
	for _, p := range []string{ollamaBin, genBin, serveScript} {
		if _, err := os.Stat(p); err != nil {
			msg := fmt.Sprintf("real Ollama not available (%s missing): build it with %s/setup.sh (scripts/test.sh does)", p, shared)
			if os.Getenv("CI") != "" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
	return ollamaBin, genBin, serveScript
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// realOllama is a private Ollama server behind a recording proxy, so tests
// can assert what mcphost sent and what Ollama answered.
type realOllama struct {
	t        *testing.T
	bin, gen string
	work     string
	addr     string // host:port of the server itself
	pid      int
	URL      string // the recording proxy: what mcphost is pointed at

	mu       sync.Mutex
	requests []recorded
}

type recorded struct {
	path   string
	body   []byte
	status int
}

// startRealOllama starts a server with serve.sh and creates its first model.
func startRealOllama(t *testing.T, model string, genFlags ...string) *realOllama {
	t.Helper()
	bin, gen, serve := ollamaTools(t)
	o := &realOllama{t: t, bin: bin, gen: gen, work: t.TempDir()}
	o.addr = freeAddr(t)
	port := strings.TrimPrefix(o.addr, "127.0.0.1:")
	out, err := exec.Command("bash", append([]string{serve, bin, gen, o.work, port, model}, genFlags...)...).Output()
	if err != nil {
		t.Fatalf("serve.sh: %v\n%s", err, o.log())
	}
	o.pid, _ = strconv.Atoi(strings.TrimSpace(string(out)))
	t.Cleanup(o.stop)

	target, _ := url.Parse("http://" + o.addr)
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.FlushInterval = -1 // stream every chunk as it comes
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		rec := &statusRecorder{ResponseWriter: w, status: 200}
		proxy.ServeHTTP(rec, r)
		o.mu.Lock()
		o.requests = append(o.requests, recorded{r.URL.Path, body, rec.status})
		o.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	o.URL = srv.URL
	t.Cleanup(o.assertNoBadRequests)
	return o
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) { r.status = code; r.ResponseWriter.WriteHeader(code) }
func (r *statusRecorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// createModel generates another tiny model and creates it in the server,
// as serve.sh does for the first one.
func (o *realOllama) createModel(name string, genFlags ...string) {
	o.t.Helper()
	dir := filepath.Join(o.work, name)
	os.MkdirAll(dir, 0o755)
	gen := exec.Command(o.gen, append([]string{"-o", filepath.Join(dir, "model.gguf"), "-modelfile", filepath.Join(dir, "Modelfile"), "-from", "./model.gguf"}, genFlags...)...)
	if out, err := gen.CombinedOutput(); err != nil {
		o.t.Fatalf("tinymodel: %v\n%s", err, out)
	}
	o.create(name, dir)
}

// createPlainModel creates a model whose template knows nothing of tools,
// so Ollama reports no "tools" capability.
func (o *realOllama) createPlainModel(name, answer string) {
	o.t.Helper()
	o.createModel(name+"-src", "-answer", answer)
	dir := filepath.Join(o.work, name+"-src")
	modelfile := "FROM ./model.gguf\nTEMPLATE \"\"\"{{- range .Messages }}{{ if eq .Role \"user\" }}<|user|>{{ .Content }}\n{{ end }}{{ end }}<|plain|>\"\"\"\nPARAMETER temperature 0\n"
	if err := os.WriteFile(filepath.Join(dir, "Modelfile"), []byte(modelfile), 0o644); err != nil {
		o.t.Fatal(err)
	}
	o.create(name, dir)
}

func (o *realOllama) create(name, dir string) {
	o.t.Helper()
	cmd := exec.Command(o.bin, "create", name, "-f", "Modelfile")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "OLLAMA_HOST="+o.addr)
	if out, err := cmd.CombinedOutput(); err != nil {
		o.t.Fatalf("ollama create %s: %v\n%s", name, err, out)
	}
}

// chats returns the /api/chat requests mcphost sent, decoded.
func (o *realOllama) chats() []api.ChatRequest {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []api.ChatRequest
	for _, r := range o.requests {
		if r.path != "/api/chat" {
			continue
		}
		var req api.ChatRequest
		if err := json.Unmarshal(r.body, &req); err != nil {
			o.t.Fatalf("mcphost sent a chat request that does not decode: %v", err)
		}
		out = append(out, req)
	}
	return out
}

func (o *realOllama) log() string {
	data, _ := os.ReadFile(filepath.Join(o.work, "ollama.log"))
	return string(data)
}

// chatLogLine matches Ollama's log line of an answered chat request.
var chatLogLine = regexp.MustCompile(`\[GIN\].*\| 200 \|.*POST +"/api/chat"`)

// badRequestLine matches a 4xx line of Ollama's request log.
var badRequestLine = regexp.MustCompile(`\| +4\d\d \|`)

// assertNoBadRequests checks that Ollama accepted everything mcphost sent
// (num_ctx, tools after normalisation, history): no 400s, except the 404 a
// missing model gets on purpose.
func (o *realOllama) assertNoBadRequests() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, r := range o.requests {
		if r.status == 400 || r.status == 422 {
			o.t.Errorf("Ollama answered %d to %s: %s", r.status, r.path, r.body)
		}
	}
	for _, line := range strings.Split(o.log(), "\n") {
		if badRequestLine.MatchString(line) && !strings.Contains(line, "| 404 |") {
			o.t.Errorf("Ollama's log shows a rejected request: %s", line)
		}
	}
}

// stop ends the server and the model runners it started.
func (o *realOllama) stop() {
	if o.pid <= 0 {
		return
	}
	children := childPIDs(o.pid)
	syscall.Kill(o.pid, syscall.SIGKILL)
	for _, c := range children {
		syscall.Kill(c, syscall.SIGKILL)
	}
	o.pid = 0
}

// childPIDs lists the direct children of pid, from /proc.
func childPIDs(pid int) []int {
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", child))
		if err != nil {
			continue
		}
		s := string(stat)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) > 1 && fields[1] == strconv.Itoa(pid) {
			out = append(out, child)
		}
	}
	return out
}

func TestRealOllamaOneShotToolCall(t *testing.T) {
	t.Parallel()
	o := startRealOllama(t, "tiny", "-call", `everything__echo={"message":"hello"}`, "-answer", "Echoed hello.")
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	out := runBinary(t, invocation{args: []string{"-m", "ollama:tiny", "-p", "echo hello"}, dir: dir, host: o.URL})
	if out.code != 0 || out.stdout != "Echoed hello.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	if !strings.Contains(out.stderr, "✓ everything › echo") {
		t.Errorf("no tool line: %q", out.stderr)
	}
	chats := o.chats()
	if len(chats) != 2 {
		t.Fatalf("%d chat requests, want 2", len(chats))
	}
	res := lastMessage(chats[1])
	if res.Role != "tool" || res.Content != "Echo: hello" {
		t.Errorf("tool result sent = %+v", res)
	}
	if chats[0].Options["num_ctx"] != float64(8192) {
		t.Errorf("num_ctx = %v", chats[0].Options["num_ctx"])
	}
}

func TestRealOllamaSequentialCallsAcrossServers(t *testing.T) {
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

	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "look and remember", "--allow-tool", "memory__create_entities"}, dir: dir, host: o.URL})
	if out.code != 0 || out.stdout != "Remembered Ann.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	chats := o.chats()
	if len(chats) != 3 || !strings.Contains(lastMessage(chats[1]).Content, "notes.txt") {
		t.Errorf("list_directory result not sent: %d requests", len(chats))
	}
	saved, err := os.ReadFile(memory)
	if err != nil || !strings.Contains(string(saved), `"Ann"`) || !strings.Contains(string(saved), "likes tea") {
		t.Errorf("the memory file does not hold the entity: %q (%v); stderr %q", saved, err, out.stderr)
	}
}

func TestRealOllamaParallelCallsReturnInOrder(t *testing.T) {
	t.Parallel()
	steps := `[[{"name":"everything__get-sum","arguments":{"a":2,"b":3}},{"name":"everything__echo","arguments":{"message":"second"}}]]`
	o := startRealOllama(t, "tiny", "-calls-json", steps, "-answer", "Both done.")
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "both"}, dir: dir, host: o.URL})
	if out.code != 0 || out.stdout != "Both done.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	chats := o.chats()
	msgs := chats[len(chats)-1].Messages
	first, second := msgs[len(msgs)-2], msgs[len(msgs)-1]
	if first.ToolName != "everything__get-sum" || !strings.Contains(first.Content, "5") || second.ToolName != "everything__echo" || second.Content != "Echo: second" {
		t.Errorf("results out of call order: %+v / %+v", first, second)
	}
}

func TestRealOllamaPipedStdin(t *testing.T) {
	t.Parallel()
	o := startRealOllama(t, "tiny", "-call", `everything__echo={"message":"piped"}`, "-answer", "Piped done.")
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	for _, inv := range []invocation{
		{args: []string{"-m", "tiny"}, stdin: "summarise this\n"},
		{args: []string{"-m", "tiny", "-p", "Write a commit message"}, stdin: "+a line\n"},
	} {
		inv.dir, inv.host = dir, o.URL
		if out := runBinary(t, inv); out.code != 0 || out.stdout != "Piped done.\n" {
			t.Errorf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
		}
	}
	var prompts []string
	for _, c := range o.chats() {
		if c.Messages[len(c.Messages)-1].Role == "user" {
			prompts = append(prompts, c.Messages[len(c.Messages)-1].Content)
		}
	}
	if len(prompts) != 2 || prompts[0] != "summarise this" || prompts[1] != "Write a commit message\n\n+a line" {
		t.Errorf("prompts = %q", prompts)
	}
}

func TestRealOllamaModelWithoutTools(t *testing.T) {
	t.Parallel()
	o := startRealOllama(t, "tiny")
	o.createPlainModel("plain", "Plain answer.")
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	out := runBinary(t, invocation{args: []string{"-m", "plain", "-p", "hi"}, dir: dir, host: o.URL})
	if out.code != 0 || out.stdout != "Plain answer.\n" || !strings.Contains(out.stderr, `model "plain" does not support tools`) {
		t.Errorf("exit %d, stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	for _, c := range o.chats() {
		if len(c.Tools) != 0 {
			t.Error("tools were sent to a model without the tools capability")
		}
	}
}

func TestRealOllamaMissingModel(t *testing.T) {
	t.Parallel()
	o := startRealOllama(t, "tiny")
	out := runBinary(t, invocation{args: []string{"-m", "ollama:nosuch:7b", "-p", "hi"}, host: o.URL})
	if out.code != 3 || !strings.Contains(out.stderr, `model "nosuch:7b" not found: run "ollama pull nosuch:7b"`) {
		t.Errorf("exit %d, stderr %q", out.code, out.stderr)
	}
}

// TestRealOllamaStreamsTheAnswer reads --output stream-json as it is
// written: the tool call shows up while the tool still runs (mcphost is
// alive and has not written the end of the call), and the answer arrives as
// the text events Ollama streamed. The tiny model's answer is one token,
// so it is one chunk; token-by-token streaming is covered against the
// scripted server.
func TestRealOllamaStreamsTheAnswer(t *testing.T) {
	t.Parallel()
	o := startRealOllama(t, "tiny", "-call", `everything__trigger-long-running-operation={"duration":2,"steps":2}`, "-answer", "Streamed answer.")
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", everythingJSON(t))
	cmd := invocation{args: []string{"-m", "tiny", "-p", "go", "--output", "stream-json"}, dir: dir, host: o.URL}.command(t)
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
		var ev struct{ Type, Text string }
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
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("mcphost: %v", err)
	}
	joined := strings.Join(types, " ")
	if !strings.HasPrefix(joined, "start") || !strings.HasSuffix(joined, "text usage final") || !regexp.MustCompile(`tool_call_start( progress)* tool_call_end`).MatchString(joined) {
		t.Errorf("events = %s", joined)
	}
	if text.String() != "Streamed answer." {
		t.Errorf("streamed text = %q", text.String())
	}
}

func TestRealOllamaChatWithModelSwitch(t *testing.T) {
	t.Parallel()
	o := startRealOllama(t, "tiny-a", "-call", `everything__echo={"message":"from a"}`, "-answer", "Answer from A.")
	o.createModel("tiny-b", "-call", `everything__echo={"message":"from b"}`, "-answer", "Answer from B.")
	dir, pids, env := chatSetup(t, o.URL)
	term := startTerminal(t, dir, env, "-m", "ollama:tiny-a")
	term.waitFor("servers ready")
	term.typeLine("first question")
	s := term.waitFor("Answer from A.")
	if !strings.Contains(s, "✓ everything › echo") {
		t.Errorf("no tool line in the chat:\n%s", s)
	}
	term.typeLine("/model tiny-b")
	term.waitFor("model: tiny-b")
	term.typeLine("second question")
	term.waitFor("Answer from B.")
	term.typeLine("/quit")
	if code := term.waitExit(); code != 0 {
		t.Errorf("exit %d", code)
	}
	assertNoLeftovers(t, pids)
	chats := o.chats()
	if last := chats[len(chats)-1]; last.Model != "tiny-b" || len(last.Messages) < 6 {
		t.Errorf("after /model the conversation did not go on with tiny-b: model %s, %d messages", last.Model, len(last.Messages))
	}
}

func TestRealOllamaKilledDuringARun(t *testing.T) {
	t.Parallel()
	o := startRealOllama(t, "tiny", "-call", `everything__trigger-long-running-operation={"duration":3,"steps":3}`, "-answer", "never")
	dir, pids, _ := chatSetup(t, o.URL)
	// Straight to Ollama, not through the recording proxy, so mcphost sees
	// the refused connection a dead Ollama gives.
	cmd := invocation{args: []string{"-m", "tiny", "-p", "run it"}, dir: dir, host: "http://" + o.addr}.command(t)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The model has asked for the slow tool: Ollama dies while it runs.
	waitForFile(t, pids)
	// Ollama logs a request once answered: the first chat, the tool call.
	waitFor(t, func() bool { return chatLogLine.MatchString(o.log()) })
	o.stop()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(90 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("mcphost did not give up after Ollama died; stderr %q", stderr.String())
	}
	code := cmd.ProcessState.ExitCode()
	if code != 3 || !strings.Contains(stderr.String(), "cannot reach Ollama") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	if strings.Contains(stderr.String(), "goroutine ") {
		t.Errorf("stack trace: %q", stderr.String())
	}
	assertNoLeftovers(t, pids)
}

// waitForFile waits until path exists and is not empty.
func waitForFile(t *testing.T, path string) {
	t.Helper()
	waitFor(t, func() bool {
		st, err := os.Stat(path)
		return err == nil && st.Size() > 0
	})
}
