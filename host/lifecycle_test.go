package host_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/ollamatest"
)

// within fails the test when done is not closed (or sent on) in time: the
// bound of a wait that must end, not a pause.
func within[T any](t *testing.T, what string, done <-chan T) T {
	t.Helper()
	select {
	case v := <-done:
		return v
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not happen within 30s", what)
	}
	var zero T
	return zero
}

func TestEveryMethodAfterCloseIsErrClosed(t *testing.T) {
	h, model, dir := newHost(t, host.Options{})
	conv := h.NewConversation()
	h.Close()
	ctx := context.Background()
	check := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, host.ErrClosed) {
			t.Errorf("%s after Close: %v, want ErrClosed", what, err)
		}
	}
	_, err := h.Prompt(ctx, "hi")
	check("Prompt", err)
	var finished error
	_, err = h.PromptFunc(ctx, "hi", func(ev host.Event) {
		if f, ok := ev.(host.Finished); ok {
			finished = f.Err
		}
	})
	check("PromptFunc", err)
	check("PromptFunc's Finished event", finished)
	finished = nil
	for ev := range h.Stream(ctx, "hi") {
		if f, ok := ev.(host.Finished); ok {
			finished = f.Err
		}
	}
	check("Stream's Finished event", finished)
	_, err = conv.Prompt(ctx, "hi")
	check("Conversation.Prompt", err)
	_, err = conv.Compact(ctx, 1)
	check("Conversation.Compact", err)
	_, err = conv.SetModel(ctx, "ollama:tiny")
	check("Conversation.SetModel", err)
	_, err = conv.RunPrompt(ctx, "p", nil, "", nil)
	check("Conversation.RunPrompt", err)
	_, err = h.ShowModel(ctx, "ollama:tiny")
	check("ShowModel", err)
	_, err = h.CallTool(ctx, "fs__list_allowed_directories", nil)
	check("CallTool", err)
	_, err = h.GetPrompt(ctx, "p", nil)
	check("GetPrompt", err)
	_, _, err = h.ReadResource(ctx, "file:///x")
	check("ReadResource", err)
	check("RestartServer", h.RestartServer(ctx, "fs"))
	check("EnableServer", h.EnableServer(ctx, "fs"))
	check("DisableServer", h.DisableServer("fs"))
	check("SetRoots", h.SetRoots(ctx, "fs", []string{dir}))
	_, err = h.Login(ctx, "fs", func(context.Context, string, string) error { return nil })
	check("Login", err)
	_, _, err = h.Models(ctx)
	check("Models", err)
	check("Pull", h.Pull(ctx, "ollama:tiny", nil))
	if n := model.RequestCount(); n != 0 {
		t.Errorf("the model was called %d times after Close", n)
	}
	if pulls := model.PullRequests(); len(pulls) != 0 {
		t.Errorf("models pulled after Close: %q", pulls)
	}
}

func TestCloseStopsATurnInAToolCall(t *testing.T) {
	h, model, _ := newHost(t, host.Options{},
		withServers(config.ServerSpec{Name: "sh", Transport: config.TransportBuiltin, Builtin: "bash"}), allowing("sh__*"))
	model.Handle(func(api.ChatRequest) ollamatest.Reply {
		return ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("sh__run", map[string]any{"command": "sleep 60"})}}
	})
	inCall := make(chan struct{})
	var once sync.Once
	done := make(chan error, 1)
	go func() {
		_, err := h.PromptFunc(context.Background(), "sleep", func(ev host.Event) {
			if _, ok := ev.(host.ToolCallStarted); ok {
				once.Do(func() { close(inCall) })
			}
		})
		done <- err
	}()
	within(t, "the tool call", inCall)
	closed := make(chan struct{})
	go func() { h.Close(); close(closed) }()
	if err := within(t, "the turn's end", done); !errors.Is(err, host.ErrClosed) {
		t.Errorf("turn stopped by Close: %v, want ErrClosed", err)
	}
	within(t, "Close", closed)
	// The tool's failure was not sent back to the model.
	if n := model.RequestCount(); n != 1 {
		t.Errorf("the model was called %d times, want once (before Close)", n)
	}
}

func TestCloseStopsATurnInAModelCall(t *testing.T) {
	h, model, _ := newHost(t, host.Options{}, noServers)
	hold := make(chan struct{})
	defer close(hold)
	model.Enqueue(ollamatest.Reply{Content: "never", Hold: hold})
	inCall := make(chan struct{})
	var once sync.Once
	done := make(chan error, 1)
	var finished error
	go func() {
		_, err := h.PromptFunc(context.Background(), "hi", func(ev host.Event) {
			switch ev := ev.(type) {
			case host.ModelCallStarted:
				once.Do(func() { close(inCall) })
			case host.Finished:
				finished = ev.Err
			}
		})
		done <- err
	}()
	within(t, "the model call", inCall)
	closed := make(chan struct{})
	go func() { h.Close(); close(closed) }()
	if err := within(t, "the turn's end", done); !errors.Is(err, host.ErrClosed) || !errors.Is(finished, host.ErrClosed) {
		t.Errorf("turn stopped by Close: %v (Finished: %v), want ErrClosed", err, finished)
	}
	within(t, "Close", closed)
}

