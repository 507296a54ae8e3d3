package chat

import (
	"errors"
	"strings"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// Input outcomes besides a submitted line.
var (
	// ErrEOF is Ctrl-D on an empty line: leave the chat.
	ErrEOF = errors.New("end of input")
	// ErrInterrupt is Ctrl-C twice at an empty prompt: leave the chat.
	ErrInterrupt = errors.New("interrupted")
)

// maxEditorRows is the tallest the input box grows before it scrolls.
const maxEditorRows = 10

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
	value     string
	err       error
}

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
	ta.MaxHeight = 0
	// Enter submits; Alt+Enter and a trailing backslash insert a newline
	// (handled below).
	ta.KeyMap.InsertNewline.SetEnabled(false)
	if width <= 0 {
		width = 80
	}
	ta.SetWidth(width)
	ta.SetHeight(1)
	ta.Focus()
	return &editor{ta: ta, history: history, histPos: len(history), complete: complete}
}

func (e *editor) Init() tea.Cmd { return textarea.Blink }

func (e *editor) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		e.ta.SetWidth(msg.Width)
		return e, nil
	case tea.PasteMsg:
		e.armedExit, e.hint = false, ""
		// Terminals send pasted newlines as CR; keep them as newlines.
		e.ta.InsertString(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(msg.Content))
		e.fit()
		return e, nil
	case tea.KeyPressMsg:
		if cmd, handled := e.key(msg); handled {
			e.fit()
			return e, cmd
		}
	}
	var cmd tea.Cmd
	e.ta, cmd = e.ta.Update(msg)
	e.fit()
	return e, cmd
}

// key handles the keys that differ from the textarea's own.
func (e *editor) key(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if msg.String() != "ctrl+c" {
		e.armedExit = false
		e.hint = ""
	}
	switch msg.String() {
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

func (e *editor) finish(value string, err error) tea.Cmd {
	e.done, e.value, e.err = true, value, err
	return tea.Quit
}

// fit grows the box with its content, up to maxEditorRows.
func (e *editor) fit() {
	e.ta.SetHeight(min(max(1, e.ta.LineCount()), maxEditorRows))
}

// View is the input box while editing, and the submitted text once done,
// so the scrollback keeps what was asked.
func (e *editor) View() tea.View {
	return tea.NewView(e.text())
}

// text is what View shows.
func (e *editor) text() string {
	if e.done {
		if e.err != nil {
			return ""
		}
		return "> " + strings.ReplaceAll(e.value, "\n", "\n  ") + "\n"
	}
	v := e.ta.View()
	if e.hint != "" {
		v += "\n" + e.hint
	}
	return v
}
