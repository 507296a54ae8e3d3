package e2e

// End-to-end tests of containment: what comes from outside (a config's
// secrets, a redirecting server, the model endpoint, the model itself, a
// flood) cannot get past the user. docs/security.md lists what each holds.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/ollamatest"
)

// TestNoPlantedSecretInAnyOutput plants secrets in a config (an env value
// a failing server prints, the password in a server's URL) and looks for
// them in every output mcphost has: text, json and stream-json runs
// (start events included), --debug, servers and tools list in both forms.
func TestNoPlantedSecretInAnyOutput(t *testing.T) {
	t.Parallel()
	const envSecret, urlPassword = "env-token-5c1d9e7a", "url-pass-8e2b"
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "servers.yml", fmt.Sprintf(`mcpServers:
  fs: {type: builtin, name: fs}
  leaky:
    command: sh
    args: ["-c", "echo \"cannot log in with $SERVICE_TOKEN\" >&2; exit 1"]
    env:
      SERVICE_TOKEN: %s
  web:
    type: http
    url: http://ann:%s@%s/mcp
`, envSecret, urlPassword, freeAddr(t)))

	runs := [][]string{
		{"-p", "hi"},
		{"-p", "hi", "--debug"},
		{"-p", "hi", "--output", "json"},
		{"-p", "hi", "--output", "stream-json"},
		{"servers"},
		{"servers", "--output", "json"},
		{"tools", "list"},
		{"tools", "list", "--output", "json"},
	}
	for _, args := range runs {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			ollama := ollamatest.NewServer()
			defer ollama.Close()
			ollama.Enqueue(ollamatest.Reply{Content: "hello"})
			out := runBinary(t, invocation{args: append([]string{"-m", "tiny", "--config", cfg}, args...), dir: dir, host: ollama.URL})
			all := out.stdout + out.stderr
			// The outputs do talk about the failed servers, so the test
			// looks where the secrets would be.
			if !strings.Contains(all, `"web"`) && !strings.Contains(all, "web ") {
				t.Fatalf("nothing was said about the failing servers:\nstdout %s\nstderr %s", out.stdout, out.stderr)
			}
			for name, s := range map[string]string{"env secret": envSecret, "URL password": urlPassword} {
				if strings.Contains(all, s) {
					t.Errorf("the %s %q is in the output:\nstdout %s\nstderr %s", name, s, out.stdout, out.stderr)
				}
			}
		})
	}
}

// TestHeadersAreNotSentAfterARedirectToAnotherOrigin configures a server
// with an Authorization header whose URL redirects to another host: the
// other host must not get the header.
func TestHeadersAreNotSentAfterARedirectToAnotherOrigin(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var stolen []string
	thief := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		stolen = append(stolen, r.Method+" "+r.Header.Get("Authorization"))
		mu.Unlock()
		http.Error(w, "nothing here", http.StatusNotFound)
	}))
	defer thief.Close()
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, thief.URL+"/mcp", http.StatusTemporaryRedirect)
	}))
	defer redirector.Close()

	dir := t.TempDir()
	cfg := writeConfig(t, dir, "servers.yml", fmt.Sprintf(`mcpServers:
  remote:
    type: http
    url: %s/mcp
    headers:
      Authorization: Bearer hdr-secret-31f4
`, redirector.URL))
	out := runBinary(t, invocation{args: []string{"servers", "--config", cfg}, dir: dir})
	if out.code != 5 {
		t.Errorf("exit %d, want 5 (the server could not start): %s %s", out.code, out.stdout, out.stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(stolen) == 0 {
		t.Fatal("the redirect was not followed, so the test proves nothing")
	}
	for _, req := range stolen {
		if strings.Contains(req, "hdr-secret") {
			t.Errorf("the other origin got the configured header: %q", req)
		}
	}
}

// TestFSRefusesToWriteThroughAHardLink: a hard link in the working
// directory to a file outside it; the model, allowed to write, tries to
// overwrite it through the built-in fs server, and is told why not.
func TestFSRefusesToWriteThroughAHardLink(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	dir, outside := filepath.Join(base, "project"), filepath.Join(base, "outside.txt")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeConfig(t, base, "outside.txt", "keep me")
	if err := os.Link(outside, filepath.Join(dir, "notes.txt")); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fs__write_file", map[string]any{"path": "notes.txt", "content": "pwned"})}},
		ollamatest.Reply{Content: "could not"},
	)
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "write", "--allow-tool", "fs__write_file"}, dir: dir, host: ollama.URL})
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	if got := toolResultsByName(ollama.Requests()[1])["fs__write_file"]; !strings.Contains(got, "hard links") {
		t.Errorf("the model was not told why: %q", got)
	}
	if data, _ := os.ReadFile(outside); string(data) != "keep me" {
		t.Errorf("the file outside the working directory was written through the hard link: %q", data)
	}
}

