package configload

import (
	"strings"
	"testing"
)

// TestYAMLErrorsNameTheLine checks that a YAML mistake is reported on its
// own line, with the file's name, where yaml alone names the line a
// block began on (line 1 for the first two cases).
func TestYAMLErrorsNameTheLine(t *testing.T) {
	for _, tt := range []struct{ name, content, want string }{
		{"under-indented key", "mcpServers:\n  fs:\n    command: echo\n   args: x\n", "line 4: did not find expected key"},
		{"list item in a mapping", "mcpServers:\n  fs:\n    command: echo\n  - x\n", "line 4: did not find expected key"},
		{"unclosed list", "model: x\nmcpServers:\n  fs:\n    args: [a, b\n    command: echo\n", "line 4: "},
		{"tab", "model: x\nmax-steps: 3\nfoo: bar\n\tbaz: 1\n", "line 4: found a tab character"},
		{"key twice", "model: x\nmax-steps: 3\nfoo: bar\nmodel: y\n", `line 4: mapping key "model" already defined at line 1`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(t)
			write(t, fx.work, ".mcphost.yml", tt.content)
			_, err := fx.load(t)
			if err == nil || !strings.HasPrefix(err.Error(), ".mcphost.yml: "+tt.want) || strings.Count(err.Error(), "\n") > 0 {
				t.Errorf("error %v, want .mcphost.yml: %s… on one line", err, tt.want)
			}
		})
	}
	// The front matter of a script counts lines from the top of the file.
	fx := newFixture(t)
	path := write(t, fx.work, "s.sh", "#!/usr/bin/env -S mcphost script\n---\nmcpServers:\n  fs:\n    command: echo\n   args: x\n---\nhi\n")
	_, err := fx.loadWith(t, LoadOptions{ScriptPath: path})
	if err == nil || !strings.Contains(err.Error(), "line 6: did not find expected key") {
		t.Errorf("script error %v, want line 6", err)
	}
}
