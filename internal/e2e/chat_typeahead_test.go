//go:build linux

package e2e

// Keys typed at any moment reach the next prompt: while the chat starts,
// while an answer is drawn, right after it, and while a command runs.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcphost/mcphost/ollamatest"
)

// burst types text and Enter in one write, as a paste or a fast typist
// (or tmux's send-keys) does.
func (term *terminal) burst(text string) {
	term.tmux("send-keys", "-l", text+"\r")
}

// TestChatSendsALineTypedAtAnyMoment: a line typed with its Enter in one
// burst is sent, whether it comes before the prompt is open, while an
// answer is drawn or right after it.
func TestChatSendsALineTypedAtAnyMoment(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	hold := make(chan struct{})
	ollama.Enqueue(ollamatest.Reply{Content: "First answer."}, ollamatest.Reply{Content: "Second answer.", Hold: hold},
		ollamatest.Reply{Content: "Third answer."}, ollamatest.Reply{Content: "Fourth answer."})
	term := startTerminal(t, t.TempDir(), chatEnv(t, ollama.URL), "-m", "tiny")

	// Before the chat has even started.
	term.burst("typed at start")
	waitFor(t, func() bool { return ollama.RequestCount() == 1 })
	if got := lastUser(t, ollama); got != "typed at start" {
		t.Errorf("the first prompt sent was %q, want the line typed at start", got)
	}
	term.waitFor("First answer.")

	// While the answer is drawn, then at once after it.
	term.burst("typed before")
	waitFor(t, func() bool { return ollama.RequestCount() == 2 })
	term.burst("typed during")
	close(hold)
	term.waitFor("Second answer.")
	term.burst("typed after")
	term.waitFor("Fourth answer.")
	reqs := ollama.Requests()
	var got []string
	for _, r := range reqs {
		got = append(got, lastMessage(r).Content)
	}
	if want := []string{"typed at start", "typed before", "typed during", "typed after"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("the model got %q, want %q", got, want)
	}
	// Ctrl-D right after an answer ends the chat.
	term.keys("C-d")
	if code := term.waitExit(); code != 0 {
		t.Errorf("exit %d", code)
	}
}

// TestChatQuitsOnCtrlDTypedBeforeThePrompt: Ctrl-D typed while the chat
// starts ends it once the prompt is up, as a shell leaves on a Ctrl-D
// typed ahead.
func TestChatQuitsOnCtrlDTypedBeforeThePrompt(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	term := startTerminal(t, t.TempDir(), chatEnv(t, ollama.URL), "-m", "tiny")
	term.keys("C-d")
	if code := term.waitExit(); code != 0 {
		t.Errorf("exit %d", code)
	}
}

// TestChatKeepsKeysTypedWhileACommandRuns: keys typed while /mcp
// restart waits for the server are not drawn into its notices; they start
// the next prompt.
func TestChatKeepsKeysTypedWhileACommandRuns(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	open := e.gatedServer("slow")
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "The answer."})
	term := startTerminal(t, e.dir, chatEnv(t, ollama.URL), "-m", "tiny")
	open()
	term.waitFor("/help for commands")
	term.typeLine("/mcp restart slow")
	term.waitFor("restarting slow…")
	// The restarted server waits at its gate: the command is still on.
	term.tmux("send-keys", "-l", "typed meanwhile")
	open()
	var s, notices string
	waitFor(t, func() bool {
		s = term.screen()
		_, after, _ := strings.Cut(s, "restarting slow…")
		notices, _, ok := strings.Cut(after, "slow is ready: ")
		return ok && notices != ""
	})
	_, after, _ := strings.Cut(s, "restarting slow…")
	notices, _, _ = strings.Cut(after, "slow is ready: ")
	if strings.Contains(notices, "typed meanwhile") {
		t.Errorf("the keys typed during the command were drawn into its notices:\n%s", s)
	}
	term.waitFor("> typed meanwhile")
	term.keys("Enter")
	term.waitFor("The answer.")
	if got := lastUser(t, ollama); got != "typed meanwhile" {
		t.Errorf("the model got %q, want the text typed during the command", got)
	}
}

