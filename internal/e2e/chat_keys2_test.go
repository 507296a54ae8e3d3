//go:build linux

package e2e

// The chat's keys and views, third round (issue 31): Esc at a question,
// the approval's short arguments first, /help at any width, the last
// turn's thinking shown again, /tools per turn, Ctrl-L.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/ollamatest"
)

// TestChatEscDeclinesAnApproval: Esc answers the approval question no, as
// n does, and the question says so; an arrow key pressed by mistake (an
// escape sequence too) answers nothing: it must not be read as Esc and
// two letters, the last of which ("A" of Up) would allow the tool.
func TestChatEscDeclinesAnApproval(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fs__write_file", map[string]any{"path": "esc.txt", "content": "hello"})}},
		ollamatest.Reply{Content: "Not written."},
	)
	dir := t.TempDir()
	term := startTerminal(t, dir, chatEnv(t, ollama.URL), "-m", "tiny")
	term.waitFor("servers ready")
	term.typeLine("write the file")
	s := term.waitFor("[r] no, and say why")
	if !strings.Contains(s, "[n/Esc] no") {
		t.Errorf("the question does not say that Esc declines:\n%s", s)
	}
	term.keys("Up", "Down", "Escape")
	s = term.waitFor("Not written.")
	if answer, _ := answerOf(s, "fs › write_file: [y] yes once"); answer != "no" {
		t.Errorf("the question was answered %q, want no", answer)
	}
	if _, err := os.Stat(filepath.Join(dir, "esc.txt")); err == nil {
		t.Error("the write declined with Esc happened")
	}
}

// TestChatApprovalShowsTheShortArgumentsFirst: a write's path is read
// before its long content (not below a screenful of it), and v still
// shows the exact JSON.
func TestChatApprovalShowsTheShortArgumentsFirst(t *testing.T) {
	t.Parallel()
	var lines []string
	for i := range 40 {
		lines = append(lines, fmt.Sprintf("content row %02d", i))
	}
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fs__write_file", map[string]any{"path": "notes/today.txt", "content": strings.Join(lines, "\n")})}},
		ollamatest.Reply{Content: "Not written."},
	)
	term := startTerminal(t, t.TempDir(), chatEnv(t, ollama.URL), "-m", "tiny")
	term.waitFor("servers ready")
	term.typeLine("write the notes")
	s := term.waitFor("[v] view JSON")
	head := strings.Index(s, "? fs › write_file wants to run")
	path, content := strings.Index(s, "▸ path: notes/today.txt"), strings.Index(s, "▸ content (40 lines")
	if head < 0 || path < 0 || content < 0 {
		t.Fatalf("the question lacks its header, the path or the content:\n%s", s)
	}
	if !(head < path && path < content) {
		t.Errorf("the path is not shown before the long content:\n%s", s[head:])
	}
	term.keys("v")
	s = term.waitForCount("[v] view JSON", 2)
	if !strings.Contains(s, `"path": "notes/today.txt"`) {
		t.Errorf("v does not show the exact JSON:\n%s", s)
	}
	term.keys("n")
	term.waitFor("Not written.")
}

// TestChatHelpWrapsBetweenWords: at 80 and at 60 columns every row of
// /help is one mcphost wrote (the terminal wraps none: a row it wraps
// starts at the left edge with a word's rest), and no word is cut in
// two: the words of the rows are the words of the text joined back.
func TestChatHelpWrapsBetweenWords(t *testing.T) {
	t.Parallel()
	for _, cols := range []int{80, 60} {
		t.Run(fmt.Sprint(cols), func(t *testing.T) {
			model := ollamatest.NewServer()
			defer model.Close()
			term := startTerminalWidth(t, cols, t.TempDir(), chatEnv(t, model.URL), "-m", "tiny")
			term.waitFor("/help for commands")
			term.typeLine("/help")
			term.waitFor("Ctrl-D on an empty line")
			rows := term.tmux("capture-pane", "-p", "-S", "-")
			joined := term.tmux("capture-pane", "-p", "-J", "-S", "-")
			help := func(s string) string {
				start := strings.LastIndex(s, "  /help")
				end := strings.LastIndex(s, "quits")
				if start < 0 || end < start {
					t.Fatalf("no /help on screen:\n%s", s)
				}
				return s[start : end+len("quits")]
			}
			words := map[string]bool{}
			for _, w := range strings.Fields(help(joined)) {
				words[w] = true
			}
			for _, row := range strings.Split(help(rows), "\n") {
				if strings.HasPrefix(row, "· ") {
					continue // news, such as a server now ready
				}
				if row != "" && !strings.HasPrefix(row, " ") && !strings.HasPrefix(row, "Keys: ") {
					t.Errorf("a row the terminal wrapped: %q", row)
				}
				for _, w := range strings.Fields(row) {
					if !words[w] {
						t.Errorf("%q is cut in two in the row %q", w, row)
					}
				}
			}
			if t.Failed() {
				t.Logf("/help at %d columns:\n%s", cols, help(rows))
			}
		})
	}
}

