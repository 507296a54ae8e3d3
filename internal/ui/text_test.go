package ui

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/provider"
)

func TestOneShotStreamsPlainTextWhenPiped(t *testing.T) {
	var out, errOut bytes.Buffer
	o := NewText(TextOptions{Out: &out, Err: &errOut})
	o.Handle(host.ModelCallStarted{Step: 1})
	o.Handle(host.TextDelta{Text: "Let me look."})
	o.Handle(host.ModelCallFinished{Step: 1, ToolCalls: 1})
	o.Handle(host.ToolCallStarted{Call: provider.ToolCall{Name: "fs__list"}, Server: "fs", Tool: "list"})
	o.Handle(host.ToolCallFinished{Call: provider.ToolCall{Name: "fs__list", Arguments: map[string]any{"path": "."}},
		Server: "fs", Tool: "list", Duration: 12 * time.Millisecond, Output: "a.txt\nb.txt"})
	o.Handle(host.ModelCallStarted{Step: 2})
	o.Handle(host.TextDelta{Text: "**Two** files."})
	o.Handle(host.ModelCallFinished{Step: 2})
	o.Finish(host.Result{Answer: "**Two** files."}, nil, 0)

	if got, want := out.String(), "Let me look.\n**Two** files.\n"; got != want {
		t.Errorf("stdout = %q, want %q", got, want)
	}
	if got, want := errOut.String(), "✓ fs › list {\"path\":\".\"} · 12ms · a.txt …\n"; got != want {
		t.Errorf("stderr = %q, want %q", got, want)
	}
	if strings.Contains(out.String(), "\x1b") {
		t.Error("ANSI codes on piped stdout")
	}
}

func TestOneShotQuietPrintsTheAnswerAlone(t *testing.T) {
	var out, errOut bytes.Buffer
	o := NewText(TextOptions{Out: &out, Err: &errOut, Quiet: true})
	o.Handle(host.ToolCallFinished{Call: provider.ToolCall{Name: "x__y"}, Output: "r"})
	o.Handle(host.Warning{Message: "careful"})
	o.Handle(host.TextDelta{Text: "42"})
	o.Finish(host.Result{Answer: "42"}, nil, 0)
	if out.String() != "42\n" || errOut.Len() != 0 {
		t.Errorf("stdout %q, stderr %q", out.String(), errOut.String())
	}
}

func TestOneShotRendersMarkdownOverTheStreamOnATerminal(t *testing.T) {
	term := newVterm(40, 24)
	o := NewText(TextOptions{Out: term, Err: &bytes.Buffer{}, OutTTY: true, Width: 40, NoColor: true})
	o.Handle(host.ModelCallStarted{Step: 1})
	o.Handle(host.TextDelta{Text: "# Title\n\nsome *text*"})
	o.Finish(host.Result{Answer: "# Title\n\nsome *text*"}, nil, 0)
	if got, want := ansi.Strip(term.text()), "   Title\n\n  some text\n\n"; got != want {
		t.Errorf("screen = %q, want %q", got, want)
	}
}

func TestOneShotPrintsAnAnswerThatDidNotStream(t *testing.T) {
	var out bytes.Buffer
	o := NewText(TextOptions{Out: &out, Err: &bytes.Buffer{}})
	o.Finish(host.Result{Answer: "whole answer"}, nil, 0)
	if out.String() != "whole answer\n" {
		t.Errorf("stdout = %q", out.String())
	}
}

