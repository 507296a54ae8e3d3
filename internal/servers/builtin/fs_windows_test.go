package builtin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFSWindowsPaths: paths with either slash, a drive letter in either
// case, or none, reach the file in the allowed directory; another drive's
// path is refused; what the model sees uses backslashes.
func TestFSWindowsPaths(t *testing.T) {
	f := newFSFixture(t)
	if err := os.WriteFile(filepath.Join(f.allowed, "win.txt"), []byte("drive letters"), 0o644); err != nil {
		t.Fatal(err)
	}
	full := filepath.Join(f.allowed, "win.txt")
	vol := filepath.VolumeName(full)
	for _, p := range []string{
		full,
		filepath.ToSlash(full),
		strings.ToLower(vol) + full[len(vol):],
		full[len(vol):], // rooted, no drive
		"win.txt",
	} {
		if got := mustOK(t, f.cs, "read_file", map[string]any{"path": p}); got != "drive letters" {
			t.Errorf("read_file %q = %q", p, got)
		}
	}
	other := "Q:" + full[len(vol):]
	mustFail(t, f.cs, "read_file", map[string]any{"path": other}, "outside the allowed directories")
	mustFail(t, f.cs, "read_file", map[string]any{"path": "Q:win.txt"}, "ambiguous")
	got := mustOK(t, f.cs, "search_files", map[string]any{"path": ".", "pattern": "win"})
	if got != full {
		t.Errorf("search_files = %q, want %q", got, full)
	}
}

// TestFSProtectionKnowsWindowsSpellings: a trailing dot or space, or the
// name of the file's data stream, spell the same file on Windows.
func TestFSProtectionKnowsWindowsSpellings(t *testing.T) {
	p := newProtectedProject(t, nil)
	for _, path := range []string{".mcp.json.", ".mcp.json ", ".mcp.json::$DATA", ".mcphost.yml.", ".MCPHOST\\guard.sh"} {
		mustFail(t, p.cs, "write_file", map[string]any{"path": path, "content": "x"}, "refused")
	}
	p.unchanged(t, ".mcp.json", mcpJSON)
	p.absent(t, ".mcphost.yml")
}