// TestChatThinkingCanBeSeenAgain: the thinking collapses to one line once
// the answer comes, which says how to see it; /thinking shows the last
// turn's thinking in full, every row of it, and after a turn that did not
// think, says so.
func TestChatThinkingCanBeSeenAgain(t *testing.T) {
	t.Parallel()
	var thought []string
	for i := range 30 {
		thought = append(thought, fmt.Sprintf("step %02d of my reasoning about the question.", i))
	}
	ollama := ollamatest.NewServer(thinker())
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Thinking: strings.Join(thought, "\n"), Content: "The answer is 42."}, ollamatest.Reply{Content: "Plainly 43."})
	term := startTerminal(t, t.TempDir(), chatEnv(t, ollama.URL), "-m", "qwen3")
	term.waitFor("/help for commands")
	term.typeLine("what is the answer?")
	s := term.waitFor("The answer is 42.")
	if !strings.Contains(s, "/thinking shows it") {
		t.Errorf("the collapsed thinking does not say how to see it again:\n%s", s)
	}
	term.typeLine("/thinking")
	s = term.waitFor("step 29 of my reasoning")
	shown := s[strings.LastIndex(s, "/thinking"):]
	for _, line := range thought {
		if !strings.Contains(shown, line) {
			t.Errorf("/thinking lacks %q:\n%s", line, shown)
		}
	}
	term.typeLine("and now?")
	term.waitFor("Plainly 43.")
	term.typeLine("/thinking")
	term.waitFor("The last turn had no thinking")
}

// TestChatToolsSaysWhichToolsTheLastTurnOffered: when tool selection
// offered the model only some tools, /tools says how many of all, marks
// the ones the last turn offered (those the model got), and says how to
// offer them all.
func TestChatToolsSaysWhichToolsTheLastTurnOffered(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	ollama.Enqueue(ollamatest.Reply{Content: "Noted."})
	term := startTerminal(t, t.TempDir(), chatEnv(t, ollama.URL), "-m", "tiny", "--tool-share", "0.05")
	term.waitFor("servers ready")
	term.typeLine("list the folder with list_directory")
	term.waitFor("Noted.")
	var sent []string
	for _, name := range requestTools(ollama.Requests()[0]) {
		if name != "mcphost__search_tools" {
			sent = append(sent, name)
		}
	}
	term.typeLine("/tools")
	s := term.waitForListing("> /tools", regexp.MustCompile(`● fs \((\d+) tools`), "  ")
	if want := fmt.Sprintf("offered the model %d of ", len(sent)); !strings.Contains(strings.Join(strings.Fields(s), " "), want) {
		t.Errorf("/tools does not say %q:\n%s", want, s)
	}
	var marked []string
	for line := range strings.Lines(s) {
		if name, ok := strings.CutPrefix(line, "  ✓ "); ok {
			marked = append(marked, "fs__"+strings.Fields(name)[0])
		}
	}
	slices.Sort(marked)
	slices.Sort(sent)
	if !slices.Equal(marked, sent) || len(sent) == 0 {
		t.Errorf("/tools marks %q as offered; the model got %q:\n%s", marked, sent, s)
	}
}

// TestChatCtrlLLeavesNoCopiesOfTheBox: after Ctrl-L, the input box that
// grows a row at a time is drawn in place: no copy of it is left in the
// scrollback (tmux keeps a cleared screen there, as terminals do).
func TestChatCtrlLLeavesNoCopiesOfTheBox(t *testing.T) {
	t.Parallel()
	model := ollamatest.NewServer()
	defer model.Close()
	term := startTerminal(t, t.TempDir(), chatEnv(t, model.URL), "-m", "tiny")
	// The built-in fs's "ready" notice, drawn on the first row after the
	// clear, would itself put the box there: see the note of issue 31.
	term.waitForMatch(regexp.MustCompile(`server fs is ready|1/1 servers ready`))
	term.typeLine("/help")
	term.waitFor("Ctrl-D on an empty line")
	term.keys("C-l")
	term.tmux("send-keys", "-l", "first row")
	for _, row := range []string{"second row", "third row", "fourth row"} {
		term.keys("M-Enter")
		term.tmux("send-keys", "-l", row)
	}
	term.waitFor("fourth row")
	s := term.scrollback()
	if n := strings.Count(s, "first row"); n != 1 {
		t.Errorf("the box is in the scrollback %d times, want once:\n%s", n, s)
	}
}

// TestChatCtrlLThenANoticeLeavesNoCopiesOfTheBox: a server's "ready"
// notice that comes right after Ctrl-L goes above the box, and the box,
// growing row by row, still leaves no copies of itself in the scrollback.
func TestChatCtrlLThenANoticeLeavesNoCopiesOfTheBox(t *testing.T) {
	t.Parallel()
	e := newFaultEnv(t)
	open := e.gatedServer("slow")
	model := ollamatest.NewServer()
	defer model.Close()
	term := startTerminal(t, e.dir, chatEnv(t, model.URL), "-m", "tiny")
	term.waitFor("(1 starting)")
	term.typeLine("/help")
	term.waitFor("Ctrl-D on an empty line")
	term.keys("C-l")
	open()
	term.tmux("send-keys", "-l", "first row")
	for _, row := range []string{"second row", "third row", "fourth row"} {
		term.keys("M-Enter")
		term.tmux("send-keys", "-l", row)
	}
	term.waitFor("fourth row")
	term.waitFor("slow is ready")
	s := term.scrollback()
	if n := strings.Count(s, "first row"); n != 1 {
		t.Errorf("the box is in the scrollback %d times, want once:\n%s", n, s)
	}
}