// TestOneShotDoesNotEchoKeysIntoTheAnswer: keys typed while a one-shot
// run draws its answer on a terminal are not drawn into it, and the
// terminal echoes again once the run is over.
func TestOneShotDoesNotEchoKeysIntoTheAnswer(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	hold := make(chan struct{})
	ollama.Enqueue(ollamatest.Reply{Content: "The answer.", Hold: hold})
	term := startTerminalHeld(t, t.TempDir(), chatEnv(t, ollama.URL), "-m", "tiny", "-p", "hello")
	waitFor(t, func() bool { return ollama.RequestCount() == 1 })
	// With its Enter, so that an echo moves the cursor down a row and the
	// spinner, redrawn, cannot wipe it.
	term.burst("typed during")
	close(hold)
	if code := term.waitExit(); code != 0 {
		t.Fatalf("exit %d:\n%s", code, term.screen())
	}
	// What mcphost wrote before it exited is on screen before it is read.
	// Once the run is over the terminal echoes again: the kernel may echo
	// keys it had not yet taken from tmux then, below the answer.
	if s := term.waitFor("The answer."); strings.Contains(s[:strings.Index(s, "The answer.")], "typed during") {
		t.Errorf("the keys typed during the run were drawn:\n%s", s)
	}
	// The terminal echoes again: the shell's next command shows what is
	// typed.
	term.tmux("send-keys", "-l", "typed after")
	term.waitFor("typed after")
}

// TestOneShotGivesTheEchoBackWhenInterrupted: Ctrl-C during a one-shot
// run leaves the terminal echoing.
func TestOneShotGivesTheEchoBackWhenInterrupted(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	hold := make(chan struct{})
	defer close(hold)
	ollama.Enqueue(ollamatest.Reply{Content: "never", Hold: hold})
	term := startTerminalHeld(t, t.TempDir(), chatEnv(t, ollama.URL), "-m", "tiny", "-p", "hello")
	waitFor(t, func() bool { return ollama.RequestCount() == 1 })
	term.keys("C-c")
	if code := term.waitExit(); code != 130 {
		t.Errorf("exit %d, want 130", code)
	}
	term.tmux("send-keys", "-l", "typed after")
	term.waitFor("typed after")
}

// TestChatKeepsALineTypedWhileItAsksTheTerminal: with colours, the chat
// asks the terminal for its background as it starts, and reads the
// answer from the keys: a line typed before is still sent.
func TestChatKeepsALineTypedWhileItAsksTheTerminal(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "First answer."})
	var env []string
	for _, v := range chatEnv(t, ollama.URL) {
		if !strings.HasPrefix(v, "NO_COLOR=") {
			env = append(env, v)
		}
	}
	term := startTerminal(t, t.TempDir(), env, "-m", "tiny")
	term.burst("typed at start")
	term.waitFor("First answer.")
	if got := lastUser(t, ollama); got != "typed at start" {
		t.Errorf("the model got %q, want the line typed at start", got)
	}
}

