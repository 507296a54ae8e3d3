package chat

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/internal/guard/approval"
	"github.com/mcphost/mcphost/internal/termtext"
	"github.com/mcphost/mcphost/internal/ui"
)

// askRows is how many rows of one argument the question shows before it
// folds the rest away (v shows them all): the first 10 and the last 5,
// with a note of what is between.
const askRows = 16

// ApproveCall asks the user about a tool call that needs approval, in the middle of
// a turn: it shows the server, the tool and the arguments, and takes one
// key: y (yes once), a (yes for this tool this session), n or Esc (no), r (no, and
// a typed reason the model is told), or v (the arguments' exact JSON, every
// key and value as the tool gets them).
// Ctrl-C cancels the turn. It is the chat's answer to ask.Asker's approval question.
//
// The arguments are the model's and may be hostile: each is drawn on rows
// of its own behind a mark, with newlines, tabs, control characters and
// characters a terminal does not draw shown rather than obeyed
// (approval.FormatArguments; an edit's diff, approval.FormatEdits, keeps
// the same marks and shows the edits' other keys as rows), so no value
// can draw a question of its own or hide what it holds; and the tool is
// named again next to the keys, in case a long value pushed the header
// off screen. Like every question of the chat, it waits for the one
// before it to be answered, and only a key pressed while it is on screen
// answers it (see question).
func (c *Chat) ApproveCall(ctx context.Context, req ask.CallRequest) (ask.Approval, error) {
	// Until it is answered the call has not started on its server: a
	// question the server asks meanwhile comes from another call.
	answered := c.awaitApproval(req.Server, req.Tool)
	done, err := c.question(ctx)
	if err != nil {
		answered(false)
		return ask.Approval{}, err
	}
	// After a no the turn's spinner comes back for what still runs; a yes
	// brings it back on the call's ToolCallApproved, which restarts the
	// call's clock too (resuming here would show the old one for a frame).
	// The next question is drawn last, once this one is all done.
	approved := false
	defer func() {
		answered(approved)
		if approved {
			c.releaseTurn()
		} else {
			c.resumeTurn()
		}
		done()
	}()
	w := c.opts.Err
	st := c.style()
	label := termtext.Reveal(req.Name)
	if req.Server != "" {
		label = termtext.Reveal(req.Server + " › " + req.Tool)
	}
	head := fmt.Sprintf("? %s wants to run", label)
	if req.Why != "" {
		head += fmt.Sprintf(" (%s)", termtext.Reveal(req.Why))
	}
	fmt.Fprintf(w, "\n%s", st.Question(head))
	shown := c.formatArguments(req.Arguments, askRows)
	fmt.Fprintf(w, ":\n%s\n", indent(shown, "    "))
	keys := "[y] yes once  [a] yes for this tool this session  [n/Esc] no  [r] no, and say why  [v] view JSON"
	question := fmt.Sprintf("  %s: %s: ", st.Question(label), keys)
	fmt.Fprint(w, question)

	for {
		key, err := c.readKey(ctx)
		if err != nil {
			fmt.Fprintln(w)
			return ask.Approval{}, err
		}
		switch key {
		case 'y', 'Y':
			fmt.Fprintln(w, "yes")
			approved = true
			return ask.Approval{Choice: ask.YesOnce}, nil
		case 'a', 'A':
			fmt.Fprintf(w, "yes, %s is allowed for this session\n", termtext.Reveal(req.Name))
			approved = true
			return ask.Approval{Choice: ask.YesSession}, nil
		case 'n', 'N', escKey:
			fmt.Fprintln(w, "no")
			return ask.Approval{Choice: ask.No}, nil
		case 'r', 'R':
			fmt.Fprint(w, "no; why? ")
			reason, err := c.readReason(ctx)
			if err != nil {
				fmt.Fprintln(w)
				return ask.Approval{}, err
			}
			return ask.Approval{Choice: ask.No, Reason: reason}, nil
		case 'v', 'V':
			// Every key and value as the tool gets them, whatever the
			// view above folded or drew as a diff.
			fmt.Fprintf(w, "\n%s\n%s", indent(c.formatJSON(req.Arguments), "    "), question)
		case 3: // Ctrl-C in raw mode
			fmt.Fprintln(w)
			c.mu.Lock()
			cancel := c.cancelTurn
			c.mu.Unlock()
			cancel()
			return ask.Approval{}, context.Canceled
		}
	}
}

