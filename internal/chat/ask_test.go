package chat

import (
	"context"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/ui"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/tool"
)

// TestAskShowsAnEditAsAColouredDiff: removed lines red, added lines
// green, and the tool named next to the keys.
func TestAskShowsAnEditAsAColouredDiff(t *testing.T) {
	c, out, _, _ := newTestChat(t)
	c.opts.NoColor = false
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	c.opts.In = r
	w.WriteString("y")
	ans, err := c.ApproveCall(context.Background(), ask.CallRequest{Name: "fs__edit_file", Server: "fs", Tool: "edit_file",
		Arguments: map[string]any{"path": "a.txt", "edits": []any{map[string]any{"oldText": "old line", "newText": "new\tline"}}}})
	if err != nil || ans.Choice != ask.YesOnce {
		t.Fatalf("answer %+v, err %v", ans, err)
	}
	shown := out.String()
	for _, want := range []string{"\x1b[31m-old line\x1b[39m", "\x1b[32m+new\x1b[2m⇥\x1b[22mline\x1b[39m"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the question lacks %q:\n%q", want, shown)
		}
	}
	// The tool's name stands next to the keys (styled as a question).
	if want := "  fs › edit_file: [y] yes once"; !strings.Contains(ansi.Strip(shown), want) {
		t.Errorf("the question lacks %q:\n%q", want, shown)
	}
}

// screenBuffer is a terminal's output written from several goroutines,
// which a test can wait on.
type screenBuffer struct {
	mu      sync.Mutex
	changed *sync.Cond
	b       strings.Builder
}

func newScreenBuffer() *screenBuffer {
	s := &screenBuffer{}
	s.changed = sync.NewCond(&s.mu)
	return s
}

func (s *screenBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.changed.Broadcast()
	return s.b.Write(p)
}

// waitFor blocks until the output holds want, and returns it.
func (s *screenBuffer) waitFor(want string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for !strings.Contains(s.b.String(), want) {
		s.changed.Wait()
	}
	return s.b.String()
}

// TestQuestionsAreAskedOneAtATime: a server's sampling request that comes
// while an approval is on screen waits, not drawn, until the approval is
// answered; the key typed answers only the question shown; the sampling
// question names the call it comes during (not the one refused).
func TestQuestionsAreAskedOneAtATime(t *testing.T) {
	c, _, _, _ := newTestChat(t)
	screen := newScreenBuffer()
	c.opts.Err = screen
	c.turnOut = ui.NewText(ui.TextOptions{Out: io.Discard, Err: io.Discard})
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	c.opts.In = r
	on := c.trackCalls(func(host.Event) {})
	on(host.ToolCallStarted{Call: provider.ToolCall{ID: "1", Name: "fault__echo"}, Server: "fault", Tool: "echo"})
	on(host.ToolCallStarted{Call: provider.ToolCall{ID: "2", Name: "fault__sample"}, Server: "fault", Tool: "sample"})

	approval := make(chan ask.Approval, 1)
	go func() {
		ans, _ := c.ApproveCall(context.Background(), ask.CallRequest{Name: "fault__echo", Server: "fault", Tool: "echo", Arguments: map[string]any{"message": "hi"}})
		approval <- ans
	}()
	screen.waitFor("[v] view JSON: ")
	sampling := make(chan bool, 1)
	go func() {
		ok, _ := c.ApproveSampling(context.Background(), ask.SamplingRequest{Server: "fault", MaxTokens: 5,
			Messages: []ask.SamplingMessage{{Role: "user", Content: []tool.Content{{Kind: tool.Text, Text: "Name a colour."}}}}})
		sampling <- ok
	}()
	// The sampling question waits its turn.
	for queued := false; !queued; {
		c.questions.mu.Lock()
		queued = len(c.questions.waiting) == 1
		c.questions.mu.Unlock()
		runtime.Gosched()
	}
	if s := screen.waitFor("[v] view JSON: "); strings.Contains(s, "completion") {
		t.Fatalf("the sampling question is drawn while the approval waits:\n%s", s)
	}
	w.WriteString("n")
	if ans := <-approval; ans.Choice != ask.No {
		t.Errorf("the approval got %+v, want no", ans)
	}
	s := screen.waitFor("[n/Esc] refuse: ")
	answered := strings.Index(s, "[v] view JSON: no\n")
	asked := strings.Index(s, "? server fault (during fault › sample) asks the model for a completion, at most 5 tokens:")
	if answered < 0 || asked < answered {
		t.Errorf("the sampling question is not drawn after the approval's answer, naming its call:\n%s", s)
	}
	w.WriteString("y")
	if ok := <-sampling; !ok {
		t.Error("the sampling request was refused on y")
	}
}

// TestAskShowsHiddenCharactersInNames: a tool's own name and the reason
// it is asked about are judged too: what a terminal does not draw in them
// is shown by its code.
func TestAskShowsHiddenCharactersInNames(t *testing.T) {
	c, out, _, _ := newTestChat(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	c.opts.In = r
	w.WriteString("n")
	if _, err := c.ApproveCall(context.Background(), ask.CallRequest{Name: "fs__read_file", Server: "fs", Tool: "read\u200bfile",
		Why: "rule\u202e", Arguments: map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	if want := "? fs › read<U+200B>file wants to run (rule<U+202E>)"; !strings.Contains(out.String(), want) {
		t.Errorf("the question lacks %q:\n%s", want, out.String())
	}
}

// TestKeyReadTellsEscFromASequence: an Esc with nothing behind it is the
// Esc key; an arrow's sequence is read whole, never as Esc and letters.
func TestKeyReadTellsEscFromASequence(t *testing.T) {
	for _, tc := range []struct {
		read    string
		pending bool
		whole   bool
	}{
		{"y", true, true},
		{"\x1b", false, true},
		{"\x1b", true, false},
		{"\x1b[", true, false},
		{"\x1b[1;5", true, false},
		{"\x1b[A", true, true},
		{"\x1bOA", true, true},
		{"\x1bx", true, true},
		{"\x1b[1", false, true}, // cut short: not waited for
	} {
		if got := keyRead([]byte(tc.read), tc.pending); got != tc.whole {
			t.Errorf("keyRead(%q, pending %v) = %v, want %v", tc.read, tc.pending, got, tc.whole)
		}
	}
}
