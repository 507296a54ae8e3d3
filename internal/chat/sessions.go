package chat

// The commands that start, load and list conversations. With --session, a
// conversation written to a file is never lost by a command: /clear goes
// on in a new file beside it, /load goes on in the file it loaded, and
// /sessions lists what can be resumed.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/session"
	"github.com/mcphost/mcphost/internal/ui"
	"github.com/mcphost/mcphost/provider"
)

// hasTurns reports whether msgs hold more than the system prompt: a
// conversation worth keeping.
func hasTurns(msgs []provider.Message) bool {
	for _, m := range msgs {
		if m.Role != provider.RoleSystem {
			return true
		}
	}
	return false
}

func (c *Chat) cmdClear(ctx context.Context, w io.Writer, _ []string) bool {
	conv := c.opts.Conversation
	held := c.opts.Session
	if held == nil || !hasTurns(conv.History()) {
		conv.Reset()
		c.lastCalls = nil
		if held != nil {
			c.saveSession(w)
			fmt.Fprintf(w, "New conversation, saved to %s.\n", held.Path())
			return false
		}
		fmt.Fprintln(w, "New conversation.")
		return false
	}
	// The conversation so far stays in its file (saved once more, in case
	// the last save failed); the new one goes to a file of its own.
	old := held.Path()
	kept := len(conv.History())
	if err := held.Save(conv.Model().Name, conv.History()); err != nil {
		fmt.Fprintf(w, "%s; the conversation is kept as it is.\n", ui.Sanitize(err.Error()))
		return false
	}
	next, err := c.takeSession(ctx, session.NextPath(old))
	if err != nil {
		fmt.Fprintf(w, "%s; the conversation is kept as it is.\n", ui.Sanitize(err.Error()))
		return false
	}
	conv.Reset()
	c.lastCalls = nil
	if err := next.Save(conv.Model().Name, conv.History()); err != nil {
		next.Release()
		fmt.Fprintf(w, "%s; the conversation is kept as it is.\n", ui.Sanitize(err.Error()))
		return false
	}
	c.switchSession(next)
	fmt.Fprintf(w, "New conversation, saved to %s; the last one (%d messages) stays in %s (/load %s goes back to it).\n",
		next.Path(), kept, old, old)
	return false
}

// takeSession holds the session file at path for this chat, at once or
// not at all: another run that holds it is using it.
func (c *Chat) takeSession(ctx context.Context, path string) (*session.Lock, error) {
	l, err := session.Acquire(ctx, path, session.LockOptions{})
	if errors.Is(err, session.ErrBusy) {
		return nil, fmt.Errorf("%s is in use by another mcphost run", path)
	}
	return l, err
}

// switchSession makes next the file later turns are saved to, letting
// the one held so far go.
func (c *Chat) switchSession(next *session.Lock) {
	if prev := c.opts.Session; prev != nil && prev != next {
		prev.Release()
	}
	c.opts.Session = next
}

// releaseSession lets the session file go when the chat ends.
func (c *Chat) releaseSession() {
	if s := c.opts.Session; s != nil {
		s.Release()
	}
}

