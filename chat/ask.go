package chat

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/mcphost/mcphost/approval"
	"github.com/mcphost/mcphost/termtext"
	"github.com/mcphost/mcphost/ui"
)

// Ask asks the user about a tool call that needs approval, in the middle of
// a turn: it shows the server, the tool and the full arguments, and takes
// one key: y (yes once), a (yes for this tool this session), n (no) or r (no,
// and a typed reason the model is told). Ctrl-C cancels the turn. Chat
// implements approval.Asker with it.
func (c *Chat) Ask(ctx context.Context, req approval.Request) (approval.Answer, error) {
	c.pauseTurn()
	w := c.opts.Err
	fmt.Fprintf(w, "\n? %s wants to run", termtext.Line(req.Server+" › "+req.Tool))
	if req.Why != "" {
		fmt.Fprintf(w, " (%s)", ui.Sanitize(req.Why))
	}
	fmt.Fprintf(w, ":\n%s\n", indent(approval.FormatArguments(req.Arguments, c.opts.Width()-4), "    "))
	fmt.Fprint(w, "  [y] yes once  [a] yes for this tool this session  [n] no  [r] no, and say why: ")

	for {
		key, err := c.readKey(ctx)
		if err != nil {
			fmt.Fprintln(w)
			return approval.Answer{}, err
		}
		switch key {
		case 'y', 'Y':
			fmt.Fprintln(w, "yes")
			return approval.Answer{Choice: approval.YesOnce}, nil
		case 'a', 'A':
			fmt.Fprintf(w, "yes, %s is allowed for this session\n", req.Name)
			return approval.Answer{Choice: approval.YesSession}, nil
		case 'n', 'N':
			fmt.Fprintln(w, "no")
			return approval.Answer{Choice: approval.No}, nil
		case 'r', 'R':
			fmt.Fprint(w, "no; why? ")
			reason, err := c.readReason(ctx)
			if err != nil {
				fmt.Fprintln(w)
				return approval.Answer{}, err
			}
			return approval.Answer{Choice: approval.No, Reason: reason}, nil
		case 3: // Ctrl-C in raw mode
			fmt.Fprintln(w)
			c.mu.Lock()
			cancel := c.cancelTurn
			c.mu.Unlock()
			cancel()
			return approval.Answer{}, context.Canceled
		}
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

// readKey reads one key press with the terminal in raw mode (so no Enter
// is needed); on anything but a terminal it reads one byte.
func (c *Chat) readKey(ctx context.Context) (byte, error) {
	in := c.opts.In
	if in == nil {
		return 0, io.EOF
	}
	if state, err := term.MakeRaw(int(in.Fd())); err == nil {
		defer term.Restore(int(in.Fd()), state)
	}
	b, err := readBytes(ctx, in, func([]byte) bool { return true })
	if err != nil {
		return 0, err
	}
	return b[0], nil
}

// readReason reads a line with the terminal echoing, as typed.
func (c *Chat) readReason(ctx context.Context) (string, error) {
	in := c.opts.In
	if in == nil {
		return "", io.EOF
	}
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