func TestSanitize(t *testing.T) {
	tests := map[string]string{
		"plain\ttext\n":                  "plain\ttext\n",
		"red \x1b[31mtext\x1b[0m":        "red text",
		"title \x1b]0;pwned\x07 done":    "title  done",
		"bell\x07 and nul\x00":           "bell and nul",
		"bad \xff utf8":                  "bad \uFFFD utf8",
		"osc st \x1b]8;;http://x\x1b\\y": "osc st y",
		"c1 \u009b2J":                    "c1 2J",
	}
	for in, want := range tests {
		if got := Sanitize(in); got != want {
			t.Errorf("Sanitize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestScreenRows(t *testing.T) {
	tests := []struct {
		text  string
		width int
		want  int
	}{
		{"one line", 80, 1},
		{"a\nb\nc", 80, 3},
		{"ends with newline\n", 80, 2},
		{strings.Repeat("x", 100), 40, 3},
		{"界界界", 4, 2}, // wide runes take two columns
	}
	for _, tt := range tests {
		if got := screenRows(tt.text, tt.width); got != tt.want {
			t.Errorf("screenRows(%q, %d) = %d, want %d", tt.text, tt.width, got, tt.want)
		}
	}
}

func TestToolLineMarksErrorsAndCutsLongOutput(t *testing.T) {
	line := ToolLine(host.ToolCallFinished{
		Call:   provider.ToolCall{Name: "everything__echo", Arguments: map[string]any{"message": strings.Repeat("m", 100)}},
		Server: "everything", Tool: "echo", IsError: true, Duration: 1500 * time.Millisecond,
		Output: "server \"everything\" exited: \x1b[31mboom\x1b[0m",
	})
	if !strings.HasPrefix(line, "✗ everything › echo {\"message\":\"mmm") || !strings.Contains(line, "· 1.5s · server \"everything\" exited: boom") {
		t.Errorf("line = %q", line)
	}
	if strings.Contains(line, "\x1b") || strings.Count(line, "m") > 80 {
		t.Errorf("line not cleaned/cut: %q", line)
	}
}

func TestToolLineMarksACallRecoveredFromText(t *testing.T) {
	ev := host.ToolCallFinished{
		Call:   provider.ToolCall{Name: "everything__echo", Arguments: map[string]any{"message": "hi"}},
		Server: "everything", Tool: "echo", Duration: 3 * time.Millisecond, Output: "Echo: hi", Recovered: true,
	}
	if line := ToolLine(ev); line != `✓ everything › echo {"message":"hi"} (recovered from text) · 3ms · Echo: hi` {
		t.Errorf("line = %q", line)
	}
	ev.Recovered = false
	if line := ToolLine(ev); strings.Contains(line, "recovered") {
		t.Errorf("a native call marked recovered: %q", line)
	}
}

func TestThinkingIsDimmedOnTheTerminalAndNeverInTheAnswer(t *testing.T) {
	for _, hide := range []bool{false, true} {
		var out, errOut bytes.Buffer
		o := NewText(TextOptions{Out: &out, Err: &errOut, ErrTTY: true, HideThinking: hide})
		o.Handle(host.ThinkingDelta{Text: "let me think"})
		o.Handle(host.TextDelta{Text: "answer"})
		o.Finish(host.Result{Answer: "answer"}, nil, 0)
		if out.String() != "answer\n" {
			t.Errorf("hide=%v: stdout = %q", hide, out.String())
		}
		// Shown dimmed while it streams, then collapsed to its summary.
		e := errOut.String()
		shown := strings.Contains(e, "\x1b[2m let me\x1b[22m") && strings.Contains(e, "\x1b[2mthought for ")
		if shown == hide {
			t.Errorf("hide=%v: stderr = %q", hide, errOut.String())
		}
	}
}

func TestRenderMarkdownWithoutColour(t *testing.T) {
	got := RenderMarkdown("# Title\n\nThe server said **hi there**.\n\n- one\n- two", 60, true, Dark)
	if strings.Contains(got, "38;") || strings.Contains(got, "\x1b[3") || strings.Contains(got, "**") {
		t.Errorf("NO_COLOR rendering has colours or raw markup: %q", got)
	}
	// Bold stays (NO_COLOR is about colour); drop it to read the text.
	got = Sanitize(got)
	for _, want := range []string{"Title", "The server said hi there.", "• one"} {
		if !strings.Contains(got, want) {
			t.Errorf("rendering lacks %q: %q", want, got)
		}
	}
}

func TestWarningsAndToolNamesCannotDriveTheTerminal(t *testing.T) {
	var errOut bytes.Buffer
	o := NewText(TextOptions{Out: &bytes.Buffer{}, Err: &errOut})
	o.Handle(host.Warning{Message: "server says \x1b]0;pwned\x07hi"})
	o.Handle(host.ToolCallFinished{Call: provider.ToolCall{Name: "s__t"}, Server: "s", Tool: "t\x1b[2J\nx"})
	if got, want := errOut.String(), "warning: server says hi\n✓ s › t x {} · 0µs · \n"; got != want {
		t.Errorf("stderr = %q, want %q", got, want)
	}
}

// TestPipedAnswerHasNoEscapeSequences: with stdout not a terminal, the
// model's text still loses its escape sequences and control characters,
// also when a sequence is split between two streamed pieces, and keeps
// newlines and tabs.
func TestPipedAnswerHasNoEscapeSequences(t *testing.T) {
	var out bytes.Buffer
	o := NewText(TextOptions{Out: &out, Err: &bytes.Buffer{}})
	for _, piece := range []string{"copy \x1b]52;c;ZXZp", "bA==\x07this\x1b[2J\x1b", "[H\tdone\x07\nbye"} {
		o.Handle(host.TextDelta{Text: piece})
	}
	o.Handle(host.ModelCallFinished{})
	o.Finish(host.Result{}, nil, 0)
	if got, want := out.String(), "copy this\tdone\nbye\n"; got != want {
		t.Errorf("stdout = %q, want %q", got, want)
	}
}

// TestToolLineShowsHiddenCharacters: a tool line shows the characters a
// terminal does not draw as escapes, so "echo hi" with 46 characters
// hidden in it does not read as "echo hi".
func TestToolLineShowsHiddenCharacters(t *testing.T) {
	ev := host.ToolCallFinished{
		Call:   provider.ToolCall{Name: "sh__run", Arguments: map[string]any{"c": "echo h\u200di\U000E0041\u202e\u2029"}},
		Server: "sh", Tool: "run", Duration: 3 * time.Millisecond, Output: "h\u200di\u202e",
	}
	want := `✓ sh › run {"c":"echo h\u200di\udb40\udc41\u202e\u2029"} · 3ms · h\u200di\u202e`
	if line := ToolLine(ev); line != want {
		t.Errorf("line = %q\nwant   %q", line, want)
	}
}
