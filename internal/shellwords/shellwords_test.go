package shellwords

import (
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"npx -y @scope/server  /tmp", []string{"npx", "-y", "@scope/server", "/tmp"}},
		{`node 'my server.js' "a \"b\" \$c" d\ e ''`, []string{"node", "my server.js", `a "b" $c`, "d e", ""}},
		{"  ", nil},
	}
	for _, tt := range tests {
		got, err := Split(tt.in)
		if err != nil || strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
			t.Errorf("Split(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{`a 'b`, `a "b`} {
		if _, err := Split(bad); err == nil {
			t.Errorf("Split(%q): no error", bad)
		}
	}
}