// TestFetchRefusesLoopbackUnlessAllowed: the built-in fetch server does
// not read a service on 127.0.0.1 for the model, unless the config says
// allow_private: true.
func TestFetchRefusesLoopbackUnlessAllowed(t *testing.T) {
	t.Parallel()
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "internal admin page")
	}))
	defer local.Close()
	for _, tt := range []struct {
		options string
		want    string
	}{
		{"{}", "connects to 127.0.0.1, a loopback address"},
		{"{allow_private: true}", "internal admin page"},
	} {
		t.Run(tt.options, func(t *testing.T) {
			ollama := ollamatest.NewServer()
			defer ollama.Close()
			ollama.Enqueue(
				ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("web__fetch", map[string]any{"url": local.URL + "/admin"})}},
				ollamatest.Reply{Content: "done"},
			)
			dir := t.TempDir()
			cfg := writeConfig(t, dir, "servers.yml", "mcpServers:\n  web: {type: builtin, name: fetch, options: "+tt.options+"}\n")
			out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "read it", "--config", cfg, "--allow-tool", "web__fetch"}, dir: dir, host: ollama.URL})
			if out.code != 0 {
				t.Fatalf("exit %d: %s", out.code, out.stderr)
			}
			if got := toolResultsByName(ollama.Requests()[1])["web__fetch"]; !strings.Contains(got, tt.want) {
				t.Errorf("fetch result = %q, want it to hold %q", got, tt.want)
			}
		})
	}
}

// hostile is text an attacker would like to reach a terminal: a clipboard
// write (OSC 52), a window title, a screen clear, a bell.
const hostile = "\x1b]52;c;cm0gLXJmIH4=\x07\x1b]0;pwned\x07\x1b[2J\x1b[H\x07"

// TestNoEscapeSequencesFromOutside: the model endpoint's error text, a
// failing server's last words and the model's own text (split across
// streamed pieces) reach stderr and piped stdout without their escape
// sequences; the JSON output keeps the model's text exactly.
func TestNoEscapeSequencesFromOutside(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	config, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"fs":   map[string]any{"type": "builtin", "name": "fs"},
		"loud": map[string]any{"command": "sh", "args": []string{"-c", "printf 'crashed %s\\n' \"$1\" >&2; exit 1", "sh", hostile}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := writeConfig(t, dir, "servers.json", string(config))

	t.Run("engine error", func(t *testing.T) {
		ollama := ollamatest.NewServer()
		defer ollama.Close()
		ollama.Handle(func(api.ChatRequest) ollamatest.Reply {
			return ollamatest.Reply{Status: http.StatusBadRequest, Error: "bad request " + hostile + " end"}
		})
		out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "hi", "--config", cfg}, dir: dir, host: ollama.URL})
		if out.code != 3 || !strings.Contains(out.stderr, "mcphost: ollama: bad request") || !strings.Contains(out.stderr, "end") {
			t.Fatalf("exit %d, stderr %q: want exit 3 and the engine's error", out.code, out.stderr)
		}
		// The server's words stay; the sequences it wrote do not.
		if !strings.Contains(out.stderr, `server "loud" exited during start`) || !strings.Contains(out.stderr, "crashed") {
			t.Errorf("the failing server's warning is missing: %q", out.stderr)
		}
		if strings.ContainsAny(out.stderr, "\x1b\x07") {
			t.Errorf("stderr holds escape sequences: %q", out.stderr)
		}
	})

	answer := []string{"Here \x1b]52;c;cm0g", "LXJmIH4=\x07is\x1b[2J\x1b", "[H\tthe answer\x07\n"}
	t.Run("model text, piped", func(t *testing.T) {
		ollama := ollamatest.NewServer()
		defer ollama.Close()
		ollama.Enqueue(ollamatest.Reply{Chunks: answer})
		out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "hi", "--config", cfg}, dir: dir, host: ollama.URL})
		if out.code != 0 || out.stdout != "Here is\tthe answer\n" {
			t.Errorf("exit %d, stdout %q, want the answer without escape sequences", out.code, out.stdout)
		}
	})

	t.Run("model text, json", func(t *testing.T) {
		ollama := ollamatest.NewServer()
		defer ollama.Close()
		ollama.Enqueue(ollamatest.Reply{Chunks: answer})
		out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "hi", "--config", cfg, "--output", "json"}, dir: dir, host: ollama.URL})
		var final struct{ Answer string }
		if err := json.Unmarshal([]byte(out.stdout), &final); err != nil {
			t.Fatalf("exit %d, stdout %q: %v", out.code, out.stdout, err)
		}
		if want := strings.Join(answer, ""); final.Answer != want {
			t.Errorf("json answer = %q, want the exact text %q", final.Answer, want)
		}
	})
}

