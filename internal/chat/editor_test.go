package chat

import (
	"errors"
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// send turns a script into key messages: a string is typed rune by rune,
// a tea.KeyPressMsg is one special key, a []string is a bracketed paste.
func send(e *editor, script ...any) {
	for _, s := range script {
		switch s := s.(type) {
		case string:
			for _, r := range s {
				e.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
			}
		case tea.KeyPressMsg:
			e.Update(s)
		case []string:
			e.Update(tea.PasteMsg{Content: s[0]})
		default:
			panic(fmt.Sprintf("send: a script cannot hold a %T", s))
		}
	}
}

// The special keys the tests press.
var (
	keyEnter     = tea.KeyPressMsg{Code: tea.KeyEnter}
	keyAltEnter  = tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModAlt}
	keyCtrlJ     = tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl}
	keyCtrlW     = tea.KeyPressMsg{Code: 'w', Mod: tea.ModCtrl}
	keyCtrlD     = tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl}
	keyCtrlC     = tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	keyHome      = tea.KeyPressMsg{Code: tea.KeyHome}
	keyEnd       = tea.KeyPressMsg{Code: tea.KeyEnd}
	keyUp        = tea.KeyPressMsg{Code: tea.KeyUp}
	keyDown      = tea.KeyPressMsg{Code: tea.KeyDown}
	keyTab       = tea.KeyPressMsg{Code: tea.KeyTab}
	keyBackspace = tea.KeyPressMsg{Code: tea.KeyBackspace}
)

func TestEditorSubmitsOnEnter(t *testing.T) {
	e := newEditor(nil, nil, 80, true)
	send(e, "hello world", keyEnter)
	if !e.done || e.value != "hello world" || e.err != nil {
		t.Errorf("done %v value %q err %v", e.done, e.value, e.err)
	}
	if e.echo() != "> hello world\n" {
		t.Errorf("echo %q should keep the question in the scrollback", e.echo())
	}
}

func TestEditorMultiLineInput(t *testing.T) {
	tests := []struct {
		name   string
		script []any
		want   string
	}{
		{"alt+enter", []any{"one", keyAltEnter, "two", keyEnter}, "one\ntwo"},
		{"trailing backslash", []any{"one\\", keyEnter, "two", keyEnter}, "one\ntwo"},
		{"paste keeps newlines", []any{[]string{"line 1\r\nline 2\rline 3"}, keyEnter}, "line 1\nline 2\nline 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEditor(nil, nil, 80, true)
			send(e, tt.script...)
			if !e.done || e.value != tt.want {
				t.Errorf("done %v, value %q, want %q", e.done, e.value, tt.want)
			}
		})
	}
}

func TestEditorTypeAheadNewlineSubmits(t *testing.T) {
	// Typed while the terminal was in cooked mode: Enter arrives as LF.
	e := newEditor(nil, nil, 80, true)
	send(e, "/model other", keyCtrlJ)
	if !e.done || e.value != "/model other" {
		t.Errorf("done %v value %q", e.done, e.value)
	}
}

func TestEditorWordDeletionAndLineKeys(t *testing.T) {
	e := newEditor(nil, nil, 80, true)
	send(e, "list the files", keyCtrlW, "dirs", keyHome, "please ", keyEnd, "!", keyEnter)
	if e.value != "please list the dirs!" {
		t.Errorf("value = %q", e.value)
	}
}

func TestEditorHistoryBrowsing(t *testing.T) {
	e := newEditor([]string{"first", "second"}, nil, 80, true)
	send(e, "draft", keyUp)
	if got := e.ta.Value(); got != "second" {
		t.Fatalf("Up shows %q, want the newest entry", got)
	}
	send(e, keyUp, keyUp)
	if got := e.ta.Value(); got != "first" {
		t.Fatalf("Up twice shows %q, want the oldest entry (and stays there)", got)
	}
	send(e, keyDown, keyDown)
	if got := e.ta.Value(); got != "draft" {
		t.Fatalf("Down past the newest shows %q, want the draft back", got)
	}
}

func TestEditorCtrlDAndCtrlC(t *testing.T) {
	e := newEditor(nil, nil, 80, true)
	send(e, keyCtrlD)
	if !errors.Is(e.err, ErrEOF) {
		t.Errorf("Ctrl-D on an empty line: err %v", e.err)
	}

	e = newEditor(nil, nil, 80, true)
	send(e, "abc", keyCtrlD, keyCtrlC)
	if e.done || e.ta.Value() != "" {
		t.Errorf("Ctrl-C with text should clear it, not exit: done %v value %q", e.done, e.ta.Value())
	}
	send(e, keyCtrlC)
	if e.done || e.hint == "" {
		t.Errorf("first Ctrl-C at an empty prompt should ask again: done %v hint %q", e.done, e.hint)
	}
	send(e, keyCtrlC)
	if !errors.Is(e.err, ErrInterrupt) {
		t.Errorf("second Ctrl-C: err %v", e.err)
	}

	e = newEditor(nil, nil, 80, true)
	send(e, keyCtrlC, "x", keyBackspace, keyCtrlC)
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
	e := newEditor(nil, complete, 80, true)
	send(e, "/h", keyTab)
	if e.ta.Value() != "/help" {
		t.Errorf("single candidate: %q", e.ta.Value())
	}
	e = newEditor(nil, complete, 80, true)
	send(e, "/m", keyTab)
	if e.ta.Value() != "/m" || e.hint != "/mcp  /model" {
		t.Errorf("several candidates: value %q hint %q", e.ta.Value(), e.hint)
	}
}
