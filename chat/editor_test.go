package chat

import (
	"errors"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// keys turns a script into key messages: a string is typed rune by rune,
// a tea.KeyType is one special key, a []string is a bracketed paste.
func send(e *editor, script ...any) {
	for _, s := range script {
		switch s := s.(type) {
		case string:
			for _, r := range s {
				e.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
			}
		case tea.KeyType:
			e.Update(tea.KeyMsg{Type: s})
		case tea.KeyMsg:
			e.Update(s)
		case []string:
			e.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s[0]), Paste: true})
		}
	}
}

func TestEditorSubmitsOnEnter(t *testing.T) {
	e := newEditor(nil, nil, 80)
	send(e, "hello world", tea.KeyEnter)
	if !e.done || e.value != "hello world" || e.err != nil {
		t.Errorf("done %v value %q err %v", e.done, e.value, e.err)
	}
	if e.View() != "> hello world\n" {
		t.Errorf("final view %q should keep the question in the scrollback", e.View())
	}
}

func TestEditorMultiLineInput(t *testing.T) {
	tests := []struct {
		name   string
		script []any
		want   string
	}{
		{"alt+enter", []any{"one", tea.KeyMsg{Type: tea.KeyEnter, Alt: true}, "two", tea.KeyEnter}, "one\ntwo"},
		{"trailing backslash", []any{"one\\", tea.KeyEnter, "two", tea.KeyEnter}, "one\ntwo"},
		{"paste keeps newlines", []any{[]string{"line 1\r\nline 2\rline 3"}, tea.KeyEnter}, "line 1\nline 2\nline 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEditor(nil, nil, 80)
			send(e, tt.script...)
			if !e.done || e.value != tt.want {
				t.Errorf("done %v, value %q, want %q", e.done, e.value, tt.want)
			}
		})
	}
}

func TestEditorTypeAheadNewlineSubmits(t *testing.T) {
	// Typed while the terminal was in cooked mode: Enter arrives as LF.
	e := newEditor(nil, nil, 80)
	send(e, "/model other", tea.KeyCtrlJ)
	if !e.done || e.value != "/model other" {
		t.Errorf("done %v value %q", e.done, e.value)
	}
}

func TestEditorWordDeletionAndLineKeys(t *testing.T) {
	e := newEditor(nil, nil, 80)
	send(e, "list the files", tea.KeyCtrlW, "dirs", tea.KeyHome, "please ", tea.KeyEnd, "!", tea.KeyEnter)
	if e.value != "please list the dirs!" {
		t.Errorf("value = %q", e.value)
	}
}

func TestEditorHistoryBrowsing(t *testing.T) {
	e := newEditor([]string{"first", "second"}, nil, 80)
	send(e, "draft", tea.KeyUp)
	if got := e.ta.Value(); got != "second" {
		t.Fatalf("Up shows %q, want the newest entry", got)
	}
	send(e, tea.KeyUp, tea.KeyUp)
	if got := e.ta.Value(); got != "first" {
		t.Fatalf("Up twice shows %q, want the oldest entry (and stays there)", got)
	}
	send(e, tea.KeyDown, tea.KeyDown)
	if got := e.ta.Value(); got != "draft" {
		t.Fatalf("Down past the newest shows %q, want the draft back", got)
	}
}

func TestEditorCtrlDAndCtrlC(t *testing.T) {
	e := newEditor(nil, nil, 80)
	send(e, tea.KeyCtrlD)
	if !errors.Is(e.err, ErrEOF) {
		t.Errorf("Ctrl-D on an empty line: err %v", e.err)
	}

	e = newEditor(nil, nil, 80)
	send(e, "abc", tea.KeyCtrlD, tea.KeyCtrlC)
	if e.done || e.ta.Value() != "" {
		t.Errorf("Ctrl-C with text should clear it, not exit: done %v value %q", e.done, e.ta.Value())
	}
	send(e, tea.KeyCtrlC)
	if e.done || e.hint == "" {
		t.Errorf("first Ctrl-C at an empty prompt should ask again: done %v hint %q", e.done, e.hint)
	}
	send(e, tea.KeyCtrlC)
	if !errors.Is(e.err, ErrInterrupt) {
		t.Errorf("second Ctrl-C: err %v", e.err)
	}

	e = newEditor(nil, nil, 80)
	send(e, tea.KeyCtrlC, "x", tea.KeyBackspace, tea.KeyCtrlC)
	if e.done {
		t.Error("a key between two Ctrl-C disarms the exit")
	}
}

func TestEditorTabCompletion(t *testing.T) {
	complete := func(s string) []string {
		all := []string{"/mcp", "/model", "/help"}
		var out []string
		for _, c := range all {
			if len(c) >= len(s) && c[:len(s)] == s {
				out = append(out, c)
			}
		}
		return out
	}
	e := newEditor(nil, complete, 80)
	send(e, "/h", tea.KeyTab)
	if e.ta.Value() != "/help" {
		t.Errorf("single candidate: %q", e.ta.Value())
	}
	e = newEditor(nil, complete, 80)
	send(e, "/m", tea.KeyTab)
	if e.ta.Value() != "/m" || e.hint != "/mcp  /model" {
		t.Errorf("several candidates: value %q hint %q", e.ta.Value(), e.hint)
	}
}
