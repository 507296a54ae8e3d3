//go:build linux

package main

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

// rows is the whole pane, its history included, row by row.
func (term *terminal) rows() []string {
	return strings.Split(term.tmux("capture-pane", "-p", "-S", "-"), "\n")
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
