package configload

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// abs is an absolute path on this system: /p, or C:\p on Windows.
func abs(p string) string {
	if runtime.GOOS == "windows" {
		return `C:` + filepath.FromSlash(p)
	}
	return filepath.FromSlash(p)
}

func TestUserDirs(t *testing.T) {
	j := filepath.Join
	home := abs("/h")
	cases := []struct {
		goos          string
		env           map[string]string
		config, state string
	}{
		{"linux", nil, j(home, ".config", "mcphost"), j(home, ".local", "state", "mcphost")},
		{"linux", map[string]string{"XDG_CONFIG_HOME": abs("/x/c"), "XDG_STATE_HOME": abs("/x/s")},
			abs("/x/c/mcphost"), abs("/x/s/mcphost")},
		// A relative XDG value is ignored, as the spec says.
		{"freebsd", map[string]string{"XDG_CONFIG_HOME": "rel"}, j(home, ".config", "mcphost"), j(home, ".local", "state", "mcphost")},
		{"darwin", nil, j(home, "Library", "Application Support", "mcphost"), j(home, "Library", "Application Support", "mcphost")},
		{"darwin", map[string]string{"XDG_CONFIG_HOME": abs("/x/c")},
			abs("/x/c/mcphost"), j(home, "Library", "Application Support", "mcphost")},
		{"windows", nil, j(home, "AppData", "Roaming", "mcphost"), j(home, "AppData", "Local", "mcphost")},
		{"windows", map[string]string{"APPDATA": abs("/r"), "LOCALAPPDATA": abs("/l"), "XDG_CONFIG_HOME": abs("/x")},
			abs("/r/mcphost"), abs("/l/mcphost")},
	}
	for _, c := range cases {
		env := func(k string) (string, bool) { v, ok := c.env[k]; return v, ok }
		d := UserDirs(c.goos, home, env)
		if d.Config != c.config || d.State != c.state || d.Home != home || d.LegacyState != j(home, ".local", "state", "mcphost") {
			t.Errorf("%s %v: %+v, want config %s, state %s", c.goos, c.env, d, c.config, c.state)
		}
	}
	if d := UserDirs("linux", "", func(string) (string, bool) { return "", false }); d.Config != "" || d.State != "" || d.StateFile("history") != "" {
		t.Errorf("no home: %+v", d)
	}
}

// TestStateFile: the platform's directory, unless only the old one has
// the file.
func TestStateFile(t *testing.T) {
	root := t.TempDir()
	d := Dirs{State: filepath.Join(root, "new"), LegacyState: filepath.Join(root, "old")}
	if got, want := d.StateFile("history"), filepath.Join(root, "new", "history"); got != want {
		t.Errorf("neither exists: %s, want %s", got, want)
	}
	write(t, d.LegacyState, "history", "x")
	if got, want := d.StateFile("history"), filepath.Join(root, "old", "history"); got != want {
		t.Errorf("only the old one: %s, want %s", got, want)
	}
	write(t, d.State, "history", "y")
	if got, want := d.StateFile("history"), filepath.Join(root, "new", "history"); got != want {
		t.Errorf("both: %s, want %s", got, want)
	}
}

// TestConfigDirFile: the platform's config file is a user file: above the
// home directory's dotfiles, below the project's files.
func TestConfigDirFile(t *testing.T) {
	fx := newFixture(t)
	dirs := UserDirs(runtime.GOOS, fx.home, fx.lookup)
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
