// Package mcptest provides helpers for tests that drive real MCP servers,
// in the spirit of net/http/httptest: it locates the reference servers
// installed under testdata/npm, starts the "everything" server over
// Streamable HTTP or SSE on a free loopback port, and builds the
// config.ServerSpec values that start the servers over stdio.
//
// Missing servers fail the test rather than skip it: a silently skipped
// integration test is a test that never runs in CI.
package mcptest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcphost/mcphost/config"
)

// npmDir is where the reference servers are installed, relative to the
// module root.
const npmDir = "testdata/npm"

// NPMBin returns the absolute path of the npm executable name installed in
// testdata/npm/node_modules/.bin of the module that holds the working
// directory. It fails the test when the executable is missing.
func NPMBin(t testing.TB, name string) string {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatalf("%s not installed: run \"npm ci --prefix %s\" (%v)", name, npmDir, err)
	}
	path := filepath.Join(root, npmDir, "node_modules", ".bin", name)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("%s not installed: run \"npm ci --prefix %s\"", name, npmDir)
	}
	return path
}

// moduleRoot walks up from the working directory to the directory holding
// go.mod; tests run in their package directory, which may be at any depth.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}

// EverythingSpec returns a spec that starts mcp-server-everything over stdio.
func EverythingSpec(t testing.TB, name string) config.ServerSpec {
	t.Helper()
	return config.ServerSpec{
		Name:      name,
		Transport: config.TransportStdio,
		Command:   NPMBin(t, "mcp-server-everything"),
	}
}

// FilesystemSpec returns a spec that starts mcp-server-filesystem over stdio,
// allowed to access dirs.
func FilesystemSpec(t testing.TB, name string, dirs ...string) config.ServerSpec {
	t.Helper()
	return config.ServerSpec{
		Name:      name,
		Transport: config.TransportStdio,
		Command:   NPMBin(t, "mcp-server-filesystem"),
		Args:      dirs,
	}
}

// MemorySpec returns a spec that starts mcp-server-memory over stdio,
// keeping its knowledge graph in file.
func MemorySpec(t testing.TB, name, file string) config.ServerSpec {
	t.Helper()
	return config.ServerSpec{
		Name:      name,
		Transport: config.TransportStdio,
		Command:   NPMBin(t, "mcp-server-memory"),
		Env:       map[string]string{"MEMORY_FILE_PATH": file},
	}
}
