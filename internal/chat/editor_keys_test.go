package chat

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

var (
	keyCtrlR = tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl}
	keyCtrlL = tea.KeyPressMsg{Code: 'l', Mod: tea.ModCtrl}
	keyCtrlX = tea.KeyPressMsg{Code: 'x', Mod: tea.ModCtrl}
	keyCtrlE = tea.KeyPressMsg{Code: 'e', Mod: tea.ModCtrl}
	keyEsc   = tea.KeyPressMsg{Code: tea.KeyEscape}
)

func TestEditorLongInputWrapsAndGrows(t *testing.T) {
	e := newEditor(nil, nil, 70, true)
	e.Update(tea.WindowSizeMsg{Width: 70, Height: 30})
	long := strings.Repeat("abcdefghij", 14) // 140 characters
	send(e, long)
	view := strings.ReplaceAll(strings.ReplaceAll(ansi.Strip(e.text()), "\n", ""), " ", "")
	if !strings.Contains(view, ">"+long) {
		t.Errorf("the box does not show all of a 140-character input at 70 columns:\n%s", e.text())
	}
	send(e, keyEnter)
	if e.echo() != "> "+long+"\n" {
		t.Errorf("echo = %q, want the whole input", e.echo())
	}

	// A very long input stops growing at a third of the screen.
	e = newEditor(nil, nil, 70, true)
	e.Update(tea.WindowSizeMsg{Width: 70, Height: 30})
	send(e, strings.Repeat("x", 70*12))
	if rows := strings.Count(e.text(), "\n") + 1; rows != 10 {
		t.Errorf("the box is %d rows tall, want 10 (a third of 30)", rows)
	}
}

func TestEditorFoldsLongPastes(t *testing.T) {
	var lines []string
	for i := range 300 {
		lines = append(lines, "line "+string(rune('a'+i%26)))
	}
	pasted := strings.Join(lines, "\r")
	e := newEditor(nil, nil, 80, true)
	send(e, "look: ", []string{pasted}, " thanks", keyEnter)
	if !strings.Contains(e.shown, "look: [pasted 300 lines] thanks") {
		t.Errorf("the box showed %q, want the paste folded", e.shown)
	}
	if want := "look: " + strings.Join(lines, "\n") + " thanks"; e.value != want {
		t.Errorf("sent %d lines, want all 300 of the paste", strings.Count(e.value, "\n")+1)
	}
	if e.echo() != "> look: [pasted 300 lines] thanks\n" {
		t.Errorf("echo %q", e.echo())
	}

	// Two long pastes get their own placeholders; a short one is as is.
	e = newEditor(nil, nil, 80, true)
	send(e, []string{pasted}, []string{pasted}, []string{"a\nb"}, keyEnter)
	if e.shown != "[pasted 300 lines][pasted 300 lines #2]a\nb" || strings.Count(e.value, "\n") != 599 {
		t.Errorf("shown %q, %d lines sent", e.shown, strings.Count(e.value, "\n")+1)
	}
}

func TestEditorHistorySearch(t *testing.T) {
	history := []string{"list the files", "read go.mod", "list the servers", "hello"}
	e := newEditor(history, nil, 80, true)
	send(e, "draft", keyCtrlR, "list")
	if got := e.ta.Value(); got != "list the servers" {
		t.Fatalf("Ctrl-R list shows %q, want the newest match", got)
	}
	if !strings.Contains(e.text(), "reverse-i-search)`list'") {
		t.Errorf("the search is not shown:\n%s", e.text())
	}
	send(e, keyCtrlR)
	if got := e.ta.Value(); got != "list the files" {
		t.Fatalf("Ctrl-R again shows %q, want the older match", got)
	}
	send(e, keyCtrlR)
	if got := e.ta.Value(); got != "list the files" || !strings.Contains(e.text(), "failed reverse-i-search") {
		t.Errorf("no older match: shows %q\n%s", got, e.text())
	}
	send(e, keyEnter)
	if e.done || e.ta.Value() != "list the files" || strings.Contains(e.text(), "search") {
		t.Fatalf("Enter should take the match into the box: done %v value %q\n%s", e.done, e.ta.Value(), e.text())
	}
	send(e, keyEnter)
	if e.value != "list the files" {
		t.Errorf("sent %q", e.value)
	}

	// Esc leaves the search with the input as it was.
	e = newEditor(history, nil, 80, true)
	send(e, "draft", keyCtrlR, "read", keyEsc)
	if got := e.ta.Value(); got != "draft" || e.search != nil {
		t.Errorf("after Esc the box holds %q, want the draft", got)
	}
}

