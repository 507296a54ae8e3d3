package termtext

import "testing"

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