func (c *Chat) cmdLoad(ctx context.Context, w io.Writer, args []string) bool {
	if len(args) != 1 {
		fmt.Fprintln(w, "usage: /load FILE")
		return false
	}
	conv := c.opts.Conversation
	path := args[0]
	held := c.opts.Session
	var (
		f    session.File
		err  error
		took *session.Lock
	)
	switch {
	case held != nil && samePath(held.Path(), path):
		f, err = held.Load()
	case held != nil:
		// With --session, the loaded conversation goes on in its own file:
		// saving it into the session file would overwrite that file's
		// conversation.
		if _, serr := os.Stat(path); serr != nil {
			err = fmt.Errorf("%s: %w", path, session.ErrNotExist)
			break
		}
		if took, err = c.takeSession(ctx, path); err == nil {
			if f, err = took.Load(); err != nil {
				took.Release()
				took = nil
			}
		}
	default:
		var saved host.SavedConversation
		if saved, err = conv.Load(path); err == nil {
			f = session.File{Model: saved.Model, Messages: saved.Messages}
		}
	}
	if errors.Is(err, session.ErrNotExist) {
		fmt.Fprintf(w, "%s does not exist\n", path)
		return false
	}
	if err != nil {
		fmt.Fprintln(w, ui.Sanitize(err.Error()))
		return false
	}
	if held != nil {
		conv.SetHistory(f.Messages)
	}
	c.lastCalls = nil
	fmt.Fprintf(w, "Loaded %d messages from %s.\n", len(f.Messages), path)
	switch {
	case took != nil:
		c.switchSession(took)
		fmt.Fprintf(w, "Later turns are saved to %s; %s keeps its own conversation (/load %s goes back to it).\n", path, held.Path(), held.Path())
	case held != nil:
		fmt.Fprintf(w, "Later turns are saved to %s.\n", held.Path())
	}
	if f.Model != "" && f.Model != conv.Model().Name {
		verb := "switches"
		if !conv.HasModel() {
			verb = "goes on with"
		}
		fmt.Fprintf(w, "It was saved with %s; /model %s %s to it.\n", f.Model, f.Model, verb)
	}
	return false
}

// sessionDir is where /sessions looks: beside the --session file, else in
// the working directory.
func (c *Chat) sessionDir() string {
	if s := c.opts.Session; s != nil {
		return filepath.Dir(s.Path())
	}
	return "."
}

// sessionNames are the saved conversations /sessions lists, as /load
// takes them, for Tab.
func (c *Chat) sessionNames() []string {
	dir := c.sessionDir()
	list, _ := session.List(dir)
	names := make([]string, len(list))
	for i, s := range list {
		names[i] = filepath.Join(dir, filepath.Base(s.Path))
	}
	return names
}

func (c *Chat) cmdSessions(_ context.Context, w io.Writer, _ []string) bool {
	dir := c.sessionDir()
	list, err := session.List(dir)
	if err != nil {
		fmt.Fprintln(w, ui.Sanitize(err.Error()))
		return false
	}
	where := dir
	if abs, err := filepath.Abs(dir); err == nil {
		where = abs
	}
	if len(list) == 0 {
		fmt.Fprintf(w, "No saved conversations in %s: --session FILE saves a chat as it goes, /save FILE saves this one.\n", ui.Sanitize(where))
		return false
	}
	fmt.Fprintf(w, "Saved conversations in %s, the newest first:\n", ui.Sanitize(where))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, s := range list {
		mark := " "
		if c.opts.Session != nil && samePath(s.Path, c.opts.Session.Path()) {
			mark = "*"
		}
		first := "(no prompt yet)"
		if s.FirstPrompt != "" {
			first = ui.Preview(s.FirstPrompt, 50)
		}
		fmt.Fprintf(tw, "%s %s\t%s\t%d messages\t%s\t%s\n", mark, ui.Sanitize(filepath.Base(s.Path)), savedAt(s.Saved, time.Now()), s.Messages, ui.Sanitize(s.Model), first)
	}
	tw.Flush()
	if c.opts.Session != nil {
		fmt.Fprintln(w, "* is this chat's. /load FILE goes on with one here; mcphost --session FILE resumes one later.")
	} else {
		fmt.Fprintln(w, "/load FILE goes on with one here; mcphost --session FILE resumes one and saves as it goes.")
	}
	return false
}

// savedAt writes when a file was saved: the time today, the date and time
// before.
func savedAt(t, now time.Time) string {
	if y, m, d := t.Date(); y == now.Year() && m == now.Month() && d == now.Day() {
		return "today " + t.Format("15:04")
	}
	return t.Format("2006-01-02 15:04")
}
