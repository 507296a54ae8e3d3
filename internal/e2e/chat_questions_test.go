//go:build linux

package e2e

// The chat's questions as the person answering them sees them: one at a
// time, each naming its server and tool, answered only by a key pressed
// while it is on screen; and the arguments shown whole, hidden characters
// included.

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/ollamatest"
)

// questionsChat starts a chat on a fault server whose echo needs
// approval; gate is a named pipe that the server's sample and form tools
// wait at before they ask (the test opens it once the approval is shown).
func questionsChat(t *testing.T, replies ...ollamatest.Reply) (term *terminal, env *faultEnv, ollama *ollamatest.Server, gate string) {
	env = newFaultEnv(t)
	env.config(env.server("fault", ""))
	writeConfig(t, env.dir, ".mcphost.yml", "approval:\n  ask: [\"fault__echo\"]\n")
	gate = env.path("gate")
	if err := syscall.Mkfifo(gate, 0o600); err != nil {
		t.Fatal(err)
	}
	ollama = ollamatest.NewServer()
	t.Cleanup(ollama.Close)
	ollama.Enqueue(replies...)
	term = startTerminal(t, env.dir, chatEnv(t, ollama.URL), "-m", "tiny", "--allow-tool", "fault__sample", "--allow-tool", "fault__form")
	term.waitFor("servers ready")
	return term, env, ollama, gate
}

// openGate lets the fault server's waiting tool ask its question, and
// waits until the server says it asked (event is its trace line).
func openGate(t *testing.T, env *faultEnv, gate, event string) {
	t.Helper()
	// Opening a named pipe for writing waits for its reader: the tool.
	g, err := os.OpenFile(gate, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	g.Close()
	if !poll(20*time.Millisecond, func() bool { return strings.Contains(env.trace("fault"), event) }) {
		t.Fatalf("the fault server never said %q; its trace:\n%s", event, env.trace("fault"))
	}
}

// answerOf is what the screen shows after the question line that starts
// with keys: the answer given to it ("" while it waits); found is false
// when no such line is on screen.
func answerOf(screen, keys string) (answer string, found bool) {
	for line := range strings.Lines(screen) {
		if _, after, ok := strings.Cut(line, keys); ok {
			if i := strings.LastIndex(after, ": "); i >= 0 {
				answer = after[i+2:]
			}
			return strings.TrimSpace(answer), true
		}
	}
	return "", false
}

// TestChatAsksAnApprovalAndASamplingRequestOneAtATime: a server's sampling
// request that comes while a tool call's approval waits is not drawn over
// it: the y typed answers the approval on screen, and only then is the
// sampling question drawn, naming its server and the call it comes
// during. The second y, typed before that question was drawn, does not
// answer it.
func TestChatAsksAnApprovalAndASamplingRequestOneAtATime(t *testing.T) {
	t.Parallel()
	term, env, ollama, gate := questionsChat(t)
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{
			ollamatest.Call("fault__echo", map[string]any{"message": "approved echo"}),
			ollamatest.Call("fault__sample", map[string]any{"gate": gate}),
		}},
		ollamatest.Reply{Content: "Echoed, not sampled."},
	)
	term.typeLine("echo and sample")
	term.waitFor("fault › echo: [y] yes once")
	openGate(t, env, gate, "sampling requested")
	// Two y's at once: the first answers the approval shown; the second
	// was typed before the sampling question was drawn.
	term.keys("y", "y")
	s := term.waitFor("[y] let the model answer  [n/Esc] refuse: ")
	if answer, _ := answerOf(s, "fault › echo: [y] yes once"); answer != "yes" {
		t.Errorf("the approval's answer is %q, want yes: a key went to a question not on screen:\n%s", answer, s)
	}
	approvalAt := strings.Index(s, "fault › echo: [y] yes once")
	samplingAt := strings.Index(s, "? server fault (during ")
	if samplingAt < approvalAt {
		t.Errorf("the sampling question is drawn before the approval was answered, or does not name its call:\n%s", s)
	}
	if !strings.Contains(s, "fault › sample) asks the model for a completion, at most 20 tokens:") {
		t.Errorf("the sampling question does not name the call it comes during:\n%s", s)
	}
	term.keys("n")
	s = term.waitFor("Echoed, not sampled.")
	if answer, _ := answerOf(s, "[y] let the model answer  [n/Esc] refuse"); answer != "refused" {
		t.Errorf("the sampling question's answer is %q, want refused: a key typed before it was drawn answered it:\n%s", answer, s)
	}
	if n := ollama.RequestCount(); n != 2 {
		t.Errorf("the model got %d requests, want 2: the refused sampling request reached it", n)
	}
	got := strings.Join(toolMessages(ollama.Requests()[1]), "\n")
	if !strings.Contains(got, "approved echo") || strings.Contains(got, "the model said") {
		t.Errorf("the tools' results: %q", got)
	}
	term.keys("C-u", "C-d")
	term.waitExit()
}

