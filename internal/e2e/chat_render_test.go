//go:build linux

package e2e

// The answer as a user sees it in a terminal (tmux): once in the
// scrollback however tall, redrawn at the new width after a resize, code
// that copies out as the model wrote it, tables that fit.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"

	"github.com/mcphost/mcphost/ollamatest"
)

// scrollback is the whole pane, its history included, with wrapped lines
// joined back, as a user copying it gets it.
func (term *terminal) scrollback() string {
	return term.tmux("capture-pane", "-p", "-J", "-S", "-")
}

// answerTurn runs one prompt in mode ("chat" or "-p") against reply and
// returns the terminal once the answer, which ends with last, is complete.
// act, when not nil, runs once the reply may start.
func answerTurn(t *testing.T, mode string, reply ollamatest.Reply, last string, act func(*terminal)) *terminal {
	t.Helper()
	ollama := ollamatest.NewServer()
	t.Cleanup(ollama.Close)
	// The answer waits until the pane is set to stay after a -p run ends.
	start := make(chan struct{})
	reply.Hold = start
	ollama.Enqueue(reply)
	env := chatEnv(t, ollama.URL)
	var term *terminal
	if mode == "chat" {
		term = startTerminal(t, t.TempDir(), env, "-m", "ollama:tiny")
		term.waitFor("/help for commands")
		term.typeLine("tell me")
		term.waitFor("> tell me")
	} else {
		term = startTerminal(t, t.TempDir(), env, "-m", "ollama:tiny", "-p", "tell me")
	}
	term.tmux("set-option", "-w", "remain-on-exit", "on")
	close(start)
	if act != nil {
		act(term)
	}
	if mode == "chat" {
		term.waitFor(last)
		term.waitFor("Ask anything") // the prompt is back: the turn is over
	} else if code := term.waitExit(); code != 0 {
		t.Fatalf("mcphost -p exited with %d:\n%s", code, term.scrollback())
	}
	return term
}

// lineByLine streams text one line per chunk, as a model writes it.
func lineByLine(text string) []string { return strings.SplitAfter(text, "\n") }

func TestATallAnswerIsInTheScrollbackOnce(t *testing.T) {
	t.Parallel()
	var md strings.Builder
	md.WriteString("Here are the steps:\n\n")
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&md, "%d. answer line %d of 100\n", i, i)
	}
	md.WriteString("\nThat is all.\n")
	for _, mode := range []string{"chat", "-p"} {
		t.Run(mode, func(t *testing.T) {
			term := answerTurn(t, mode, ollamatest.Reply{Chunks: lineByLine(md.String())}, "That is all.", nil)
			s := term.scrollback()
			for i := 1; i <= 100; i++ {
				line := fmt.Sprintf("%d. answer line %d of 100", i, i)
				if n := strings.Count(s, line); n != 1 {
					t.Fatalf("%q is in the scrollback %d times:\n%s", line, n, s)
				}
			}
			if n := strings.Count(s, "That is all."); n != 1 {
				t.Fatalf("the last line is in the scrollback %d times:\n%s", n, s)
			}
		})
	}
}

func TestAResizeMidAnswerRedrawsTheLivePartAtTheNewWidth(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"chat", "-p"} {
		t.Run(mode, func(t *testing.T) {
			gate := make(chan struct{})
			reply := ollamatest.Reply{
				Chunks: []string{
					"The first paragraph is done before the resize.\n\n",
					"The second paragraph is being written while the window narrows: ",
					"it goes on past seventy columns so that the terminal reflows it, ",
					"and it ends after the resize, to be rendered at the new width.\n\n",
					"The end.\n",
				},
				HoldBefore: map[int]<-chan struct{}{3: gate},
			}
			term := answerTurn(t, mode, reply, "The end.", func(term *terminal) {
				term.waitFor("the terminal reflows it,")
				term.tmux("resize-window", "-x", "70", "-y", "40")
				if w := strings.TrimSpace(term.tmux("display-message", "-p", "#{pane_width}")); w != "70" {
					t.Fatalf("the pane is %s columns wide after resize-window", w)
				}
				close(gate)
			})
			s := term.scrollback()
			for _, part := range []string{"The first paragraph is done", "The second paragraph is being", "the terminal reflows it,", "at the new width.", "The end."} {
				if n := strings.Count(s, part); n != 1 {
					t.Errorf("%q is in the scrollback %d times:\n%s", part, n, s)
				}
			}
			// Lines joined back as they were written: the second
			// paragraph was laid out for 70 columns.
			from, to := strings.Index(s, "The second paragraph"), strings.Index(s, "The end.")
			if from < 0 || to < from {
				t.Fatalf("the answer is not in the scrollback:\n%s", s)
			}
			for _, line := range strings.Split(s[from:to], "\n") {
				if w := runewidth.StringWidth(line); w > 70 {
					t.Errorf("a line is %d columns wide after the resize to 70: %q\n%s", w, line, s)
				}
			}
		})
	}
}