// formatArguments lays out a call's arguments for the question, folding
// values longer than maxRows rows (0: none). An edit (edit_file's path and
// oldText/newText pairs) is shown as a diff, which is what a person
// judges an edit by.
func (c *Chat) formatArguments(args map[string]any, maxRows int) string {
	f := approval.ArgumentsFormat{Width: c.opts.Width() - 4, MaxRows: maxRows}
	if !c.opts.NoColor {
		f.Dim = func(s string) string { return "\x1b[2m" + s + "\x1b[22m" }
		f.Removed = func(s string) string { return "\x1b[31m" + s + "\x1b[39m" }
		f.Added = func(s string) string { return "\x1b[32m" + s + "\x1b[39m" }
	}
	if out, ok := approval.FormatEdits(args, f); ok {
		return out
	}
	return approval.FormatArguments(args, f)
}

// formatJSON lays out a call's arguments as their exact JSON, for v.
func (c *Chat) formatJSON(args map[string]any) string {
	f := approval.ArgumentsFormat{Width: c.opts.Width() - 4}
	if !c.opts.NoColor {
		f.Dim = func(s string) string { return "\x1b[2m" + s + "\x1b[22m" }
	}
	return approval.FormatJSON(args, f)
}

// releaseTurn gives the terminal back to the running turn without
// drawing its spinner (see ui.Text.Release).
func (c *Chat) releaseTurn() {
	c.mu.Lock()
	out := c.turnOut
	c.mu.Unlock()
	if out != nil {
		out.Release()
	}
}

// pauseTurn stops the running turn's spinner, if any, so that a question
// asked in the middle of the turn has the terminal.
func (c *Chat) pauseTurn() {
	c.mu.Lock()
	out := c.turnOut
	c.mu.Unlock()
	if out != nil {
		out.Pause()
	}
}

// resumeTurn shows the running turn's spinner again, if any, once a
// question is answered.
func (c *Chat) resumeTurn() {
	c.mu.Lock()
	out := c.turnOut
	c.mu.Unlock()
	if out != nil {
		out.Resume()
	}
}

// escKey is what readKey returns for the Esc key pressed on its own.
const escKey = 0x1b

// readKey reads one key press with the terminal in raw mode (so no Enter
// is needed); on anything but a terminal it reads one byte. Esc on its own
// comes back as escKey; the escape sequence of another key (an arrow, a
// function key, Alt and a key) is read whole and comes back as 0, which
// answers no question. A terminal sends a sequence in one write, so an
// Esc with nothing queued behind it is the Esc key.
func (c *Chat) readKey(ctx context.Context) (byte, error) {
	in := c.opts.In
	if in == nil {
		return 0, io.EOF
	}
	defer c.holdInput()()
	if state, err := term.MakeRaw(int(in.Fd())); err == nil {
		defer term.Restore(int(in.Fd()), state)
	}
	b, err := readBytes(ctx, in, func(b []byte) bool { return keyRead(b, pendingInput(in)) })
	if err != nil {
		return 0, err
	}
	if len(b) > 1 {
		return 0, nil
	}
	return b[0], nil
}

// keyRead reports whether b, read so far, is one whole key: a byte that
// is not Esc, an Esc with nothing queued behind it (pending bytes), or a
// whole escape sequence: ESC [ or ESC O, parameters and a final byte, or
// ESC and one key.
func keyRead(b []byte, pending bool) bool {
	switch {
	case b[0] != escKey:
		return true
	case len(b) == 1:
		return !pending
	case b[1] != '[' && b[1] != 'O':
		return true
	case len(b) == 2:
		return !pending
	default:
		last := b[len(b)-1]
		return last >= 0x40 && last <= 0x7e || !pending
	}
}

// readReason reads a line with the terminal echoing, as typed.
func (c *Chat) readReason(ctx context.Context) (string, error) {
	in := c.opts.In
	if in == nil {
		return "", io.EOF
	}
	defer c.holdInput()()
	restore := withEcho(in)
	defer restore()
	line, err := readBytes(ctx, in, func(b []byte) bool { return b[len(b)-1] == '\n' || b[len(b)-1] == '\r' })
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(ui.Sanitize(string(line))), nil
}

// readBytes reads byte by byte (so nothing meant for the next prompt is
// swallowed) until done says so, giving up when ctx ends.
func readBytes(ctx context.Context, f *os.File, done func([]byte) bool) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	ch := make(chan result, 1)
	go func() {
		var buf []byte
		one := make([]byte, 1)
		for {
			n, err := f.Read(one)
			if n == 1 {
				buf = append(buf, one[0])
				if done(buf) {
					ch <- result{buf, nil}
					return
				}
			}
			if err != nil {
				ch <- result{buf, err}
				return
			}
		}
	}()
	select {
	case r := <-ch:
		return r.b, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+prefix)
}
