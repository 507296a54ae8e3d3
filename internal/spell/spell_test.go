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

func TestNearest(t *testing.T) {
	names := []string{"gemma2:2b", "qwen3:8b", "gemma3:4b", "llama3.2"}
	got := Nearest(names, 2, func(n string) (int, bool) {
		d := Distance("gema2:2b", n) // 1 and 3 from the first and third
		return d, d <= 3
	})
	if len(got) != 2 || got[0] != "gemma2:2b" || got[1] != "gemma3:4b" {
		t.Errorf("Nearest = %q, want gemma2:2b then gemma3:4b", got)
	}
	if got := Nearest(names, 3, func(string) (int, bool) { return 0, false }); len(got) != 0 {
		t.Errorf("names too far were suggested: %q", got)
	}
}

func TestFoldKey(t *testing.T) {
	for _, k := range []string{"mcpServers", "mcp-servers", "mcp_servers", "MCPSERVERS"} {
		if got := FoldKey(k); got != "mcpservers" {
			t.Errorf("FoldKey(%q) = %q, want mcpservers", k, got)
		}
	}
}
