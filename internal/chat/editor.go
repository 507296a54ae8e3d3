package chat

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/mcphost/mcphost/internal/ui"
)

// Input outcomes besides a submitted line.
var (
	// ErrEOF is Ctrl-D on an empty line: leave the chat.
	ErrEOF = errors.New("end of input")
	// ErrInterrupt is Ctrl-C twice at an empty prompt: leave the chat.
	ErrInterrupt = errors.New("interrupted")
)

// maxEditorRows is the tallest the input box grows before it scrolls,
// until the terminal's height is known; then it is a third of the screen.
const maxEditorRows = 10

// pasteFoldLines is the most lines a paste may have and still be shown as
// it is; a longer one is shown as one "[pasted N lines]" placeholder (and
// sent whole), so the box stays usable.
const pasteFoldLines = 10

// editor is the prompt's line editor: a bubbletea model around the bubbles
// textarea with shell-like keys, history and completion. It is driven by a
// tea.Program in the terminal and by Update calls in tests.
type editor struct {
	ta       textarea.Model
	history  []string
	histPos  int    // len(history) when editing a new line
	draft    string // the new line, kept while browsing history
	complete func(string) []string

	hint      string
	armedExit bool // Ctrl-C was pressed at an empty prompt once
	done      bool
	value     string // what is sent: the input with its pastes expanded
	shown     string // what the box showed, for the scrollback
	// notices came from the servers while the prompt was up; they are
	// drawn above it, as part of its frame, because a line printed above
	// an inline program before its first frame lands at the screen's top.
	notices []string
	// after is what was typed once the input was done, before the
	// program ended: the start of the next prompt.
	after string
	err   error

	// pastes are the long pastes folded into placeholders, in order.
	pastes []paste
	// search is the Ctrl-R history search in progress, or nil.
	search *historySearch
	// ctrlX is set after Ctrl-X, the first key of Ctrl-X Ctrl-E.
	ctrlX bool
	// runEditor runs $EDITOR on the terminal; tea.ExecProcess, replaced in
	// tests, which have no terminal to give away.
	runEditor func(*exec.Cmd, tea.ExecCallback) tea.Cmd
	// getenv reads VISUAL and EDITOR; os.Getenv, replaced in tests.
	getenv func(string) string
	// input is the terminal read a line at a time, or nil where the
	// editor reads something else.
	input *lineInput
}

// isEnter reports whether k is a key lineInput stops at: Enter (CR),
// with or without Alt, or Ctrl-J (LF).
func isEnter(k tea.KeyPressMsg) bool {
	return k.Code == tea.KeyEnter || k.String() == "ctrl+j"
}

// paste is one long paste: the placeholder the box shows and the text it
// stands for.
type paste struct{ label, text string }

// newEditor returns an editor for a terminal width columns wide; dark
// says the background is dark, as decided once at start (the editor never
// asks the terminal itself).
func newEditor(history []string, complete func(string) []string, width int, dark bool) *editor {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Placeholder = "Ask anything, or /help"
	ta.SetPromptFunc(2, func(info textarea.PromptInfo) string {
		if info.LineNumber == 0 {
			return "> "
		}
		return "  "
	})
	// Plain look: no highlighted cursor line, no box.
	styles := textarea.DefaultStyles(dark)
	styles.Focused.CursorLine = lipgloss.NewStyle()
	styles.Focused.Base = lipgloss.NewStyle()
	styles.Blurred.Base = lipgloss.NewStyle()
	ta.SetStyles(styles)
	ta.CharLimit = 0
	// The box grows with its text, wrapped rows counted, and scrolls
	// inside once it is MaxHeight rows tall.
	ta.DynamicHeight = true
	ta.MaxHeight = maxEditorRows
	// Enter submits; Alt+Enter and a trailing backslash insert a newline
	// (handled below).
	ta.KeyMap.InsertNewline.SetEnabled(false)
	if width <= 0 {
		width = 80
	}
	ta.SetWidth(width)
	ta.SetHeight(1)
	ta.Focus()
	return &editor{ta: ta, history: history, histPos: len(history), complete: complete,
		runEditor: tea.ExecProcess, getenv: os.Getenv}
}

func (e *editor) Init() tea.Cmd { return textarea.Blink }

