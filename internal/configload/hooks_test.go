package configload

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcphost/mcphost/config"
)

func TestHooksFromEveryPlace(t *testing.T) {
	fx := newFixture(t)
	// The user's hooks file, with hooks: at the top.
	write(t, filepath.Join(fx.home, ".config", "mcphost"), "hooks.yml", "hooks:\n  PreToolUse:\n    - matcher: bash\n      hooks: [{type: command, command: guard.sh, timeout: 5}]\n")
	// A config file's hooks: section.
	write(t, fx.home, ".mcphost.yml", "hooks:\n  Stop:\n    - hooks: [{type: command, command: notify.sh}]\n")
	// The project's hooks file, events at the top (trusted by the fixture).
	write(t, filepath.Join(fx.work, ".mcphost"), "hooks.json", `{"userpromptsubmit": [{"hooks": [{"type": "command", "command": "ctx.sh"}]}]}`)
	s, err := fx.load(t)
	if err != nil {
		t.Fatal(err)
	}
	pre := s.Hooks[config.HookPreToolUse]
	if len(pre) != 1 || pre[0].Commands[0].Command != "guard.sh" || pre[0].Commands[0].Timeout != 5*time.Second ||
		!pre[0].Matches("bash__run") || pre[0].Matches("fs__read") || !strings.HasSuffix(pre[0].File, "hooks.yml") {
		t.Errorf("PreToolUse %+v", pre)
	}
	if stop := s.Hooks[config.HookStop]; len(stop) != 1 || stop[0].Commands[0].Timeout != config.DefaultHookTimeout || !stop[0].Matches("") {
		t.Errorf("Stop %+v", stop)
	}
	if ups := s.Hooks[config.HookUserPromptSubmit]; len(ups) != 1 || ups[0].Commands[0].Command != "ctx.sh" {
		t.Errorf("UserPromptSubmit %+v", ups)
	}
	// Untrusted, the project's hooks file is left out and named.
	fx.untrusted = true
	s, err = fx.load(t)
	if err != nil || len(s.Hooks[config.HookUserPromptSubmit]) != 0 || len(s.Untrusted) != 1 || !strings.Contains(s.Untrusted[0].Name(), "hooks.json") {
		t.Errorf("untrusted: %+v, %v", s.Untrusted, err)
	}
}

func TestHooksErrors(t *testing.T) {
	for content, want := range map[string]string{
		"hooks: [1]\n":               `"hooks" must be an object of events`,
		"hooks:\n  OnStart: []\n":    `"OnStart" is not a hook event`,
		"hooks:\n  PostToolUs: []\n": `"PostToolUs" is not a hook event: did you mean "PostToolUse"?`,
		"hooks:\n  Stop: {x: 1}\n":   "Stop: must be a list",
		"hooks:\n  Stop:\n    - matcher: \"(\"\n      hooks: [{command: x}]\n": "is not a regular expression",
		"hooks:\n  Stop:\n    - hooks: []\n":                                   "needs hooks",
		"hooks:\n  Stop:\n    - hooks: [{type: prompt, command: x}]\n":         "type prompt is not supported",
		"hooks:\n  Stop:\n    - hooks: [{type: command}]\n":                    "needs command",
		"hooks:\n  Stop:\n    - hooks: [{command: x, timeout: -1}]\n":          "timeout must be a number of seconds",
	} {
		fx := newFixture(t)
		write(t, fx.home, ".mcphost.yml", content)
		if _, err := fx.load(t); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", content, err, want)
		}
	}
}
