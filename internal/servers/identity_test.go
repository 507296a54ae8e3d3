package servers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcphost/mcphost/config"
)

// writeFile writes content at path, its modification time set to mtime,
// so that two versions differ only where a test wants them to.
func writeFile(t *testing.T, path, content string, mtime time.Time) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

// TestCacheKeyFollowsTheProgram: an upgrade in place (the executable, the
// script an interpreter runs, the package npx or uvx runs) is another
// cache file; a data file named in the arguments of a program that is
// not a launcher is not part of the key.
func TestCacheKeyFollowsTheProgram(t *testing.T) {
	c := &toolCache{dir: t.TempDir()}
	dir := t.TempDir()
	then := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	later := then.Add(time.Hour)
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("npm_config_cache", filepath.Join(home, ".npm"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	t.Setenv("UV_TOOL_DIR", "")

	changes := []struct {
		name   string
		spec   config.ServerSpec
		before func()
		after  func()
	}{
		{"the executable's size", config.ServerSpec{Command: filepath.Join(dir, "srv")},
			func() { writeFile(t, filepath.Join(dir, "srv"), "#!/bin/sh\nexit 0\n", then) },
			func() { writeFile(t, filepath.Join(dir, "srv"), "#!/bin/sh\nexit 10\n", then) }},
		{"the executable's mtime", config.ServerSpec{Command: filepath.Join(dir, "srv2")},
			func() { writeFile(t, filepath.Join(dir, "srv2"), "v1", then) },
			func() { writeFile(t, filepath.Join(dir, "srv2"), "v2", later) }},
		{"an interpreter's script", config.ServerSpec{Command: "sh", Args: []string{"-e", "server.sh", "--port", "1"}, Dir: dir},
			func() { writeFile(t, filepath.Join(dir, "server.sh"), "exit 0\n", then) },
			func() { writeFile(t, filepath.Join(dir, "server.sh"), "exit 0\n", later) }},
		{"npx's package in the project", config.ServerSpec{Command: "npx", Args: []string{"-y", "@acme/mcp-server@latest"}, Dir: filepath.Join(dir, "sub")},
			func() {
				writeFile(t, filepath.Join(dir, "node_modules", "@acme", "mcp-server", "package.json"), `{"name":"@acme/mcp-server","version":"1.2.3"}`, then)
				_ = os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
			},
			func() {
				writeFile(t, filepath.Join(dir, "node_modules", "@acme", "mcp-server", "package.json"), `{"name":"@acme/mcp-server","version":"1.2.4"}`, then)
			}},
		{"npx's package in its cache", config.ServerSpec{Command: "npx", Args: []string{"-y", "mcp-thing"}, Dir: dir},
			func() {
				writeFile(t, filepath.Join(home, ".npm", "_npx", npxHash([]string{"mcp-thing"}), "node_modules", "mcp-thing", "package.json"), `{"version":"0.1.0"}`, then)
			},
			func() {
				writeFile(t, filepath.Join(home, ".npm", "_npx", npxHash([]string{"mcp-thing"}), "node_modules", "mcp-thing", "package.json"), `{"version":"0.2.0"}`, then)
			}},
		{"uvx's installed tool", config.ServerSpec{Command: "uvx", Args: []string{"mcp-server-fetch"}, Dir: dir},
			func() {
				writeFile(t, filepath.Join(home, "data", "uv", "tools", "mcp-server-fetch", "lib", "python3.12", "site-packages", "mcp_server_fetch-1.0.dist-info", "METADATA"), "", then)
			},
			func() {
				_ = os.RemoveAll(filepath.Join(home, "data", "uv", "tools", "mcp-server-fetch", "lib", "python3.12", "site-packages", "mcp_server_fetch-1.0.dist-info"))
				writeFile(t, filepath.Join(home, "data", "uv", "tools", "mcp-server-fetch", "lib", "python3.12", "site-packages", "mcp_server_fetch-1.1.dist-info", "METADATA"), "", then)
			}},
	}
	for _, tc := range changes {
		t.Run(tc.name, func(t *testing.T) {
			tc.spec.Name, tc.spec.Transport = "s", config.TransportStdio
			tc.before()
			before := c.path(tc.spec)
			if again := c.path(tc.spec); again != before {
				t.Fatal("the key changed with nothing changed")
			}
			tc.after()
			if c.path(tc.spec) == before {
				t.Error("the upgrade kept the cache file")
			}
		})
	}

	// A program's own data file may change at every run.
	writeFile(t, filepath.Join(dir, "prog"), "binary", then)
	writeFile(t, filepath.Join(dir, "data.db"), "1", then)
	spec := config.ServerSpec{Name: "s", Transport: config.TransportStdio, Command: filepath.Join(dir, "prog"), Args: []string{"--db", "data.db"}, Dir: dir}
	before := c.path(spec)
	writeFile(t, filepath.Join(dir, "data.db"), "12", later)
	if c.path(spec) != before {
		t.Error("a data file in a program's arguments is part of the key")
	}
}

func TestPackageNames(t *testing.T) {
	for spec, want := range map[string]string{"@scope/name@1.2": "@scope/name", "name@latest": "name", "name": "name",
		"./local": "", "github:owner/repo": "", "owner/repo": "", "https://x/y.tgz": ""} {
		if got := npmPackageName(spec); got != want {
			t.Errorf("npmPackageName(%q) = %q, want %q", spec, got, want)
		}
	}
	for req, want := range map[string]string{"mcp-server-fetch==1.2": "mcp-server-fetch", "Pkg_Name[extra]@latest": "pkg-name", "git+https://x": ""} {
		if got := pythonPackageName(req); got != want {
			t.Errorf("pythonPackageName(%q) = %q, want %q", req, got, want)
		}
	}
	// npm's own folder for "npx -y @modelcontextprotocol/server-everything"
	// (~/.npm/_npx/<hash>), as npm 11's libnpmexec computes it (checked
	// with node's crypto).
	if got := npxHash([]string{"@modelcontextprotocol/server-everything"}); got != "5b2dd62b9d0bddd4" {
		t.Errorf("npxHash = %q", got)
	}
}

// BenchmarkCacheKey is the key of a server run by npx, the costliest kind
// to identify (its package looked up in the project, beside npm and in
// npx's cache), computed for every cached server at every start.
func BenchmarkCacheKey(b *testing.B) {
	home := b.TempDir()
	b.Setenv("npm_config_cache", filepath.Join(home, ".npm"))
	pkg := filepath.Join(home, ".npm", "_npx", npxHash([]string{"@acme/mcp-server"}), "node_modules", "@acme", "mcp-server", "package.json")
	if err := os.MkdirAll(filepath.Dir(pkg), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(pkg, []byte(`{"name":"@acme/mcp-server","version":"1.2.3","description":"`+strings.Repeat("x", 2000)+`"}`), 0o644); err != nil {
		b.Fatal(err)
	}
	spec := config.ServerSpec{Name: "s", Transport: config.TransportStdio, Command: "npx", Args: []string{"-y", "@acme/mcp-server"}, Dir: home}
	c := &toolCache{dir: b.TempDir()}
	b.ReportAllocs()
	for b.Loop() {
		_ = c.path(spec)
	}
}
