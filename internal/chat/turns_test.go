package chat

import (
	"context"
	"encoding/base64"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/budget"
	"github.com/mcphost/mcphost/internal/session"
	"github.com/mcphost/mcphost/ollamatest"
	"github.com/mcphost/mcphost/provider"
)

func TestStatusLineShowsSpeedAndWindow(t *testing.T) {
	var s turnStats
	on := s.watch(func(host.Event) {})
	on(host.ModelCallStarted{ContextWindow: 8192})
	on(host.ModelCallFinished{Usage: provider.Usage{PromptTokens: 900, CompletionTokens: 20, Duration: time.Second}})
	on(host.ModelCallStarted{ContextWindow: 8192})
	on(host.ModelCallFinished{Usage: provider.Usage{PromptTokens: 3000, CompletionTokens: 64, Duration: time.Second}})
	if got, want := s.line(), "42 tok/s · 3.1k/8.2k context (37%)"; got != want {
		t.Errorf("status %q, want %q", got, want)
	}
	if got := (&turnStats{}).line(); got != "" {
		t.Errorf("status without counts %q, want none", got)
	}
}

// TestStatusLineSpeedIsOfWriting: the speed counts from the first token,
// not from the call's start (loading the model, reading the prompt).
func TestStatusLineSpeedIsOfWriting(t *testing.T) {
	clock := time.Unix(0, 0)
	s := turnStats{now: func() time.Time { return clock }}
	on := s.watch(func(host.Event) {})
	on(host.ModelCallStarted{ContextWindow: 4096})
	clock = clock.Add(5 * time.Second) // loading and reading the prompt
	on(host.TextDelta{Text: "a"})
	clock = clock.Add(2 * time.Second)
	on(host.ModelCallFinished{Usage: provider.Usage{PromptTokens: 1000, CompletionTokens: 101, Duration: 7 * time.Second}})
	if got, want := s.line(), "50 tok/s · 1.1k/4.1k context (26%)"; got != want {
		t.Errorf("status %q, want %q", got, want)
	}
}

func TestKilo(t *testing.T) {
	for n, want := range map[int]string{0: "0", 950: "950", 1000: "1k", 3100: "3.1k", 12345: "12k", 131072: "131k"} {
		if got := budget.Short(n); got != want {
			t.Errorf("budget.Short(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestOSC52CarriesTheTextInBase64(t *testing.T) {
	seq := osc52("a\tb\nc")
	body, ok := strings.CutPrefix(seq, "\x1b]52;c;")
	if !ok || !strings.HasSuffix(body, "\a") {
		t.Fatalf("not an OSC 52 sequence: %q", seq)
	}
	if dec, err := base64.StdEncoding.DecodeString(strings.TrimSuffix(body, "\a")); err != nil || string(dec) != "a\tb\nc" {
		t.Errorf("decodes to %q, %v", dec, err)
	}
}

func TestLastAnswerSkipsToolCallsAndResults(t *testing.T) {
	msgs := []provider.Message{
		{Role: provider.RoleUser, Content: "q"},
		{Role: provider.RoleAssistant, Content: "the answer"},
		{Role: provider.RoleUser, Content: "q2"},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{Name: "x"}}},
		{Role: provider.RoleTool, Content: "result"},
	}
	if got := lastAnswer(msgs); got != "the answer" {
		t.Errorf("last answer %q", got)
	}
}

func TestPreviewKeepsTheInterruptedMark(t *testing.T) {
	long := strings.Repeat("word ", 50) + "\nmore\n\n[interrupted]"
	if got := previewAnswer(long, 40); !strings.HasSuffix(got, " [interrupted]") {
		t.Errorf("preview %q lost the mark", got)
	}
}

// TestUndoIsSavedToTheSession: with --session, the file follows /undo, as
// it follows every turn, so quitting after it does not bring the turn back.
func TestUndoIsSavedToTheSession(t *testing.T) {
	c, out, _, model := newTestChat(t)
	path := filepath.Join(t.TempDir(), "s.json")
	lock, err := session.Acquire(context.Background(), path, session.LockOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release()
	c.opts.Session = lock
	model.Enqueue(ollamatest.Reply{Content: "one"}, ollamatest.Reply{Content: "two"})
	for _, p := range []string{"first", "second"} {
		if _, err := c.opts.Conversation.Prompt(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	c.Command(context.Background(), "/undo")
	if !strings.Contains(out.String(), "Dropped the last turn (2 messages): you: second") {
		t.Errorf("/undo said %q", out.String())
	}
	f, err := lock.Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Messages) != 2 || f.Messages[0].Content != "first" {
		t.Errorf("the session file holds %+v after /undo", f.Messages)
	}
}