// TestChatAsksAnApprovalAndAFormOneAtATime: a server's form that comes
// while an approval waits is drawn once the approval is answered, and the
// keys typed before it was drawn are not in its answers.
func TestChatAsksAnApprovalAndAFormOneAtATime(t *testing.T) {
	t.Parallel()
	term, env, ollama, gate := questionsChat(t)
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{
			ollamatest.Call("fault__echo", map[string]any{"message": "approved echo"}),
			ollamatest.Call("fault__form", map[string]any{"gate": gate}),
		}},
		ollamatest.Reply{Content: "Echoed and asked."},
	)
	term.typeLine("echo and ask me")
	term.waitFor("fault › echo: [y] yes once")
	openGate(t, env, gate, "form requested")
	term.keys("y", "y")
	s := term.waitFor("Your name?")
	if answer, _ := answerOf(s, "fault › echo: [y] yes once"); answer != "yes" {
		t.Errorf("the approval's answer is %q, want yes:\n%s", answer, s)
	}
	if approvalAt, formAt := strings.Index(s, "fault › echo: [y] yes once"), strings.Index(s, "? server fault (during "); formAt < approvalAt {
		t.Errorf("the form is drawn before the approval was answered, or does not name its call:\n%s", s)
	}
	term.waitFor("  name: ")
	term.typeLine("Ann")
	term.waitFor("[y] send")
	term.keys("y")
	term.waitFor("Echoed and asked.")
	got := strings.Join(toolMessages(ollama.Requests()[1]), "\n")
	if !strings.Contains(got, "approved echo") || !strings.Contains(got, "the user said accept: Ann") {
		t.Errorf("the tools' results (the name must be Ann, not a key typed before the form): %q", got)
	}
	term.keys("C-u", "C-d")
	term.waitExit()
}

// TestChatApprovalShowsHiddenCharacters: the approval question and the
// tool line show characters a terminal does not draw (zero-width,
// joiners, bidi controls, tag characters, line separators) as escapes, so
// the echo approved is the echo seen.
func TestChatApprovalShowsHiddenCharacters(t *testing.T) {
	t.Parallel()
	term, _, ollama, _ := questionsChat(t)
	hidden := "echo hi\u200b\u200d\u200c\u2060\ufeff\u202e\u2066\u2028\U000E0041\U000E007F"
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fault__echo", map[string]any{"message": hidden})}},
		ollamatest.Reply{Content: "Echoed."},
	)
	term.typeLine("echo")
	s := term.waitFor("fault › echo: [y] yes once")
	if want := "▸ message: echo hi<U+200B><U+200D><U+200C><U+2060><U+FEFF><U+202E><U+2066><U+2028><U+E0041><U+E007F>"; !strings.Contains(s, want) {
		t.Errorf("the question lacks %q:\n%s", want, s)
	}
	term.keys("y")
	s = term.waitFor("Echoed.")
	// The line is cut at 60 characters of arguments and at the width;
	// the output's preview shows the echoed characters the same way.
	for _, want := range []string{`✓ fault › echo {"message":"echo hi\u200b\u200d\u200c\u2060\ufeff\u202e`,
		`· Echo: echo hi\u200b\u200d\u200c`} {
		if !strings.Contains(s, want) {
			t.Errorf("the tool line lacks %q:\n%s", want, s)
		}
	}
	term.keys("C-d")
	term.waitExit()
}

