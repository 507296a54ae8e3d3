package config

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportsNoLoader keeps config the vocabulary: a program (or package)
// that needs a ServerSpec must not pull in the loader's viper, YAML and
// flag parsing, which live in internal/configload.
func TestImportsNoLoader(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	var loaders []string
	for _, dep := range strings.Fields(string(out)) {
		for _, loader := range []string{"github.com/spf13/viper", "github.com/spf13/pflag", "yaml", "internal/configload"} {
			if strings.Contains(dep, loader) {
				loaders = append(loaders, dep)
				break
			}
		}
	}
	if len(loaders) > 0 {
		t.Errorf("config depends on %s; loading belongs in internal/configload", strings.Join(loaders, ", "))
	}
}

func TestHookRuleMatches(t *testing.T) {
	for _, tt := range []struct {
		matcher string
		name    string
		want    bool
	}{
		{"", "fs__read", true},
		{"*", "", true},
		{"bash__run", "bash__run", true},
		{"bash", "bash__run", true}, // a regular expression found in the name
		{"^fs__(read|list)", "fs__read", true},
		{"^fs__(read|list)", "fs__write", false},
		{"bash", "", false}, // events without a tool match only "" and "*"
	} {
		rule, err := NewHookRule(tt.matcher, "hooks.yml")
		if err != nil {
			t.Fatalf("NewHookRule(%q): %v", tt.matcher, err)
		}
		if got := rule.Matches(tt.name); got != tt.want {
			t.Errorf("matcher %q on %q = %v, want %v", tt.matcher, tt.name, got, tt.want)
		}
	}
	if _, err := NewHookRule("fs__(", "hooks.yml"); err == nil {
		t.Error(`NewHookRule("fs__(") accepted a broken regular expression`)
	}
}
