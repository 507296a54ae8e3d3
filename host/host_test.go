package host_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/session"
	"github.com/mcphost/mcphost/ollamatest"
	"github.com/mcphost/mcphost/provider"
)

// newHost starts a Host on the scripted model with the built-in fs server
// on a fresh folder, reading no config from the machine; configure changes
// that configuration.
func newHost(t *testing.T, opts host.Options, configure ...func(*config.Settings)) (*host.Host, *ollamatest.Server, string) {
	t.Helper()
	model := ollamatest.NewServer(ollamatest.Model{Name: "tiny"})
	t.Cleanup(model.Close)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("buy milk"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts.Config = noFiles("ollama:tiny", model.URL, fsSpec(dir))
	for _, f := range configure {
		f(opts.Config)
	}
	h, err := host.New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h, model, dir
}

// noFiles is a configuration read from no files and no variables: this
// model at the Ollama at url (either may be empty), these servers.
func noFiles(model, url string, servers ...config.ServerSpec) *config.Settings {
	c := host.DefaultConfig()
	c.Model, c.OllamaHost, c.Servers = model, url, servers
	return c
}

// noServers makes newHost's Host run no servers at all.
func noServers(c *config.Settings) { c.Servers = nil }

// withServers makes newHost's Host run these servers.
func withServers(specs ...config.ServerSpec) func(*config.Settings) {
	return func(c *config.Settings) { c.Servers = specs }
}

// allowing adds approval rules that allow these tools.
func allowing(rules ...string) func(*config.Settings) {
	return func(c *config.Settings) { c.Approval.Allow = append(c.Approval.Allow, rules...) }
}

func fsSpec(dir string) config.ServerSpec {
	return config.ServerSpec{Name: "fs", Transport: config.TransportBuiltin, Builtin: "fs",
		Options: map[string]any{"allowed_directories": []any{dir}}}
}

func TestPromptRunsTheToolLoopAndStreamsEvents(t *testing.T) {
	h, model, dir := newHost(t, host.Options{})
	model.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fs__read_file", map[string]any{"path": filepath.Join(dir, "notes.txt")})}},
		ollamatest.Reply{Chunks: []string{"You must ", "buy milk."}},
	)
	var kinds []string
	res, err := h.PromptFunc(context.Background(), "What is in notes.txt?", func(ev host.Event) {
		kinds = append(kinds, fmt.Sprintf("%T", ev))
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != "You must buy milk." || res.Steps != 2 || len(res.ToolCalls) != 1 || res.ToolCalls[0].Output != "buy milk" {
		t.Errorf("result %+v", res)
	}
	// The model got the file's text as the tool result.
	reqs := model.Requests()
	if last := reqs[1].Messages[len(reqs[1].Messages)-1]; last.Role != "tool" || last.Content != "buy milk" {
		t.Errorf("second request ends with %+v", last)
	}
	// The events are the host's own types, not the runner's.
	want := []string{"host.ModelCallStarted", "host.ModelCallFinished", "host.ToolCallStarted", "host.ToolCallFinished",
		"host.ModelCallStarted", "host.TextDelta", "host.TextDelta", "host.ModelCallFinished", "host.Finished"}
	if strings.Join(kinds, " ") != strings.Join(want, " ") {
		t.Errorf("events\n%v, want\n%v", kinds, want)
	}
}

func TestConversationsRunAtOnceWithTheirOwnHistory(t *testing.T) {
	h, model, dir := newHost(t, host.Options{})
	// Each conversation asks for its own file; the model reads it, then
	// answers with what the tool returned.
	model.Handle(func(req api.ChatRequest) ollamatest.Reply {
		last := req.Messages[len(req.Messages)-1]
		if last.Role == "tool" {
			return ollamatest.Reply{Content: "it says " + last.Content}
		}
		return ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fs__read_file", map[string]any{"path": filepath.Join(dir, last.Content)})}}
	})
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	convs := make([]*host.Conversation, n)
	for i := range n {
		name := fmt.Sprintf("f%d.txt", i)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(fmt.Sprint("secret ", i)), 0o644); err != nil {
			t.Fatal(err)
		}
		convs[i] = h.NewConversation()
		wg.Go(func() {
			for range 2 {
				res, err := convs[i].Prompt(context.Background(), name)
				if err == nil && res.Answer != fmt.Sprint("it says secret ", i) {
					err = fmt.Errorf("conversation %d got %q", i, res.Answer)
				}
				if err != nil {
					errs[i] = err
					return
				}
			}
		})
	}
	// Meanwhile, other methods are safe to call.
	for range 20 {
		h.Servers()
		h.Tools()
		convs[0].Model()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
		// Two turns of user, assistant (call), tool, assistant.
		if msgs := convs[i].History(); len(msgs) != 8 || msgs[4].Content != fmt.Sprintf("f%d.txt", i) {
			t.Errorf("conversation %d history has %d messages: %+v", i, len(msgs), msgs)
		}
	}
}

func TestStreamStoppedEarlyCancelsTheTurn(t *testing.T) {
	h, model, _ := newHost(t, host.Options{}, noServers)
	hold := make(chan struct{})
	defer close(hold)
	model.Handle(func(req api.ChatRequest) ollamatest.Reply {
		if req.Messages[len(req.Messages)-1].Content == "hi" {
			return ollamatest.Reply{Content: "never", Hold: hold}
		}
		return ollamatest.Reply{Content: "next"}
	})
	got := 0
	for ev := range h.Stream(context.Background(), "hi") {
		got++
		if _, ok := ev.(host.ModelCallStarted); !ok {
			t.Errorf("first event %T", ev)
		}
		break
	}
	if got != 1 {
		t.Fatalf("got %d events", got)
	}
	// Stream returned, so the turn ended though its reply never came; the
	// next turn is not blocked by it.
	res, err := h.Prompt(context.Background(), "again")
	if err != nil || res.Answer != "next" {
		t.Errorf("next turn: %q, %v", res.Answer, err)
	}
}

func TestToolsNeedingApprovalAreRefusedWithoutAnAsker(t *testing.T) {
	var warnings []string
	var mu sync.Mutex
	h, model, dir := newHost(t, host.Options{Warn: func(s string) { mu.Lock(); warnings = append(warnings, s); mu.Unlock() }})
	target := filepath.Join(dir, "new.txt")
	write := ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fs__write_file", map[string]any{"path": target, "content": "x"})}}
	model.Enqueue(write, ollamatest.Reply{Content: "done"})
	res, err := h.Prompt(context.Background(), "write")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(target); err == nil || !res.ToolCalls[0].IsError || !strings.Contains(res.ToolCalls[0].Output, "needs the user's approval") {
		t.Errorf("the write ran or was not refused: %+v", res.ToolCalls[0])
	}
	mu.Lock()
	if len(warnings) != 1 || !strings.Contains(warnings[0], "--allow-tool") {
		t.Errorf("warnings %q", warnings)
	}
	mu.Unlock()

	// With an asker that says yes, the same call runs.
	h.SetAsker(yesAsker{})
	model.Enqueue(write, ollamatest.Reply{Content: "done"})
	if _, err := h.Prompt(context.Background(), "write"); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(target); err != nil || string(data) != "x" {
		t.Errorf("approved write: %q, %v", data, err)
	}
}

func TestErrorsCanBeToldApart(t *testing.T) {
	model := ollamatest.NewServer(ollamatest.Model{Name: "tiny"})
	defer model.Close()
	ctx := context.Background()
	badFile := filepath.Join(t.TempDir(), "bad.yml")
	if err := os.WriteFile(badFile, []byte("max-steps: many\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	negative := noFiles("", "")
	negative.MaxSteps = -1
	tests := []struct {
		name string
		cfg  *config.Settings
		want error
	}{
		{"model missing", noFiles("ollama:nope", model.URL), host.ErrModelNotFound},
		{"engine unreachable", noFiles("ollama:tiny", closedURL(t)), host.ErrUnreachable},
		{"provider without a model", noFiles("ollama:", ""), host.ErrConfig},
		{"bad built-in option", noFiles("", "", config.ServerSpec{Name: "fs", Transport: config.TransportBuiltin, Builtin: "fs", Options: map[string]any{"nope": 1}}), host.ErrConfig},
		{"negative option", negative, host.ErrConfig},
		{"no server starts", noFiles("", "", config.ServerSpec{Name: "gone", Command: "/nonexistent/mcp-server"}), host.ErrNoServers},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := host.New(ctx, host.Options{Config: tt.cfg})
			if h != nil {
				h.Close()
			}
			if !errors.Is(err, tt.want) {
				t.Errorf("New: %v, want %v", err, tt.want)
			}
		})
	}
	// A config error names the file.
	_, err := host.LoadConfig(host.LoadOptions{File: badFile, NoFiles: true})
	var ce *config.Error
	if !errors.Is(err, host.ErrConfig) || !errors.As(err, &ce) || ce.File != badFile || ce.Field != "max-steps" {
		t.Errorf("config error %v (%+v)", err, ce)
	}
}

func closedURL(t *testing.T) string {
	srv := ollamatest.NewServer()
	srv.Close()
	return srv.URL
}

func TestMaxStepsKeepsTheFinalAnswer(t *testing.T) {
	h, model, dir := newHost(t, host.Options{}, func(c *config.Settings) { c.MaxSteps = 1 })
	read := ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fs__read_file", map[string]any{"path": filepath.Join(dir, "notes.txt")})}}
	model.Enqueue(read, ollamatest.Reply{Content: "milk"})
	res, err := h.Prompt(context.Background(), "loop")
	if !errors.Is(err, host.ErrMaxSteps) || errors.Is(err, host.ErrLoop) || res.Answer != "milk" {
		t.Errorf("%q, %v", res.Answer, err)
	}
}

func TestNoModelMeansToolsOnly(t *testing.T) {
	dir := t.TempDir()
	h, err := host.New(context.Background(), host.Options{Config: noFiles("", "", fsSpec(dir))})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if _, err := h.Prompt(context.Background(), "hi"); !errors.Is(err, host.ErrNoModel) || !errors.Is(err, host.ErrConfig) {
		t.Errorf("Prompt without a model: %v", err)
	}
	if _, err := h.CallTool(context.Background(), "fs__list_dir", nil); !errors.Is(err, host.ErrUnknownTool) || !strings.Contains(err.Error(), "fs__list_directory") {
		t.Errorf("unknown tool: %v", err)
	}
	res, err := h.CallTool(context.Background(), "fs.list_allowed_directories", nil)
	if err != nil || !strings.Contains(res.Text(), dir) {
		t.Errorf("call: %+v, %v", res, err)
	}
}

// A Host made without a model can still be given one: a conversation's
// SetModel chooses its first model, and its turns go to it; until then
// nothing of the conversation is touched by a turn, a retry or a compact.
func TestAConversationWithoutAModelCanChooseOne(t *testing.T) {
	srv := ollamatest.NewServer(ollamatest.Model{Name: "tiny"})
	defer srv.Close()
	h, err := host.New(context.Background(), host.Options{Config: noFiles("", srv.URL)})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	conv := h.Conversation()
	if conv.HasModel() || conv.Engine() != "" || conv.Model().Name != "" {
		t.Errorf("before a model: HasModel %v, engine %q, model %q", conv.HasModel(), conv.Engine(), conv.Model().Name)
	}
	conv.SetHistory([]provider.Message{{Role: provider.RoleUser, Content: "old"}, {Role: provider.RoleAssistant, Content: "answer"}})
	if _, err := conv.Retry(context.Background(), nil); !errors.Is(err, host.ErrNoModel) || len(conv.History()) != 2 {
		t.Errorf("Retry without a model: %v; history %d messages, want the 2 kept", err, len(conv.History()))
	}
	if _, err := conv.Compact(context.Background(), 1); !errors.Is(err, host.ErrNoModel) {
		t.Errorf("Compact without a model: %v", err)
	}
	info, err := conv.SetModel(context.Background(), "tiny")
	if err != nil || info.Name != "tiny" || !conv.HasModel() || conv.Engine() != "ollama" {
		t.Fatalf("SetModel: %+v, %v (engine %q)", info, err, conv.Engine())
	}
	srv.Enqueue(ollamatest.Reply{Content: "hello"})
	res, err := conv.Prompt(context.Background(), "hi")
	if err != nil || res.Answer != "hello" {
		t.Errorf("Prompt after SetModel: %q, %v", res.Answer, err)
	}
	if got := srv.Requests(); len(got) != 1 || got[0].Model != "tiny" {
		t.Errorf("requests: %+v", got)
	}
}

func TestCancellingTheContextCancelsTheToolCall(t *testing.T) {
	h, model, _ := newHost(t, host.Options{},
		withServers(config.ServerSpec{Name: "sh", Transport: config.TransportBuiltin, Builtin: "bash"}), allowing("sh__*"))
	ctx, cancel := context.WithCancel(context.Background())
	model.Enqueue(ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("sh__run", map[string]any{"command": "sleep 60"})}})
	done := make(chan error, 1)
	go func() {
		_, err := h.PromptFunc(ctx, "sleep", func(ev host.Event) {
			if _, ok := ev.(host.ToolCallStarted); ok {
				cancel()
			}
		})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled turn: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the turn did not end after its context was cancelled")
	}
}

