package chat

import (
	"fmt"
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcphost/mcphost/internal/termtext"
)

// historySearch is a Ctrl-R search of the history, newest first, as in
// a shell's reverse-i-search.
type historySearch struct {
	query  string
	match  int    // the entry shown, or -1 for none yet
	failed bool   // the query matches nothing older
	saved  string // the input before the search, back on Esc
}

func (e *editor) startSearch() {
	if e.search != nil {
		e.findOlder()
		return
	}
	e.search = &historySearch{match: -1, saved: e.ta.Value()}
	e.showSearch()
}

// searchKey handles a key during a history search: typing filters,
// Ctrl-R goes to an older match, Enter takes the match into the box, Esc
// (or Ctrl-C, Ctrl-G) leaves with the input as it was. Other keys take the
// match and then act as usual.
func (e *editor) searchKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	s := e.search
	switch msg.String() {
	case "ctrl+r":
		e.findOlder()
		return nil, true
	case "enter":
		e.search, e.hint = nil, ""
		return nil, true
	case "esc", "ctrl+c", "ctrl+g":
		e.ta.SetValue(s.saved)
		e.search, e.hint = nil, ""
		return nil, true
	case "backspace":
		if r := []rune(s.query); len(r) > 0 {
			s.query = string(r[:len(r)-1])
			s.match, s.failed = -1, false
			e.find(len(e.history) - 1)
		}
		return nil, true
	}
	if msg.Text != "" && msg.Mod&^tea.ModShift == 0 {
		s.query += msg.Text
		// The match so far is kept while it still matches, as in bash.
		from := len(e.history) - 1
		if s.match >= 0 {
			from = s.match
		}
		e.find(from)
		return nil, true
	}
	e.search, e.hint = nil, ""
	return nil, false
}

func (e *editor) findOlder() {
	if e.search.match < 0 {
		e.find(len(e.history) - 1)
		return
	}
	e.find(e.search.match - 1)
}

// find shows the newest entry at or before index from that holds the
// query; without one the search is marked failed and the box kept.
func (e *editor) find(from int) {
	s := e.search
	s.failed = true
	for i := min(from, len(e.history)-1); i >= 0; i-- {
		if strings.Contains(e.history[i], s.query) {
			s.match, s.failed = i, false
			e.histPos = i
			e.ta.SetValue(e.history[i])
			break
		}
	}
	e.showSearch()
}

func (e *editor) showSearch() {
	s := e.search
	label := "reverse-i-search"
	if s.failed {
		label = "failed reverse-i-search"
	}
	e.hint = fmt.Sprintf("(%s)`%s': Ctrl-R older · Enter takes it · Esc leaves", label, termtext.Line(s.query))
}

// editedMsg reports that $EDITOR ended; path holds the edited text.
type editedMsg struct {
	path, editor string
	err          error
}

// openEditor writes the input (pastes expanded) to a file and runs the
// user's editor on it, on the terminal; edited loads it back.
func (e *editor) openEditor() tea.Cmd {
	name := e.getenv("VISUAL")
	if strings.TrimSpace(name) == "" {
		name = e.getenv("EDITOR")
	}
	args := strings.Fields(name)
	if len(args) == 0 {
		args = []string{"vi"}
	}
	f, err := os.CreateTemp("", "mcphost-prompt-*.md")
	if err != nil {
		e.hint = fmt.Sprintf("Cannot write the prompt to a file for the editor: %v.", err)
		return nil
	}
	_, err = f.WriteString(e.expand(e.ta.Value()))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		e.hint = fmt.Sprintf("Cannot write the prompt to %s for the editor: %v.", f.Name(), err)
		return nil
	}
	cmd := exec.Command(args[0], append(args[1:], f.Name())...)
	if e.input != nil {
		// The terminal itself: Bubble Tea would give the program what it
		// reads from (lineInput) through a pipe, no terminal.
		cmd.Stdin = e.input.File
	}
	path, editor := f.Name(), args[0]
	return e.runEditor(cmd, func(err error) tea.Msg { return editedMsg{path: path, editor: editor, err: err} })
}

// edited puts the text of the editor's file in the box.
func (e *editor) edited(msg editedMsg) {
	defer os.Remove(msg.path)
	if msg.err != nil {
		e.hint = fmt.Sprintf("The editor %q failed (%v): the prompt is unchanged; set $VISUAL or $EDITOR to an editor that works.",
			msg.editor, msg.err)
		return
	}
	data, err := os.ReadFile(msg.path)
	if err != nil {
		e.hint = fmt.Sprintf("Cannot read the edited prompt back from %s: %v.", msg.path, err)
		return
	}
	// Editors end the file with a newline; it is not part of the prompt.
	text := strings.TrimSuffix(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	e.pastes = nil // the file held them expanded
	e.ta.SetValue(text)
}
