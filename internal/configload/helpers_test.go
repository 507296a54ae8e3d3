package configload

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/pflag"

	"github.com/mcphost/mcphost/config"
)

// fixture is an isolated home and work directory, environment and argv.
type fixture struct {
	home, work string
	env        map[string]string
	args       []string
	// untrusted leaves the project files to the trust record; by default
	// the fixture trusts them, as --trust-project does, since most tests
	// are about what a project file says.
	untrusted bool
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

func (fx *fixture) load(t *testing.T) (*config.Settings, error) {
	t.Helper()
	// As the mcphost command loads.
	return fx.loadWith(t, LoadOptions{DefaultServer: true})
}

// loadWith loads with opts, its flags, directories and environment the
// fixture's.
func (fx *fixture) loadWith(t *testing.T, opts LoadOptions) (*config.Settings, error) {
	t.Helper()
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	RegisterFlags(fs)
	if err := fs.Parse(fx.args); err != nil {
		t.Fatalf("parsing %q: %v", fx.args, err)
	}
	opts.Flags, opts.WorkDir, opts.HomeDir, opts.Env = fs, fx.work, fx.home, fx.lookup
	opts.TrustProject = opts.TrustProject || !fx.untrusted
	return Load(opts)
}

// settingsFixture is a fixture with a project .mcphost.yml holding file
// (none when empty), the variables of env and the command line args.
func settingsFixture(t *testing.T, file string, env map[string]string, args []string) *fixture {
	t.Helper()
	fx := newFixture(t)
	if file != "" {
		write(t, fx.work, ".mcphost.yml", file)
	}
	for k, v := range env {
		fx.env[k] = v
	}
	fx.args = args
	return fx
}

func (fx *fixture) mustLoad(t *testing.T) *config.Settings {
	t.Helper()
	s, err := fx.load(t)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return s
}