func TestEditorCtrlLClearsTheScreenAndKeepsTheInput(t *testing.T) {
	e := newEditor(nil, nil, 80, true)
	send(e, "half a question")
	_, cmd := e.Update(keyCtrlL)
	if cmd == nil {
		t.Fatal("Ctrl-L does nothing")
	}
	// A sequence: the whole screen erased, then the box drawn again, on
	// the second row (see editor.key).
	var msgs []tea.Msg
	if seq := reflect.ValueOf(cmd()); seq.Kind() == reflect.Slice {
		for i := range seq.Len() {
			msgs = append(msgs, seq.Index(i).Interface().(tea.Cmd)())
		}
	}
	if len(msgs) != 2 || fmt.Sprint(msgs[0]) != fmt.Sprint(tea.RawMsg{Msg: "\x1b[H\x1b[2J\r\n"}) || msgs[1] != tea.ClearScreen() {
		t.Errorf("Ctrl-L gives %#v, want the screen erased and redrawn", msgs)
	}
	if e.ta.Value() != "half a question" {
		t.Errorf("Ctrl-L lost the input: %q", e.ta.Value())
	}
}

// runNow stands in for tea.ExecProcess: it runs the editor at once,
// without a terminal, and feeds its end to the editor as the program
// would.
func runNow(e *editor) func(*exec.Cmd, tea.ExecCallback) tea.Cmd {
	return func(cmd *exec.Cmd, done tea.ExecCallback) tea.Cmd {
		return func() tea.Msg { return done(cmd.Run()) }
	}
}

