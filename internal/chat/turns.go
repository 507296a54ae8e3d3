package chat

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/budget"
	"github.com/mcphost/mcphost/internal/ui"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/runner"
)

// The commands that act on the conversation's turns: /copy, /retry, /undo
// and /compact, and the status line shown after each answer.

// osc52 is the escape sequence that asks the terminal to put text on the
// system clipboard (OSC 52, "c" for the clipboard). It works over SSH,
// where no local clipboard tool could; tmux takes it too with
// set-clipboard on, so it needs no passthrough wrapping.
func osc52(text string) string {
	return "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\a"
}

// lastAnswer is the text of the model's last answer in msgs: the last
// assistant message with text, "" when there is none.
func lastAnswer(msgs []provider.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if m := msgs[i]; m.Role == provider.RoleAssistant && strings.TrimSpace(m.Content) != "" {
			return m.Content
		}
	}
	return ""
}

func (c *Chat) cmdCopy(_ context.Context, w io.Writer, _ []string) bool {
	answer := lastAnswer(c.opts.Conversation.History())
	if answer == "" {
		fmt.Fprintln(w, "There is no answer to copy yet.")
		return false
	}
	// To the terminal itself (Out), not to w: the sequence is for it.
	io.WriteString(c.opts.Out, osc52(answer))
	fmt.Fprintf(w, "Copied the last answer (%d lines, %d characters) to the clipboard; a terminal without OSC 52 support ignores it.\n",
		strings.Count(strings.TrimRight(answer, "\n"), "\n")+1, len([]rune(answer)))
	return false
}

func (c *Chat) cmdUndo(_ context.Context, w io.Writer, _ []string) bool {
	dropped := c.opts.Conversation.Undo()
	if len(dropped) == 0 {
		fmt.Fprintln(w, "There is no turn to undo.")
		return false
	}
	c.lastCalls = nil
	c.saveSession(w)
	fmt.Fprintf(w, "Dropped the last turn (%d messages): you: %s\n", len(dropped), ui.Preview(dropped[0].Content, 60))
	return false
}

func (c *Chat) cmdRetry(ctx context.Context, w io.Writer, _ []string) bool {
	conv := c.opts.Conversation
	h := conv.History()
	i := len(h) - 1
	for i >= 0 && h[i].Role != provider.RoleUser {
		i--
	}
	if i < 0 {
		fmt.Fprintln(w, "There is no prompt to retry yet.")
		return false
	}
	if !conv.HasModel() {
		c.noModel(w, "there is no one to ask again")
		return false
	}
	fmt.Fprintf(w, "Retrying: %s\n", ui.Preview(h[i].Content, 80))
	c.turnWith(ctx, conv.Retry)
	return false
}

func (c *Chat) cmdCompact(ctx context.Context, w io.Writer, args []string) bool {
	keep := 1
	if len(args) > 0 {
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 1 {
			fmt.Fprintf(w, "usage: /compact [TURNS]: how many of the last turns to keep as they are (a number from 1), not %q\n", args[0])
			return false
		}
		keep = n
	}
	if !c.opts.Conversation.HasModel() {
		c.noModel(w, "there is no one to summarise the conversation")
		return false
	}
	// Ctrl-C (SIGINT) cancels the wait on the model only.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	fmt.Fprintf(w, "Asking %s to summarise the conversation… (Ctrl-C cancels)\n", c.opts.Conversation.Model().Name)
	out, err := c.opts.Conversation.Compact(ctx, keep)
	switch {
	case errors.Is(err, host.ErrNothingToCompact):
		fmt.Fprintf(w, "Nothing to compact: the conversation has no turns older than the last %d.\n", keep)
	case ctx.Err() != nil:
		fmt.Fprintln(w, "(compacting cancelled: the conversation is unchanged)")
	case err != nil:
		fmt.Fprintf(w, "%s; the conversation is unchanged\n", ui.Sanitize(err.Error()))
	default:
		c.saveSession(w)
		fmt.Fprintf(w, "Compacted %d messages into a summary: about %s → %s tokens; the last %d turn(s) stay as they were.\n",
			out.Replaced, budget.Short(out.Before), budget.Short(out.After), keep)
		if out.LeftOut > 0 {
			fmt.Fprintf(w, "The oldest %d messages did not fit the context window with the request and are not in the summary.\n", out.LeftOut)
		}
		if out.After >= out.Before {
			// Said, so that a user does not believe the window was freed.
			fmt.Fprintln(w, "The older turns were short: the summary frees no room yet (/undo cannot bring them back; /history shows the summary).")
		}
	}
	return false
}

