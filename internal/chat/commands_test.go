package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/guard/approval"
	"github.com/mcphost/mcphost/ollamatest"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/provider/ollama"
	"github.com/mcphost/mcphost/tool"
)

// fakeHost is a server table with tools; the real host is driven by the
// terminal tests.
type fakeHost struct {
	status   []host.ServerInfo
	logs     map[string][]string
	disabled []string
}

func (f *fakeHost) Servers() []host.ServerInfo      { return f.status }
func (f *fakeHost) ServerLogs(name string) []string { return f.logs[name] }
func (f *fakeHost) RestartServer(context.Context, string) error {
	return errors.New("server \"everything\" did not start within 30s")
}
func (f *fakeHost) DisableServer(name string) error {
	f.disabled = append(f.disabled, name)
	for i := range f.status {
		if f.status[i].Name == name {
			f.status[i].State = host.StateDisabled
		}
	}
	return nil
}
func (f *fakeHost) EnableServer(context.Context, string) error { return nil }

// Tools exposes two tools of "everything" and one of "files", minus the
// tools of disabled servers.
func (f *fakeHost) Tools() []host.ToolInfo {
	var out []host.ToolInfo
	for _, t := range []provider.Tool{{Name: "everything__echo", Description: "Echoes back the input"}, {Name: "everything__get-sum", Description: "Adds two numbers\nmore text"}, {Name: "files__read_file", Description: "Reads a file"}} {
		server, own, _ := strings.Cut(t.Name, "__")
		if !slices.Contains(f.disabled, server) {
			out = append(out, host.ToolInfo{Name: t.Name, Server: server, Offered: t,
				Def: tool.Def{Name: own, Description: t.Description, InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"}},"required":["a"]}`)}})
		}
	}
	return out
}

func newTestChat(t *testing.T) (*Chat, *bytes.Buffer, *fakeHost, *ollamatest.Server) {
	t.Helper()
	srv := &fakeHost{
		status: []host.ServerInfo{
			{Name: "everything", State: host.StateReady, Transport: config.TransportStdio, ToolCount: 2, PID: 4242, StartedAt: time.Now().Add(-time.Minute)},
			{Name: "files", State: host.StateReady, Transport: config.TransportHTTP, ToolCount: 1, StartedAt: time.Now()},
			{Name: "broken", State: host.StateFailed, Transport: config.TransportStdio, Err: errors.New(`server "broken" exited during start: cannot open database`)},
		},
		logs: map[string][]string{"everything": {"Starting default (STDIO) server...", "\x1b[31mred\x1b[0m"}},
	}
	model := ollamatest.NewServer(ollamatest.Model{Name: "tiny"}, ollamatest.Model{Name: "other"}, ollamatest.Model{Name: "plain", Capabilities: []string{"completion"}})
	t.Cleanup(model.Close)
	backend, err := ollama.New(model.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	h, err := host.New(context.Background(), host.Options{Config: &config.Settings{Model: "tiny"}, Provider: backend})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	var out bytes.Buffer
	c := New(Options{Host: srv, Conversation: h.NewConversation(), Out: &out, Err: &out, NoColor: true})
	return c, &out, srv, model
}

func run(t *testing.T, c *Chat, out *bytes.Buffer, line string) string {
	t.Helper()
	out.Reset()
	if quit := c.Command(context.Background(), line); quit {
		t.Fatalf("%s quit the chat", line)
	}
	return out.String()
}

func TestServersTable(t *testing.T) {
	c, out, _, _ := newTestChat(t)
	got := run(t, c, out, "/servers")
	for _, want := range []string{"SERVER", "● ready", "stdio", "4242", "1m0s", "✗ failed", "\nserver \"broken\" exited during start: cannot open database", "http"} {
		if !strings.Contains(got, want) {
			t.Errorf("/servers lacks %q:\n%s", want, got)
		}
	}
	if run(t, c, out, "/mcp") != got {
		t.Error("/mcp alone is not /servers")
	}
}

func TestDisableThenToolsHidesTheServersTools(t *testing.T) {
	c, out, srv, _ := newTestChat(t)
	before := run(t, c, out, "/tools")
	if !strings.Contains(before, "● everything (2 tools, ~") || !strings.Contains(before, "echo") || !strings.Contains(before, "Adds two numbers") {
		t.Fatalf("/tools before:\n%s", before)
	}
	if got := run(t, c, out, "/mcp disable everything"); !strings.Contains(got, "everything disabled") || !slices.Equal(srv.disabled, []string{"everything"}) {
		t.Fatalf("/mcp disable: %q, disabled %v", got, srv.disabled)
	}
	after := run(t, c, out, "/tools")
	if !strings.Contains(after, "○ everything (disabled") || strings.Contains(after, "echo") {
		t.Errorf("/tools after disable:\n%s", after)
	}
	if !strings.Contains(run(t, c, out, "/tools files"), "read_file") || strings.Contains(run(t, c, out, "/tools files"), "everything") {
		t.Error("/tools SERVER does not filter")
	}
}

func TestMCPCommandErrors(t *testing.T) {
	c, out, _, _ := newTestChat(t)
	tests := map[string]string{
		"/mcp frob everything":    `unknown /mcp command "frob"`,
		"/mcp restart":            "which server?",
		"/mcp restart nosuch":     `no server "nosuch"`,
		"/mcp restart everything": `restart everything: server "everything" did not start within 30s`,
		"/tools nosuch":           `no server or tool "nosuch"`,
		"/frobnicate":             "unknown command /frobnicate",
	}
	for line, want := range tests {
		if got := run(t, c, out, line); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", line, got, want)
		}
	}
}

func TestToolsShowsOneToolInFull(t *testing.T) {
	c, out, _, _ := newTestChat(t)
	got := run(t, c, out, "/tools get-sum")
	if !strings.Contains(got, "everything__get-sum  (~") || !strings.Contains(got, "more text") || !strings.Contains(got, "a  number, required") {
		t.Errorf("/tools get-sum = %q", got)
	}
}

func TestMCPLogsAreSanitised(t *testing.T) {
	c, out, _, _ := newTestChat(t)
	got := run(t, c, out, "/mcp logs everything")
	if got != "Starting default (STDIO) server...\nred\n" {
		t.Errorf("/mcp logs = %q", got)
	}
}

func TestModelSwitchKeepsTheConversation(t *testing.T) {
	c, out, _, model := newTestChat(t)
	c.Turn(context.Background(), "hello")
	if got := run(t, c, out, "/model"); !strings.Contains(got, "model: tiny") {
		t.Errorf("/model = %q", got)
	}
	if got := run(t, c, out, "/model ollama:nosuch"); !strings.Contains(got, `model "nosuch" not found`) || !strings.Contains(got, "still using tiny") {
		t.Errorf("/model nosuch = %q", got)
	}
	if got := run(t, c, out, "/model ollama:other"); !strings.Contains(got, "model: other") {
		t.Errorf("/model other = %q", got)
	}
	c.Turn(context.Background(), "again")
	reqs := model.Requests()
	last := reqs[len(reqs)-1]
	if last.Model != "other" || len(last.Messages) != 3 {
		t.Errorf("after /model the request went to %q with %d messages, want other with the history", last.Model, len(last.Messages))
	}
	if got := run(t, c, out, "/model plain"); !strings.Contains(got, "does not support tools") {
		t.Errorf("/model plain = %q", got)
	}
}

func TestSaveClearLoadHistoryUsage(t *testing.T) {
	c, out, _, _ := newTestChat(t)
	c.Turn(context.Background(), "remember me")
	file := filepath.Join(t.TempDir(), "conv.json")
	if got := run(t, c, out, "/save "+file); !strings.Contains(got, "Saved 2 messages") {
		t.Fatalf("/save = %q", got)
	}
	if got := run(t, c, out, "/usage"); !strings.Contains(got, "last turn:") || strings.Contains(got, " 0 prompt") {
		t.Errorf("/usage = %q", got)
	}
	run(t, c, out, "/clear")
	if got := run(t, c, out, "/history"); !strings.Contains(got, "empty") {
		t.Errorf("/history after /clear = %q", got)
	}
	if got := run(t, c, out, "/load "+file); !strings.Contains(got, "Loaded 2 messages") {
		t.Fatalf("/load = %q", got)
	}
	if got := run(t, c, out, "/history"); !strings.Contains(got, "you: remember me") || !strings.Contains(got, "assistant: ok") {
		t.Errorf("/history after /load = %q", got)
	}
	if got := run(t, c, out, "/load "+file+".missing"); !strings.Contains(got, "does not exist") {
		t.Errorf("/load missing = %q", got)
	}
	os.WriteFile(file, []byte("junk"), 0o644)
	if got := run(t, c, out, "/load "+file); !strings.Contains(got, "is not a session file") {
		t.Errorf("/load junk = %q", got)
	}
}

func TestHelpAndQuit(t *testing.T) {
	c, out, _, _ := newTestChat(t)
	help := run(t, c, out, "/help")
	for _, want := range []string{"/tools", "/servers", "/mcp", "/model", "/save", "/usage", "Alt+Enter", "Ctrl-D", "Ctrl-R", "Ctrl-X Ctrl-E", "Esc"} {
		if !strings.Contains(help, want) {
			t.Errorf("/help lacks %q", want)
		}
	}
	for _, q := range []string{"/quit", "/exit"} {
		if !c.Command(context.Background(), q) {
			t.Errorf("%s does not quit", q)
		}
	}
}

func TestComplete(t *testing.T) {
	c, _, _, _ := newTestChat(t)
	tests := []struct {
		input string
		want  []string
	}{
		{"/mo", []string{"/model"}},
		{"/s", []string{"/save", "/servers", "/sessions"}},
		{"/mcp ", []string{"/mcp disable", "/mcp enable", "/mcp login", "/mcp logs", "/mcp restart"}},
		{"/mcp re", []string{"/mcp restart"}},
		{"/mcp restart e", []string{"/mcp restart everything"}},
		{"/tools f", []string{"/tools files"}},
		{"/tools ec", []string{"/tools echo"}},
		{"hello /m", nil},
		{"use every", []string{"use everything__echo", "use everything__get-sum"}},
		{"then\nfiles__r", []string{"then\nfiles__read_file"}},
		{"use ", nil},
	}
	for _, tt := range tests {
		if got := c.Complete(tt.input); !slices.Equal(got, tt.want) {
			t.Errorf("Complete(%q) = %q, want %q", tt.input, got, tt.want)
		}
	}
}

func TestAskTakesOneKeyAndAReason(t *testing.T) {
	tests := []struct {
		input  string
		choice ask.Choice
		reason string
	}{
		{"y", ask.YesOnce, ""},
		{"a", ask.YesSession, ""},
		{"x n", ask.No, ""},
		{"rnot on main, use a branch\n", ask.No, "not on main, use a branch"},
	}
	for _, tt := range tests {
		c, out, _, _ := newTestChat(t)
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		c.opts.In = r
		w.WriteString(tt.input)
		ans, err := c.ApproveCall(context.Background(), ask.CallRequest{Name: "fs__write_file", Server: "fs", Tool: "write_file",
			Arguments: map[string]any{"path": "notes.txt", "content": "hello\x1b[31m"}})
		r.Close()
		w.Close()
		if err != nil || ans.Choice != tt.choice || ans.Reason != tt.reason {
			t.Errorf("input %q: answer %+v, err %v", tt.input, ans, err)
		}
		shown := out.String()
		if !strings.Contains(shown, "fs › write_file wants to run") || !strings.Contains(shown, "notes.txt") || strings.Contains(shown, "\x1b[31m") {
			t.Errorf("the question shows %q", shown)
		}
	}
}

// TestAskFoldsLongValuesAndShowsThemOnV: a long argument is folded with a
// count of what is left out, v shows it in full, as the exact JSON the
// tool gets, and the question repeats the tool's name next to the keys.
func TestAskFoldsLongValuesAndShowsThemOnV(t *testing.T) {
	c, out, _, _ := newTestChat(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	c.opts.In = r
	w.WriteString("vn")
	var lines []string
	for i := range 40 {
		lines = append(lines, fmt.Sprintf("echo step %02d", i))
	}
	ans, err := c.ApproveCall(context.Background(), ask.CallRequest{Name: "sh__run", Server: "sh", Tool: "run",
		Arguments: map[string]any{"command": strings.Join(lines, "\n")}})
	if err != nil || ans.Choice != ask.No {
		t.Fatalf("answer %+v, err %v", ans, err)
	}
	shown := out.String()
	folded, full, _ := strings.Cut(shown, "[v] view JSON: ")
	if !strings.Contains(folded, "more rows") || strings.Contains(folded, "echo step 20") || !strings.Contains(folded, "echo step 39") {
		t.Errorf("the question did not fold the long command:\n%s", folded)
	}
	if !strings.Contains(folded, "  sh › run: [y] yes once") {
		t.Errorf("the keys do not name the tool:\n%s", folded)
	}
	// The JSON's long line goes on over marked rows: joined, it is the
	// exact JSON of the command.
	joined := strings.ReplaceAll(full, "\n    "+approval.ContinuationMark, "")
	if !strings.Contains(joined, `"command": "echo step 00\necho step 01\n`) || !strings.Contains(joined, `echo step 19\necho step 20\n`) ||
		!strings.HasSuffix(strings.TrimSpace(full), "[v] view JSON: no") {
		t.Errorf("v did not show the command in full and ask again:\n%s", full)
	}
}

func TestAskGivesUpWhenTheTurnEnds(t *testing.T) {
	c, _, _, _ := newTestChat(t)
	r, w, _ := os.Pipe()
	defer r.Close()
	defer w.Close()
	c.opts.In = r
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.ApproveCall(ctx, ask.CallRequest{Name: "a__b"}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
}

func TestElicitFillsAForm(t *testing.T) {
	c, out, _, _ := newTestChat(t)
	r, w, _ := os.Pipe()
	defer r.Close()
	c.opts.In = r
	schema := json.RawMessage(`{"type": "object", "properties": {
		"name":  {"type": "string", "title": "Name"},
		"age":   {"type": "integer", "default": 42},
		"agree": {"type": "boolean"},
		"hero":  {"type": "string", "oneOf": [{"const": "hero-1", "title": "Superman"}, {"const": "hero-2", "title": "Batman"}]},
		"fish":  {"type": "array", "items": {"enum": ["tuna", "trout"]}}},
		"required": ["name"]}`)
	// name: empty first (required: asked again); age: "x" then Enter for
	// the default; agree: yes; fish: a wrong item, then two; hero by label.
	w.WriteString("\nAnn\nx\n\nyes\ncod\ntuna, trout\nbatman\ny")
	res, err := c.Elicit(context.Background(), ask.FormRequest{Message: "Who are you?", Mode: "form", Schema: schema})
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"name": "Ann", "age": 42, "agree": true, "fish": []any{"tuna", "trout"}, "hero": "hero-2"}
	if res.Action != "accept" || fmt.Sprint(res.Content) != fmt.Sprint(want) {
		t.Errorf("result %s %v, want accept %v", res.Action, res.Content, want)
	}
	shown := out.String()
	for _, s := range []string{"a server asks: Who are you?", "this field is required", "type a whole number", `"cod" is not one of the listed values`, "one of Superman, Batman"} {
		if !strings.Contains(shown, s) {
			t.Errorf("the form did not show %q:\n%s", s, shown)
		}
	}
}

func TestElicitDeclineAndCancel(t *testing.T) {
	for input, action := range map[string]string{"n": "decline", "c": "cancel"} {
		c, _, _, _ := newTestChat(t)
		r, w, _ := os.Pipe()
		c.opts.In = r
		w.WriteString(input)
		res, err := c.Elicit(context.Background(), ask.FormRequest{Mode: "url", Message: "Log in", URL: "https://example.com/auth"})
		r.Close()
		w.Close()
		if err != nil || res.Action != action {
			t.Errorf("%q: %+v %v", input, res, err)
		}
	}
}