func TestEditorCtrlXCtrlEEditsInTheEditor(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in editor is a shell script")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "ed")
	// The "editor" appends a line to what it was given, as a user would.
	if err := os.WriteFile(script, []byte("#!/bin/sh\nprintf '%s\\n' \"$(cat \"$1\") and more\" > \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	e := newEditor(nil, nil, 80, true)
	e.runEditor = runNow(e)
	e.getenv = func(k string) string {
		if k == "EDITOR" {
			return script
		}
		return ""
	}
	send(e, "a prompt")
	_, cmd := e.Update(keyCtrlX)
	if cmd != nil {
		t.Fatal("Ctrl-X alone should wait for the next key")
	}
	_, cmd = e.Update(keyCtrlE)
	if cmd == nil {
		t.Fatal("Ctrl-X Ctrl-E does not start the editor")
	}
	e.Update(cmd())
	if got := e.ta.Value(); got != "a prompt and more" {
		t.Errorf("after the editor the box holds %q", got)
	}

	// An editor that fails leaves the prompt and says what to do.
	e.getenv = func(string) string { return filepath.Join(dir, "missing-editor") }
	send(e, keyCtrlX)
	_, cmd = e.Update(keyCtrlE)
	e.Update(cmd())
	if e.ta.Value() != "a prompt and more" || !strings.Contains(e.hint, "set $VISUAL or $EDITOR") {
		t.Errorf("value %q hint %q", e.ta.Value(), e.hint)
	}

	// Ctrl-X then another key: that key acts as usual.
	send(e, keyCtrlX, "!")
	if got := e.ta.Value(); got != "a prompt and more!" {
		t.Errorf("value %q", got)
	}
}

func TestTypedLineIsSentAtOnce(t *testing.T) {
	for _, tt := range []struct {
		typed, line, rest string
		ok                bool
	}{
		{"/copy\n", "/copy", "", true},
		{"/copy", "", "", false},             // no Enter: edited first
		{"one\ntwo\n", "one", "two\n", true}, // typed lines: one by one, as a shell runs them
		{"one\ntwo", "one", "two", true},     // the unfinished one waits in the box
		{"\n", "", "", false},                // a stray Enter sends nothing
		{"\n\nnext\n", "next", "", true},     // nor do several
		{"a\rb\n", "a\nb", "", true},         // a paste's newlines are the line's
		{"two words\n", "two words", "", true},
	} {
		line, rest, ok := typedLine(tt.typed)
		if line != tt.line || rest != tt.rest || ok != tt.ok {
			t.Errorf("typedLine(%q) = %q, %q, %v; want %q, %q, %v", tt.typed, line, rest, ok, tt.line, tt.rest, tt.ok)
		}
	}
}

// TestTypeAheadKeepsPastedNewlines: between bracketed paste marks, Enter
// is text of the line (kept as pastedNewline); outside, it ends the line.
func TestTypeAheadKeepsPastedNewlines(t *testing.T) {
	a := &typeAhead{}
	a.feed([]byte("look: " + pasteStart + "a\r\nb\rc" + pasteEnd + " ok\rnext\r"))
	if got, want := string(a.text), "look: a\rb\rc ok\nnext\n"; got != want {
		t.Errorf("kept %q, want %q", got, want)
	}
	line, rest, _ := typedLine(string(a.text))
	if line != "look: a\nb\nc ok" || rest != "next\n" {
		t.Errorf("first line %q, rest %q", line, rest)
	}
}

func TestTypeAheadCtrlDQuitsOnlyAlone(t *testing.T) {
	for _, tt := range []struct {
		reads []string
		quit  bool
	}{
		{[]string{"\x04"}, true},
		{[]string{"x\x04"}, false},     // Ctrl-D on a line with text does nothing
		{[]string{"\x04", "x"}, false}, // then more was typed: no quitting on it
	} {
		a := &typeAhead{restore: noop}
		for _, r := range tt.reads {
			a.feed([]byte(r))
		}
		if got := a.quit(); got != tt.quit {
			t.Errorf("after %q quit = %v, want %v", tt.reads, got, tt.quit)
		}
	}
}

func TestTypeAheadKeepsWhatWasTyped(t *testing.T) {
	tests := []struct {
		name  string
		reads []string
		want  string
		esc   bool
	}{
		{"text", []string{"hel", "lo"}, "hello", false},
		{"backspace and ctrl-w", []string{"hello wrld\x7f\x7f\x7forld", " x\x17"}, "hello world ", false},
		{"enter keeps a newline", []string{"one\rtwo\r"}, "one\ntwo\n", false},
		{"arrows dropped", []string{"a\x1b[A\x1bOBb"}, "ab", false},
		{"utf-8 split", []string{"caf\xc3", "\xa9"}, "café", false},
		{"lone esc", []string{"ab", "\x1b"}, "ab", true},
		{"ctrl-d after text is dropped", []string{"ab\x04"}, "ab", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &typeAhead{restore: noop}
			esc := false
			for _, r := range tt.reads {
				esc = a.feed([]byte(r)) || esc
			}
			if got := a.stop(); got != tt.want || esc != tt.esc {
				t.Errorf("kept %q esc %v, want %q esc %v", got, esc, tt.want, tt.esc)
			}
		})
	}
}

// TestEditorShowsNoticesAboveTheInput: news from a server while the
// prompt is up is drawn in the prompt's own frame (a line printed above
// an inline program before its first frame would land on the screen's
// top row), cut to the width, and all of it reaches the scrollback.
func TestEditorShowsNoticesAboveTheInput(t *testing.T) {
	e := newEditor(nil, nil, 40, true)
	e.Update(tea.WindowSizeMsg{Width: 40, Height: 30})
	for i := range 7 {
		e.Update(noticeMsg(fmt.Sprintf("· server %d changed its tools: a long list of what changed", i)))
	}
	view := e.text()
	if strings.Contains(view, "server 1 ") || !strings.Contains(view, "server 2 ") || !strings.Contains(view, "server 6 ") {
		t.Errorf("the prompt shows other than the last five notices:\n%s", view)
	}
	for _, row := range strings.Split(view, "\n") {
		if w := ansi.StringWidth(row); w > 40 {
			t.Errorf("a row is %d columns wide on a 40-column terminal: %q", w, row)
		}
	}
	if got := strings.Count(e.noticeLines(), "\n"); got != 7 {
		t.Errorf("%d notices for the scrollback, want all 7", got)
	}
}

// TestEditorKeepsWhatIsTypedAfterEnter: keys the program read after
// Enter, before it ended, start the next prompt instead of being lost.
func TestEditorKeepsWhatIsTypedAfterEnter(t *testing.T) {
	e := newEditor(nil, nil, 80, true)
	send(e, "first")
	e.Update(keyEnter)
	send(e, "/tools")
	e.Update(keyEnter)
	e.Update(tea.PasteMsg{Content: "x"})
	if e.value != "first" {
		t.Errorf("sent %q, want the line before Enter", e.value)
	}
	if e.after != "/tools\nx" {
		t.Errorf("kept %q for the next prompt, want what came after Enter", e.after)
	}
}

// TestNoticeBeforeThePromptIsInItsFrame: news that comes after the last
// notices were shown but before the line editor is up (a server failing
// as the chat starts) is drawn with the prompt, not held for the next.
func TestNoticeBeforeThePromptIsInItsFrame(t *testing.T) {
	c := New(Options{Out: io.Discard})
	c.flushNotices()
	c.notice("✗ server remote needs a sign-in: /mcp login remote")
	ed := newEditor(nil, nil, 80, false)
	done := c.editing(tea.NewProgram(ed), ed)
	defer done()
	if got := ed.noticeLines(); !strings.Contains(got, "· ✗ server remote needs a sign-in") {
		t.Errorf("the prompt's frame holds %q, want the sign-in notice", got)
	}
	if c.notices != nil {
		t.Errorf("the notice is also kept for the next prompt: %q", c.notices)
	}
}
