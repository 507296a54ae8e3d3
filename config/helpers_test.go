package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/pflag"
)

// fixture is an isolated home and work directory, environment and argv.
type fixture struct {
	home, work string
	env        map[string]string
	args       []string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	root := t.TempDir()
	fx := &fixture{home: filepath.Join(root, "home"), work: filepath.Join(root, "work"), env: map[string]string{}}
	for _, d := range []string{fx.home, fx.work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return fx
}

// write creates dir/name with content and returns its path.
func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func (fx *fixture) lookup(k string) (string, bool) {
	v, ok := fx.env[k]
	return v, ok
}

func (fx *fixture) load(t *testing.T) (*Settings, error) {
	t.Helper()
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	RegisterFlags(fs)
	if err := fs.Parse(fx.args); err != nil {
		t.Fatalf("parsing %q: %v", fx.args, err)
	}
	return Load(LoadOptions{Flags: fs, WorkDir: fx.work, HomeDir: fx.home, Env: fx.lookup})
}

func (fx *fixture) mustLoad(t *testing.T) *Settings {
	t.Helper()
	s, err := fx.load(t)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return s
}
