package termtext

import (
	"strings"
	"testing"
)

func TestClean(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain\ttext\n", "plain\ttext\n"},
		{"\x1b[32mgreen\x1b[0m", "green"},
		{"a\r\nb\rc", "a\nb\nc"},
		{"bell\x07 osc\x1b]8;;http://x\x07link\x1b]8;;\x07", "bell osclink"},
		{"c1\u009b31m", "c131m"},
		{"bad \xff utf8", "bad \uFFFD utf8"},
	}
	for _, tt := range tests {
		if got := Clean(tt.in); got != tt.want {
			t.Errorf("Clean(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestLine(t *testing.T) {
	if got := Line("a\tb\nc\x1b[31md\x07"); got != "a b cd" {
		t.Errorf("Line = %q", got)
	}
}

func TestBytes(t *testing.T) {
	for n, want := range map[int]string{0: "0 bytes", 1023: "1023 bytes", 2048: "2.0 KB", 3 << 20: "3.0 MB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestStreamRemovesSequencesSplitAcrossPieces feeds text in pieces cut at
// every byte and expects what Clean makes of the whole: no escape sequence,
// and none of a split sequence's payload, reaches the output.
func TestStreamRemovesSequencesSplitAcrossPieces(t *testing.T) {
	texts := []string{
		"before \x1b]52;c;ZXZpbA==\x07after",
		"title \x1b]0;pwned\x1b\\ done",
		"red \x1b[31mtext\x1b[0m and clear \x1b[2J\x1b[H end",
		"line\r\nnext é and 日本",
	}
	for _, text := range texts {
		want := Clean(text)
		for cut := 1; cut < len(text); cut++ {
			var s Stream
			got := s.Write(text[:cut]) + s.Write(text[cut:]) + s.Flush()
			if got != want {
				t.Errorf("%q cut at %d: got %q, want %q", text, cut, got, want)
			}
		}
	}
}

func TestStreamDoesNotHoldForever(t *testing.T) {
	var s Stream
	s.Write("\x1b]0;never ends ")
	got := s.Write(strings.Repeat("x", maxHeld+1))
	if s.held != "" {
		t.Errorf("still holding %d bytes after more than %d", len(s.held), maxHeld)
	}
	if strings.ContainsRune(got, '\x1b') {
		t.Errorf("an escape got through: %q", got)
	}
}

func TestRevealJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a":"plain ünïcode 界"}`, `{"a":"plain ünïcode 界"}`},
		{"{\n\t\"a\": \"zw\u200bj\u200dnj\u200c\"\n}", "{\n\t\"a\": \"zw\\u200bj\\u200dnj\\u200c\"\n}"},
		{"\u2066bidi\u202e \u2028\u2029 \ufeff \u2060\u2064 \u00ad", `\u2066bidi\u202e \u2028\u2029 \ufeff \u2060\u2064 \u00ad`},
		{"tag\U000E0001\U000E007F", `tag\udb40\udc01\udb40\udc7f`},
		{"bell\x07 c1\u0085", `bell\u0007 c1\u0085`},
	}
	for _, tt := range tests {
		if got := RevealJSON(tt.in); got != tt.want {
			t.Errorf("RevealJSON(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestReveal(t *testing.T) {
	if got, want := Reveal("read\u200bfile\t\U000E0041\x1b[31m"), "read<U+200B>file <U+E0041>"; got != want {
		t.Errorf("Reveal = %q, want %q", got, want)
	}
}

func TestRevealTextKeepsLines(t *testing.T) {
	if got, want := RevealText("a\u2066\nb\tc"), "a<U+2066>\nb\tc"; got != want {
		t.Errorf("RevealText = %q, want %q", got, want)
	}
}