// turnStats gathers from a turn's events what the status line shows.
type turnStats struct {
	// window is the context window asked for; used is the prompt and
	// answer tokens of the last model call, what the conversation now
	// fills of it.
	window, used int
	// cut is set when the engine counted a prompt of the whole window:
	// it cut the prompt, and the window is full whatever the counts say.
	cut bool
	// tokens were generated in elapsed.
	tokens  int
	elapsed time.Duration
	// first is when the running call's first token arrived; zero before.
	first time.Time
	now   func() time.Time
}

// watch returns on, which also records the turn's numbers in s.
func (s *turnStats) watch(on func(host.Event)) func(host.Event) {
	if s.now == nil {
		s.now = time.Now
	}
	return func(ev host.Event) {
		switch ev := ev.(type) {
		case host.ModelCallStarted:
			s.window, s.first = ev.ContextWindow, time.Time{}
		case host.TextDelta, host.ThinkingDelta:
			if s.first.IsZero() {
				s.first = s.now()
			}
		case host.ModelCallFinished:
			s.used = ev.Usage.PromptTokens + ev.Usage.CompletionTokens
			s.cut = ev.PromptCut
			// The speed people mean is of writing: from the first token
			// on, without the model's loading and the prompt's reading
			// that the engine's duration includes. A call that streamed
			// nothing (a tool call in one piece) falls back on that.
			if gen := s.now().Sub(s.first); !s.first.IsZero() && gen >= 50*time.Millisecond && ev.Usage.CompletionTokens > 1 {
				s.tokens += ev.Usage.CompletionTokens - 1
				s.elapsed += gen
			} else {
				s.tokens += ev.Usage.CompletionTokens
				s.elapsed += ev.Usage.Duration
			}
		}
		on(ev)
	}
}

// line is the status line, "42 tok/s · 3.1k/8k context (39%)"; "" when
// the engine reported no counts.
func (s *turnStats) line() string {
	var parts []string
	if s.tokens > 0 && s.elapsed > 0 {
		parts = append(parts, fmt.Sprintf("%.0f tok/s", float64(s.tokens)/s.elapsed.Seconds()))
	}
	switch {
	case s.cut && s.window > 0:
		parts = append(parts, fmt.Sprintf("%s/%s context (100%%, the prompt was cut)", budget.Short(max(s.used, s.window)), budget.Short(s.window)))
	case s.used > 0 && s.window > 0:
		parts = append(parts, fmt.Sprintf("%s/%s context (%d%%)", budget.Short(s.used), budget.Short(s.window), s.used*100/s.window))
	case s.used > 0:
		parts = append(parts, budget.Short(s.used)+" context")
	}
	return strings.Join(parts, " · ")
}

// printStatus writes the status line after an answer, dim.
func (c *Chat) printStatus(s *turnStats) {
	line := s.line()
	if line == "" {
		return
	}
	if !c.opts.NoColor {
		line = "\x1b[2m" + line + "\x1b[22m"
	}
	fmt.Fprintln(c.opts.Err, line)
}

// printDim writes a line on stderr, dim.
func (c *Chat) printDim(line string) {
	if !c.opts.NoColor {
		line = "\x1b[2m" + line + "\x1b[22m"
	}
	fmt.Fprintln(c.opts.Err, line)
}

// previewAnswer is ui.Preview of an answer, keeping the mark of an
// interrupted one in sight however long its text.
func previewAnswer(s string, limit int) string {
	if body, ok := strings.CutSuffix(s, runner.InterruptedMark); ok {
		return ui.Preview(body, limit) + " " + runner.InterruptedMark
	}
	return ui.Preview(s, limit)
}

// saveSession writes the conversation to the --session file, if any:
// after every turn, and after a command that changed it, which must
// survive the chat too.
func (c *Chat) saveSession(w io.Writer) {
	s := c.opts.Session
	if s == nil {
		return
	}
	if err := s.Save(c.opts.Conversation.Model().Name, c.opts.Conversation.History()); err != nil {
		fmt.Fprintln(w, ui.ErrorLine(c.style(), err.Error()))
	}
}
