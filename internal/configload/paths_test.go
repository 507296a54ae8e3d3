package configload

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/mcphost/mcphost/internal/userdirs"
)

// abs is an absolute path on this system: /p, or C:\p on Windows.
func abs(p string) string {
	if runtime.GOOS == "windows" {
		return `C:` + filepath.FromSlash(p)
	}
	return filepath.FromSlash(p)
}

// TestConfigDirFile: the platform's config file is a user file: above the
// home directory's dotfiles, below the project's files.
func TestConfigDirFile(t *testing.T) {
	fx := newFixture(t)
	dirs := userdirs.For(runtime.GOOS, fx.home, fx.lookup)
	write(t, fx.home, ".mcphost.yml", "model: home\nmax-steps: 3\nnum-ctx: 100\n")
	cfg := write(t, dirs.Config, "config.yml", "model: platform\nmax-steps: 5\n")
	s, err := fx.load(t)
	if err != nil {
		t.Fatal(err)
	}
	if s.Model != "platform" || s.MaxSteps != 5 || s.NumCtx != 100 {
		t.Errorf("model %q, max-steps %d, num-ctx %d: want the platform file over the dotfile", s.Model, s.MaxSteps, s.NumCtx)
	}
	write(t, fx.work, ".mcphost.yml", "model: project\n")
	if s, err = fx.load(t); err != nil || s.Model != "project" || s.MaxSteps != 5 {
		t.Errorf("with a project file: %+v, %v", s, err)
	}
	found := false
	for _, f := range s.Files {
		found = found || f == cfg
	}
	if !found {
		t.Errorf("Files = %v, want %s among them", s.Files, cfg)
	}
	if err := os.Remove(cfg); err != nil {
		t.Fatal(err)
	}
	write(t, dirs.Config, "config.json", `{"max-steps": 7}`)
	if s, err = fx.load(t); err != nil || s.MaxSteps != 7 {
		t.Errorf("config.json: %+v, %v", s, err)
	}
}

func TestHomeRelative(t *testing.T) {
	home := abs("/h")
	cases := map[string]string{
		"~":                                  home,
		"~/a/b":                              filepath.Join(home, "a", "b"),
		"~" + string(os.PathSeparator) + "c": filepath.Join(home, "c"),
		"~user/x":                            "~user/x",
		"a/~/b":                              "a/~/b",
	}
	for in, want := range cases {
		got, ok := homeRelative(in, home)
		if got != want || ok != (got != in) {
			t.Errorf("homeRelative(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if got, ok := homeRelative("~/x", ""); ok || got != "~/x" {
		t.Errorf("without a home: %q, %v", got, ok)
	}
}
