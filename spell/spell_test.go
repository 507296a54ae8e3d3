package spell

import "testing"

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"modle", "model", 1}, // a swap is one slip
		{"", "abc", 3},
		{"kitten", "sitting", 3},
		{"excludetools", "excludedtools", 1},
		{"same", "same", 0},
		{"gemma2:2b", "gema2:2b", 1},
		{"café", "cafe", 1}, // runes, not bytes
	} {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