// TestAFloodingModelIsStopped: a model that streams 20 MB, more than the
// default 8 MiB cap on a reply, ends the run with an error and exit 3.
func TestAFloodingModelIsStopped(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	piece := strings.Repeat("flood ", 10<<10/6)
	chunks := make([]string, 20<<20/len(piece))
	for i := range chunks {
		chunks[i] = piece
	}
	ollama.Enqueue(ollamatest.Reply{Chunks: chunks})
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "say everything", "--quiet"}, host: ollama.URL})
	if out.code != 3 || !strings.Contains(out.stderr, "the model's reply grew past 8.0 MB, so it was stopped (--max-reply-bytes sets the limit)") {
		t.Errorf("exit %d, stderr %q: want exit 3 and the reply limit named", out.code, out.stderr)
	}
	if n := len(out.stdout); n > 8<<20+len(piece) {
		t.Errorf("%d bytes reached stdout, more than the cap", n)
	}
}

// TestASilentModelIsStopped: a model that sends nothing ends the call
// after --model-idle-timeout, with exit 3, and is not asked again.
func TestASilentModelIsStopped(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	hold := make(chan struct{})
	defer close(hold)
	ollama.Enqueue(ollamatest.Reply{Hold: hold, Content: "too late"})
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "hello?", "--model-idle-timeout", "500ms", "--output", "json"}, host: ollama.URL})
	var final struct {
		Error    string
		ExitCode int `json:"exit_code"`
	}
	if err := json.Unmarshal([]byte(out.stdout), &final); err != nil {
		t.Fatalf("stdout %q: %v", out.stdout, err)
	}
	if out.code != 3 || final.ExitCode != 3 || !strings.Contains(final.Error, "the model sent nothing for 500ms, so the call was stopped") {
		t.Errorf("exit %d, final %+v, stderr %q", out.code, final, out.stderr)
	}
	if n := ollama.RequestCount(); n != 1 {
		t.Errorf("%d model requests, want 1", n)
	}
}

// endless is piped input that never ends, counting what was read of it.
type endless struct{ read int }

func (e *endless) Read(p []byte) (int, error) {
	if e.read >= 100<<20 {
		return 0, io.EOF
	}
	for i := range p {
		p[i] = 'a'
	}
	e.read += len(p)
	return len(p), nil
}

// TestTooMuchPipedInputIsRefused pipes 100 MB: mcphost refuses it with
// exit 2 after reading little more than the 16 MiB limit, and the model
// is never called.
func TestTooMuchPipedInputIsRefused(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	cmd := invocation{args: []string{"-m", "tiny", "-p", "summarise"}, host: ollama.URL}.command(t)
	in := &endless{}
	var stderr strings.Builder
	cmd.Stdin, cmd.Stderr = in, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Fatalf("err %v, stderr %q: want exit 2", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "stdin holds more than 16.0 MB, the limit (--max-stdin-bytes): nothing was sent") {
		t.Errorf("stderr = %q", stderr.String())
	}
	if in.read > 17<<20 {
		t.Errorf("mcphost read %d bytes of stdin before refusing it", in.read)
	}
	if n := ollama.RequestCount() + len(ollama.ShowRequests()); n != 0 {
		t.Errorf("the model was contacted %d times", n)
	}
}

// TestToolCallsOfOneMessageAreBounded: the model asks for 100 bash calls
// in one message. At most 32 run, never more than 8 at once; the other 68
// get an error result the model reads.
func TestToolCallsOfOneMessageAreBounded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	journal := filepath.Join(dir, "journal")
	var calls []api.ToolCall
	for i := range 100 {
		cmd := fmt.Sprintf("echo start >> %s; sleep 0.2; echo end >> %s; echo call %d", journal, journal, i)
		calls = append(calls, ollamatest.Call("sh__run", map[string]any{"command": cmd}))
	}
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{ToolCalls: calls}, ollamatest.Reply{Content: "done"})
	cfg := writeConfig(t, dir, "servers.yml", "mcpServers:\n  sh: {type: builtin, name: bash}\n")
	out := runBinary(t, invocation{args: []string{"-m", "tiny", "-p", "run them all", "--config", cfg, "--allow-tool", "sh__run", "--quiet",
		// 100 calls and their results do not fit the default window,
		// which mcphost would refuse to send.
		"--num-ctx", "32768"}, dir: dir, host: ollama.URL})
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	data, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}
	running, most, started := 0, 0, 0
	for _, line := range strings.Fields(string(data)) {
		if line == "start" {
			running++
			started++
			most = max(most, running)
		} else {
			running--
		}
	}
	if started != 32 || most > 8 || most < 2 {
		t.Errorf("%d calls ran, at most %d at once; want 32, at most 8 at once (and more than one)", started, most)
	}
	refused := 0
	for _, m := range ollama.Requests()[1].Messages {
		if m.Role == "tool" && strings.Contains(m.Content, "asked for 100 tool calls and at most 32 run per message") {
			refused++
		}
	}
	if refused != 68 {
		t.Errorf("%d calls were refused with the reason, want 68", refused)
	}
}