func TestSaveAndLoadUseTheSessionFormat(t *testing.T) {
	h, model, dir := newHost(t, host.Options{}, noServers, func(c *config.Settings) { c.SystemPrompt = "Be brief." })
	model.Enqueue(ollamatest.Reply{Content: "hello"})
	conv := h.NewConversation()
	if _, err := conv.Prompt(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "s.json")
	if err := conv.Save(path); err != nil {
		t.Fatal(err)
	}
	f, err := session.Load(path)
	if err != nil || f.Model != "tiny" || len(f.Messages) != 3 || f.Messages[0].Role != provider.RoleSystem {
		t.Fatalf("saved %+v, %v", f, err)
	}
	other := h.NewConversation()
	if saved, err := other.Load(path); err != nil || len(other.History()) != 3 || saved.Model != "tiny" || len(saved.Messages) != 3 {
		t.Errorf("loaded %d messages (%+v), %v", len(other.History()), saved, err)
	}
	if _, err := other.Load(filepath.Join(dir, "missing.json")); !errors.Is(err, fs.ErrNotExist) || !errors.Is(err, session.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if err := os.WriteFile(path, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Load(path); !errors.Is(err, host.ErrConfig) {
		t.Errorf("bad file: %v", err)
	}
}

func TestCloseIsIdempotentAndEndsServers(t *testing.T) {
	h, _, _ := newHost(t, host.Options{})
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := h.CallTool(context.Background(), "fs__list_allowed_directories", nil); !errors.Is(err, host.ErrClosed) {
		t.Errorf("call after Close: %v", err)
	}
}

// yesAsker says yes to every tool call, and asks nothing else.
type yesAsker struct{ ask.Nobody }

func (yesAsker) ApproveCall(context.Context, ask.CallRequest) (ask.Approval, error) {
	return ask.Approval{Choice: ask.YesOnce}, nil
}

// callAsker answers tool calls with approve, and asks nothing else.
type callAsker struct {
	ask.Nobody
	approve func(ask.CallRequest) ask.Approval
}

func (a callAsker) ApproveCall(_ context.Context, req ask.CallRequest) (ask.Approval, error) {
	return a.approve(req), nil
}

// The errors of the servers, the runner and the engines reach a program
// as the Host's own: errors.Is matches host's errors, with the messages
// the packages underneath wrote, in returned errors and in events alike.
func TestErrorsUnderneathMatchTheHostsOwn(t *testing.T) {
	h, model, dir := newHost(t, host.Options{}, func(c *config.Settings) { c.MaxSteps = 1 })
	ctx := context.Background()
	if _, err := h.CallTool(ctx, "nope__x", nil); !errors.Is(err, host.ErrUnknownTool) || !strings.Contains(err.Error(), `"nope__x"`) {
		t.Errorf("CallTool of an unknown tool: %v", err)
	}
	if _, err := h.GetPrompt(ctx, "nope", nil); !errors.Is(err, host.ErrUnknownPrompt) {
		t.Errorf("GetPrompt of an unknown prompt: %v", err)
	}
	read := ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fs__read_file", map[string]any{"path": filepath.Join(dir, "notes.txt")})}}
	model.Enqueue(read, ollamatest.Reply{Content: "milk"})
	var finished error
	_, err := h.PromptFunc(ctx, "loop", func(ev host.Event) {
		if f, ok := ev.(host.Finished); ok {
			finished = f.Err
		}
	})
	if !errors.Is(err, host.ErrMaxSteps) || !errors.Is(finished, host.ErrMaxSteps) || err.Error() != finished.Error() {
		t.Errorf("turn: %v; Finished: %v", err, finished)
	}
	for _, s := range h.Servers() {
		if s.Name != "fs" || s.State != host.StateReady || s.Transport != config.TransportBuiltin {
			t.Errorf("server %+v", s)
		}
	}
}

// The news of the start carries the host's errors too: a display of it
// tells a missing model (or a server that needs a sign-in) apart.
func TestStartNewsErrorsMatchTheHostsOwn(t *testing.T) {
	model := ollamatest.NewServer(ollamatest.Model{Name: "tiny"})
	defer model.Close()
	var (
		mu   sync.Mutex
		news []host.StartNews
	)
	_, err := host.New(context.Background(), host.Options{Config: noFiles("ollama:nope", model.URL),
		OnStart: func(n host.StartNews) {
			mu.Lock()
			defer mu.Unlock()
			news = append(news, n)
		}})
	if !errors.Is(err, host.ErrModelNotFound) {
		t.Fatalf("New: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	last := news[len(news)-1]
	if last.Model != "nope" || !last.Done || !errors.Is(last.Err, host.ErrModelNotFound) {
		t.Errorf("the last news is %+v", last)
	}
}

// A turn stopped at the step limit is "max_steps" to the Stop hooks, as
// the runner's error is matched against the host's own ErrMaxSteps.
func TestStopHookHearsMaxSteps(t *testing.T) {
	out := filepath.Join(t.TempDir(), "stop.json")
	h, model, dir := newHost(t, host.Options{}, func(c *config.Settings) {
		c.MaxSteps = 1
		c.Hooks = config.Hooks{config.HookStop: {{Commands: []config.HookCommand{{Command: "cat > " + out, Timeout: 10 * time.Second}}}}}
	})
	read := ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fs__read_file", map[string]any{"path": filepath.Join(dir, "notes.txt")})}}
	model.Enqueue(read, ollamatest.Reply{Content: "milk"})
	if _, err := h.Prompt(context.Background(), "loop"); !errors.Is(err, host.ErrMaxSteps) {
		t.Fatalf("Prompt: %v", err)
	}
	got, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(got), `"stop_reason":"max_steps"`) {
		t.Errorf("the Stop hook got %s (%v)", got, err)
	}
}