// TestOneShotToolLineShowsHiddenCharacters: -p's tool lines show hidden
// characters as escapes; its JSON output keeps the exact text.
func TestOneShotToolLineShowsHiddenCharacters(t *testing.T) {
	t.Parallel()
	env := newFaultEnv(t)
	env.config(env.server("fault", ""))
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	hidden := "hi\u200b\U000E0041"
	call := ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fault__echo", map[string]any{"message": hidden})}}
	ollama.Enqueue(call, ollamatest.Reply{Content: "Echoed."}, call, ollamatest.Reply{Content: "Echoed."})
	out := env.run(ollama.URL)
	if want := `fault › echo {"message":"hi\u200b\udb40\udc41"}`; out.code != 0 || !strings.Contains(out.stderr, want) {
		t.Errorf("exit %d; the tool line lacks %q:\n%s", out.code, want, out.stderr)
	}
	out = env.run(ollama.URL, "--output", "json")
	if out.code != 0 || !strings.Contains(out.stdout, "hi\u200b\U000E0041") {
		t.Errorf("exit %d; the JSON output does not keep the exact arguments:\n%s", out.code, out.stdout)
	}
}

// TestChatApprovalShowsEveryKeyOfAnEdit: an edit's keys besides oldText
// and newText (a per-edit path) are rows of the question next to the
// diff, and v shows the arguments' exact JSON.
func TestChatApprovalShowsEveryKeyOfAnEdit(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	file := filepath.Join(data, "notes.txt")
	if err := os.WriteFile(file, []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	term, _ := filesystemChat(t, data,
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("files__edit_file", map[string]any{
			"path":  file,
			"edits": []any{map[string]any{"oldText": "one", "newText": "two", "path": "/home/me/.bashrc"}},
		})}},
		ollamatest.Reply{Content: "Not edited."},
	)
	term.typeLine("edit my notes")
	s := term.waitFor("[r] no, and say why")
	for _, want := range []string{"▸ edit, as a diff", "┆ -one", "┆ +two", "▸ edits[0].path: /home/me/.bashrc"} {
		if !strings.Contains(s, want) {
			t.Errorf("the question lacks %q:\n%s", want, s)
		}
	}
	term.keys("v")
	// The question is drawn again below the JSON: all of it is on screen.
	s = term.waitForCount("[r] no, and say why", 2)
	for _, want := range []string{`"oldText": "one"`, `"newText": "two"`, `"path": "` + file + `"`} {
		if !strings.Contains(s, want) {
			t.Errorf("v's JSON lacks %q:\n%s", want, s)
		}
	}
	term.keys("n")
	term.waitFor("Not edited.")
	if got, _ := os.ReadFile(file); string(got) != "one\n" {
		t.Errorf("the refused edit happened: %q", got)
	}
	term.keys("C-d")
	term.waitExit()
}

// TestChatDeclinesAFormWhileAPromptIsTyped: a form that comes between
// turns, while the line editor has the keys, is declined with a notice
// rather than drawn beside the prompt being typed, which would share its
// keys.
func TestChatDeclinesAFormWhileAPromptIsTyped(t *testing.T) {
	t.Parallel()
	term, env, ollama, gate := questionsChat(t)
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fault__form", map[string]any{"gate": gate, "later": true})}},
		ollamatest.Reply{Content: "It will ask later."},
	)
	term.typeLine("ask me later")
	term.waitFor("It will ask later.")
	term.waitFor("> ")
	term.tmux("send-keys", "-l", "half a prompt")
	term.waitFor("> half a prompt")
	openGate(t, env, gate, "form requested")
	term.waitFor("· server fault asked for input (Your name?) while you were typing a prompt; declined")
	if !poll(20*time.Millisecond, func() bool { return strings.Contains(env.trace("fault"), "the user said decline") }) {
		t.Errorf("the server's form was not declined; its trace:\n%s", env.trace("fault"))
	}
	if s := term.screen(); !strings.Contains(s, "> half a prompt") {
		t.Errorf("the prompt being typed was lost:\n%s", s)
	}
	term.keys("C-u", "C-d")
	term.waitExit()
}
