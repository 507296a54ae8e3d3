package userdirs

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

// write makes dir/name with text in it.
func write(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFor(t *testing.T) {
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
		d := For(c.goos, home, env)
		if d.Config != c.config || d.State != c.state || d.Home != home || d.LegacyState != j(home, ".local", "state", "mcphost") {
			t.Errorf("%s %v: %+v, want config %s, state %s", c.goos, c.env, d, c.config, c.state)
		}
	}
	if d := For("linux", "", func(string) (string, bool) { return "", false }); d.Config != "" || d.State != "" || d.StateFile("history") != "" {
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