func TestCallerCancelledFirstIsCanceledNotClosed(t *testing.T) {
	h, model, _ := newHost(t, host.Options{}, noServers)
	hold := make(chan struct{})
	defer close(hold)
	model.Enqueue(ollamatest.Reply{Content: "never", Hold: hold})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := h.PromptFunc(ctx, "hi", func(ev host.Event) {
			if _, ok := ev.(host.ModelCallStarted); ok {
				cancel()
			}
		})
		done <- err
	}()
	err := within(t, "the turn's end", done)
	h.Close()
	if !errors.Is(err, context.Canceled) || errors.Is(err, host.ErrClosed) {
		t.Errorf("turn cancelled by its caller: %v, want context.Canceled", err)
	}
}

func TestPromptsRacingCloseCallNoModelAfterIt(t *testing.T) {
	h, model, _ := newHost(t, host.Options{}, noServers)
	const n = 50
	// Close comes once the model has been asked a few times: some
	// prompts are answered, some are in flight, some not begun.
	var asked sync.Once
	someAsked := make(chan struct{})
	var count int
	var mu sync.Mutex
	model.Handle(func(api.ChatRequest) ollamatest.Reply {
		mu.Lock()
		defer mu.Unlock()
		if count++; count == 10 {
			asked.Do(func() { close(someAsked) })
		}
		return ollamatest.Reply{Content: "ok"}
	})
	errs := make([]error, n)
	answers := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		conv := h.NewConversation()
		wg.Go(func() {
			res, err := conv.Prompt(context.Background(), fmt.Sprint("prompt ", i))
			answers[i], errs[i] = res.Answer, err
		})
	}
	within(t, "the first model calls", someAsked)
	h.Close()
	after := model.RequestCount()
	wg.Wait()
	closed := 0
	for i, err := range errs {
		switch {
		case errors.Is(err, host.ErrClosed):
			closed++
		case err != nil || answers[i] != "ok":
			t.Errorf("prompt %d: %q, %v; want the answer or ErrClosed", i, answers[i], err)
		}
	}
	if got := model.RequestCount(); got != after {
		t.Errorf("the model was called %d times after Close returned", got-after)
	}
	if _, err := h.Prompt(context.Background(), "late"); !errors.Is(err, host.ErrClosed) {
		t.Errorf("prompt after Close: %v", err)
	}
	t.Logf("%d of %d prompts answered, %d stopped by Close", n-closed, n, closed)
}

func TestHistoryFromTheConversationsOwnCallback(t *testing.T) {
	h, model, _ := newHost(t, host.Options{}, noServers)
	model.Enqueue(ollamatest.Reply{Content: "hello"}, ollamatest.Reply{Content: "again"})
	conv := h.NewConversation()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	done := make(chan int, 1)
	go func() {
		longest := 0
		_, _ = conv.PromptFunc(ctx, "hi", func(ev host.Event) {
			longest = max(longest, len(conv.History()))
		})
		done <- longest
	}()
	select {
	case n := <-done:
		if n < 2 {
			t.Errorf("History from the callback had %d messages, want the prompt and more", n)
		}
	case <-ctx.Done():
		t.Fatal("History called from the conversation's own callback did not return")
	}
	// In a Stream's loop too.
	streamed := make(chan int, 1)
	go func() {
		n := 0
		for range conv.Stream(ctx, "more") {
			n = max(n, len(conv.History()))
		}
		streamed <- n
	}()
	select {
	case n := <-streamed:
		if n < 4 {
			t.Errorf("History in the Stream loop had %d messages", n)
		}
	case <-ctx.Done():
		t.Fatal("History called in the conversation's Stream loop did not return")
	}
}

func TestCloseClosesTheEnginesIdleConnections(t *testing.T) {
	model := ollamatest.NewServer(ollamatest.Model{Name: "tiny"})
	defer model.Close()
	target, err := url.Parse(model.URL)
	if err != nil {
		t.Fatal(err)
	}
	// A proxy in front of the model that hears its connections close.
	closedConn := make(chan struct{}, 16)
	front := httptest.NewUnstartedServer(httputil.NewSingleHostReverseProxy(target))
	front.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateClosed {
			closedConn <- struct{}{}
		}
	}
	front.Start()
	defer front.Close()
	h, err := host.New(context.Background(), host.Options{Config: noFiles("ollama:tiny", front.URL)})
	if err != nil {
		t.Fatal(err)
	}
	model.Enqueue(ollamatest.Reply{Content: "hi"})
	if _, err := h.Prompt(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-closedConn:
		t.Fatal("a connection closed before Close")
	default:
	}
	h.Close()
	within(t, "the engine's idle connection closing on Close", closedConn)
}

func TestAHostGivenNoServersStartsNone(t *testing.T) {
	model := ollamatest.NewServer(ollamatest.Model{Name: "tiny"})
	defer model.Close()
	// A home without config files, and a working directory without any.
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Chdir(t.TempDir())
	// The user's configuration (Config nil) names the model in variables.
	t.Setenv("MCPHOST_MODEL", "ollama:tiny")
	t.Setenv("OLLAMA_HOST", model.URL)
	loaded, err := host.LoadConfig(host.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	empty := noFiles("ollama:tiny", model.URL)
	empty.Servers = []config.ServerSpec{}
	for name, opts := range map[string]host.Options{
		"no config":     {},
		"LoadConfig":    {Config: loaded},
		"DefaultConfig": {Config: noFiles("ollama:tiny", model.URL)},
		"Servers empty": {Config: empty},
	} {
		t.Run(name, func(t *testing.T) {
			h, err := host.New(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			if got := h.Servers(); len(got) != 0 {
				t.Errorf("a Host given no servers runs %d: %+v", len(got), got[0].Name)
			}
			if got := h.Tools(); len(got) != 0 {
				t.Errorf("a Host given no servers offers %d tools", len(got))
			}
		})
	}
}