func (e *editor) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && isEnter(k) {
		// The terminal is read no further than an Enter until it is
		// taken: it may end the prompt (finish), and what follows it is
		// then the next prompt's.
		defer func() {
			if !e.done {
				e.input.next()
			}
		}()
	}
	if e.done {
		e.keepAfter(msg)
		return e, nil
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		if msg.Height > 0 {
			e.ta.MaxHeight = max(3, msg.Height/3)
		}
		e.ta.SetWidth(msg.Width)
		return e, nil
	case tea.PasteMsg:
		e.armedExit, e.hint = false, ""
		e.insertPaste(msg.Content)
		return e, nil
	case editedMsg:
		e.edited(msg)
		return e, nil
	case noticeMsg:
		e.notices = append(e.notices, string(msg))
		return e, nil
	case tea.KeyPressMsg:
		if e.search != nil {
			if cmd, handled := e.searchKey(msg); handled {
				return e, cmd
			}
		}
		if cmd, handled := e.key(msg); handled {
			return e, cmd
		}
	}
	var cmd tea.Cmd
	e.ta, cmd = e.ta.Update(msg)
	return e, cmd
}

// insertPaste inserts pasted text; one longer than pasteFoldLines lines
// goes in as a placeholder that finish expands.
func (e *editor) insertPaste(content string) {
	// Terminals send pasted newlines as CR; keep them as newlines.
	content = strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(content)
	lines := strings.Count(strings.TrimSuffix(content, "\n"), "\n") + 1
	if lines <= pasteFoldLines {
		e.ta.InsertString(content)
		return
	}
	label := fmt.Sprintf("[pasted %d lines]", lines)
	for n := 2; strings.Contains(e.ta.Value(), label); n++ {
		label = fmt.Sprintf("[pasted %d lines #%d]", lines, n)
	}
	e.pastes = append(e.pastes, paste{label, content})
	e.ta.InsertString(label)
}

// expand replaces the placeholders left in s by the pastes they stand for.
func (e *editor) expand(s string) string {
	for _, p := range e.pastes {
		s = strings.Replace(s, p.label, p.text, 1)
	}
	return s
}

// key handles the keys that differ from the textarea's own.
func (e *editor) key(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if msg.String() != "ctrl+c" {
		e.armedExit = false
		e.hint = ""
	}
	if e.ctrlX {
		e.ctrlX = false
		if msg.String() == "ctrl+e" {
			return e.openEditor(), true
		}
	}
	switch msg.String() {
	case "ctrl+x":
		e.ctrlX = true
		return nil, true
	case "ctrl+l":
		// Clear the whole screen, as a shell does (the inline renderer's
		// own ClearScreen clears only its area), then have the box drawn
		// again near the top with its text. Not on the top row: the
		// renderer redraws a box that grows by erasing below its first
		// row, and an erase from the top-left corner is a clear of the
		// whole screen, which tmux (scroll-on-clear) and some terminals
		// keep in the scrollback: a copy of the box at every new row.
		return tea.Sequence(tea.Raw("\x1b[H\x1b[2J\r\n"), tea.ClearScreen), true
	case "ctrl+r":
		e.startSearch()
		return nil, true
	case "ctrl+z":
		return suspend(), true
	case "enter", "ctrl+j":
		// ctrl+j too: a line typed ahead while the terminal was still in
		// cooked mode arrives with its Enter turned into a newline.
		value := e.ta.Value()
		if strings.HasSuffix(value, "\\") && e.atEnd() {
			// A trailing backslash continues the input on a new line, as
			// in a shell.
			e.ta.SetValue(strings.TrimSuffix(value, "\\") + "\n")
			return nil, true
		}
		return e.finish(value, nil), true
	case "alt+enter":
		e.ta.InsertString("\n")
		return nil, true
	case "ctrl+d":
		if e.ta.Value() == "" {
			return e.finish("", ErrEOF), true
		}
		return nil, false
	case "ctrl+c":
		if e.ta.Value() != "" {
			e.ta.Reset()
			e.pastes = nil
			e.histPos = len(e.history)
			return nil, true
		}
		if e.armedExit {
			return e.finish("", ErrInterrupt), true
		}
		e.armedExit = true
		e.hint = "Press Ctrl-C again to exit, or Ctrl-D."
		return nil, true
	case "up":
		if e.ta.Line() == 0 && e.histPos > 0 {
			if e.histPos == len(e.history) {
				e.draft = e.ta.Value()
			}
			e.histPos--
			e.ta.SetValue(e.history[e.histPos])
			return nil, true
		}
	case "down":
		if e.ta.Line() == e.ta.LineCount()-1 && e.histPos < len(e.history) {
			e.histPos++
			if e.histPos == len(e.history) {
				e.ta.SetValue(e.draft)
			} else {
				e.ta.SetValue(e.history[e.histPos])
			}
			return nil, true
		}
	case "tab":
		e.completeInput()
		return nil, true
	}
	return nil, false
}