// pieces cuts text into chunks of n bytes, as a model streams it.
func pieces(text string, n int) []string {
	var out []string
	for len(text) > n {
		out = append(out, text[:n])
		text = text[n:]
	}
	return append(out, text)
}

// gofmtBlock is gofmt'd Go: tab indentation, a comment longer than the
// terminal is wide.
const gofmtBlock = `package main

import "fmt"

// main prints the even numbers below ten; this comment is longer than the terminal is wide, so the terminal wraps it and not the renderer.
func main() {
	for i := 0; i < 10; i++ {
		if i%2 == 0 {
			fmt.Println("even:", i)
		}
	}
}`

// expandTabs is what a terminal shows for a line starting at column 0:
// tabs to the next multiple of 8.
func expandTabs(s string) string {
	var b strings.Builder
	col := 0
	for _, r := range s {
		switch r {
		case '\t':
			n := 8 - col%8
			b.WriteString(strings.Repeat(" ", n))
			col += n
		case '\n':
			b.WriteRune(r)
			col = 0
		default:
			b.WriteRune(r)
			col += runewidth.RuneWidth(r)
		}
	}
	return b.String()
}

func TestCodeBlocksCopyOutAsWrittenAndTablesFit(t *testing.T) {
	t.Parallel()
	md := "Here is the program:\n\n```go\n" + gofmtBlock + "\n```\n\nAnd the settings:\n\n" +
		"| Setting | What it does | Default |\n|---|---|---|\n" +
		"| toolTimeout | How long one tool call may run before mcphost cancels it and tells the model that the call failed with a timeout | 30s |\n" +
		"| excludedTools | The tools of a server that the model never sees, by their names as the server lists them, for every run and the chat | none |\n" +
		"\nDone.\n"
	for _, mode := range []string{"chat", "-p"} {
		t.Run(mode, func(t *testing.T) {
			term := answerTurn(t, mode, ollamatest.Reply{Chunks: pieces(md, 16)}, "Done.", nil)
			s := term.scrollback()
			if want := "\n" + expandTabs(gofmtBlock) + "\n"; !strings.Contains(s, want) {
				t.Errorf("the Go block does not copy out byte for byte; want\n%s\nin\n%s", want, s)
			}
			for _, line := range strings.Split(s, "\n") {
				if strings.TrimRight(line, " ") != line {
					t.Errorf("a line ends in spaces: %q", line)
				}
			}
			from, to := strings.Index(s, "Setting"), strings.Index(s, "Done.")
			if from < 0 || to < from || strings.Count(s, "Setting") != 1 {
				t.Fatalf("the table's header is not shown once:\n%s", s)
			}
			table := strings.Split(strings.TrimSpace(s[from:to]), "\n")
			if !strings.Contains(table[0], "What it does") || !strings.Contains(table[0], "Default") || !strings.Contains(table[1], "┼") {
				t.Errorf("the header row is not first, over a rule:\n%s", s[from:to])
			}
			for _, line := range table {
				if w := runewidth.StringWidth(line); w > 120 {
					t.Errorf("a table line is %d columns wide in a 120-column terminal: %q", w, line)
				}
			}
			for _, word := range []string{"timeout", "excludedTools", "the chat", "30s", "none"} {
				if !strings.Contains(s[from:to], word) {
					t.Errorf("%q is missing from the table:\n%s", word, s[from:to])
				}
			}
		})
	}
}