// TestChatKeepsAPasteMadeDuringAnAnswerAsOnePrompt: a paste of several
// lines made while an answer streams is not sent line by line (its
// newlines are not Enters, as typed lines are): it waits in the next
// prompt as one text, and goes to the model whole.
func TestChatKeepsAPasteMadeDuringAnAnswerAsOnePrompt(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	hold := make(chan struct{})
	ollama.Enqueue(ollamatest.Reply{Content: "First answer.", Hold: hold}, ollamatest.Reply{Content: "Read the paste."})
	term := startTerminal(t, t.TempDir(), chatEnv(t, ollama.URL), "-m", "tiny")
	term.waitFor("Ask anything")
	term.typeLine("hello")
	waitFor(t, func() bool { return ollama.RequestCount() == 1 })

	file := filepath.Join(t.TempDir(), "paste")
	if err := os.WriteFile(file, []byte("pasted one\npasted two\npasted three\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	term.tmux("load-buffer", file)
	term.tmux("paste-buffer", "-p") // bracketed, as a terminal pastes
	close(hold)
	term.waitFor("First answer.")
	term.waitFor("> pasted one")
	if n := ollama.RequestCount(); n != 1 {
		t.Fatalf("the paste was sent before Enter (%d requests):\n%s", n, term.screen())
	}
	term.keys("Enter")
	term.waitFor("Read the paste.")
	// Under load the paste may reach the prompt only after the answer,
	// as a paste made there, which keeps its final newline in the box;
	// one typed ahead drops it. Either way the text is whole.
	if got, want := strings.TrimSuffix(lastUser(t, ollama), "\n"), "pasted one\npasted two\npasted three"; got != want {
		t.Errorf("the model got %q, want the paste whole", got)
	}
}

// TestChatSendsLinesTypedDuringAnAnswerOneByOne: two lines typed with
// their Enters while an answer streams are two prompts, sent in order
// once the answer is done, as a shell runs commands typed ahead.
func TestChatSendsLinesTypedDuringAnAnswerOneByOne(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	hold := make(chan struct{})
	ollama.Enqueue(ollamatest.Reply{Content: "First answer.", Hold: hold},
		ollamatest.Reply{Content: "Second answer."}, ollamatest.Reply{Content: "Third answer."})
	term := startTerminal(t, t.TempDir(), chatEnv(t, ollama.URL), "-m", "tiny")
	term.waitFor("Ask anything")
	term.typeLine("hello")
	waitFor(t, func() bool { return ollama.RequestCount() == 1 })
	term.burst("first typed\rsecond typed")
	close(hold)
	term.waitFor("Third answer.")
	var got []string
	for _, r := range ollama.Requests() {
		got = append(got, lastMessage(r).Content)
	}
	if want := []string{"hello", "first typed", "second typed"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("the model got %q, want %q", got, want)
	}
}

// TestChatShowsTextTypedWhileAnAnswerStreams: keys typed while an answer
// streams are not echoed into it, but shown on a line of their own below
// it, as the next prompt will hold them; the line goes once the answer
// is whole, and the text waits in the prompt.
func TestChatShowsTextTypedWhileAnAnswerStreams(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	hold := make(chan struct{})
	ollama.Enqueue(ollamatest.Reply{Chunks: []string{"The answer begins ", "and ends."}, HoldBefore: map[int]<-chan struct{}{1: hold}},
		ollamatest.Reply{Content: "Second answer."})
	term := startTerminal(t, t.TempDir(), chatEnv(t, ollama.URL), "-m", "tiny")
	term.waitFor("Ask anything")
	term.typeLine("hello")
	term.waitFor("The answer begins")
	term.tmux("send-keys", "-l", "next question")
	s := term.waitFor("> next question")
	if !strings.Contains(s, "The answer begins \n> next question") {
		t.Errorf("the typed text is not on its own line below the answer:\n%s", s)
	}
	close(hold)
	term.waitFor("and ends.")
	// The prompt, with the text, is drawn again below the status line.
	s = term.waitFor("context (")
	poll(50*time.Millisecond, func() bool {
		s = term.screen()
		_, after, _ := strings.Cut(s, "context (")
		return strings.Contains(after, "> next question")
	})
	if n := strings.Count(s, "next question"); n != 1 {
		t.Errorf("the typed text shows %d times, want once (in the prompt):\n%s", n, s)
	}
	if !strings.Contains(s, "The answer begins and ends.") {
		t.Errorf("the answer is not whole:\n%s", s)
	}
	term.keys("Enter")
	term.waitFor("Second answer.")
	if got := lastUser(t, ollama); got != "next question" {
		t.Errorf("the model got %q", got)
	}
}