// atEnd reports whether the cursor is at the end of the input.
func (e *editor) atEnd() bool {
	info := e.ta.LineInfo()
	return e.ta.Line() == e.ta.LineCount()-1 && info.CharOffset+info.StartColumn >= len([]rune(lastLine(e.ta.Value())))
}

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// completeInput completes the input from the candidates: one candidate
// replaces the input, several extend it to their common prefix and are
// listed under the prompt.
func (e *editor) completeInput() {
	if e.complete == nil {
		return
	}
	value := e.ta.Value()
	cands := e.complete(value)
	switch len(cands) {
	case 0:
		return
	case 1:
		e.ta.SetValue(cands[0])
	default:
		if p := commonPrefix(cands); len(p) > len(value) {
			e.ta.SetValue(p)
		}
		e.hint = strings.Join(lastWords(cands), "  ")
	}
}

func commonPrefix(ss []string) string {
	p := ss[0]
	for _, s := range ss[1:] {
		for !strings.HasPrefix(s, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}

// lastWords shows candidates by their last word, as shells list them.
func lastWords(cands []string) []string {
	out := make([]string, len(cands))
	for i, c := range cands {
		f := strings.Fields(c)
		if len(f) > 0 {
			out[i] = f[len(f)-1]
		}
	}
	return out
}

// keepAfter keeps what is typed between Enter and the editor's end (the
// terminal's bytes already read are lost with the program otherwise), for
// the next prompt, as the type-ahead reader keeps what comes later.
func (e *editor) keepAfter(msg tea.Msg) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case msg.Code == tea.KeyEnter:
			e.after += "\n"
		case msg.Text != "":
			e.after += msg.Text
		}
	case tea.PasteMsg:
		e.after += asPasted(msg.Content)
	}
}

func (e *editor) finish(value string, err error) tea.Cmd {
	e.done, e.value, e.shown, e.err = true, e.expand(value), value, err
	e.input.Close()
	return tea.Quit
}

// View is the input box while editing, and nothing once done: the
// submitted text is printed by the chat (echo), since the renderer cuts
// what is wider or taller than the screen.
func (e *editor) View() tea.View {
	return tea.NewView(e.text())
}

// text is what View shows.
func (e *editor) text() string {
	if e.done {
		return ""
	}
	v := e.ta.View()
	if e.hint != "" {
		v += "\n" + e.hint
	}
	if n := len(e.notices); n > 0 {
		// The latest few, above the input, each cut to one row: the
		// frame must stay short. All of them reach the scrollback once
		// the prompt ends.
		var rows []string
		for _, msg := range e.notices[max(0, n-maxNoticeRows):] {
			rows = append(rows, ui.Fit(msg, e.ta.Width()))
		}
		v = strings.Join(rows, "\n") + "\n" + v
	}
	return v
}

// noticeMsg is news from a server that came while the prompt is edited.
type noticeMsg string

// maxNoticeRows is how many notices the prompt shows above the input.
const maxNoticeRows = 5

// noticeLines is every notice shown while editing, for the scrollback.
func (e *editor) noticeLines() string {
	if len(e.notices) == 0 {
		return ""
	}
	return strings.Join(e.notices, "\n") + "\n"
}

// echo is the submitted input as the scrollback keeps it, every row of
// it (the terminal wraps what is wider than the screen); long pastes stay
// folded. It is empty when nothing was submitted.
func (e *editor) echo() string {
	if !e.done || e.err != nil {
		return ""
	}
	return "> " + strings.ReplaceAll(e.shown, "\n", "\n  ") + "\n"
}
