package servers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/config"
)

// TestCacheKeyHoldsWhatDecidesTheTools: the same command line started
// from two folders, or resolving to two files, is two servers; a spec
// without a working directory is the one started from mcphost's own; the
// cache file is named by a hash, so a header's value never appears in it.
func TestCacheKeyHoldsWhatDecidesTheTools(t *testing.T) {
	c := &toolCache{dir: t.TempDir()}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	a, b := t.TempDir(), t.TempDir()
	for _, d := range []string{a, b} {
		if err := os.WriteFile(filepath.Join(d, "server.sh"), []byte("exit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	spec := config.ServerSpec{Name: "s", Transport: config.TransportStdio, Command: "sh", Args: []string{"server.sh"}}
	inA, inB, here := spec, spec, spec
	inA.Dir, inB.Dir, here.Dir = a, b, wd
	if c.path(inA) == c.path(inB) {
		t.Error("the same command line in two folders shares a cache file")
	}
	if c.path(spec) != c.path(here) {
		t.Error("a spec without a folder is not keyed by mcphost's own working directory")
	}
	scriptA, scriptB := spec, spec
	scriptA.Command, scriptB.Command = "./server.sh", "./server.sh"
	scriptA.Dir, scriptB.Dir = a, b
	if c.path(scriptA) == c.path(scriptB) {
		t.Error("a relative command that names two files shares a cache file")
	}
	remote := config.ServerSpec{Name: "r", Transport: config.TransportHTTP, URL: "https://example.com/mcp", Headers: map[string]string{"Authorization": "Bearer tok-123"}}
	other := remote
	other.Headers = map[string]string{"Authorization": "Bearer tok-456"}
	if c.path(remote) == c.path(other) {
		t.Error("two servers that differ in their headers share a cache file")
	}
	if strings.Contains(c.path(remote), "tok-123") {
		t.Errorf("the cache file's name holds a header value: %s", c.path(remote))
	}
}
