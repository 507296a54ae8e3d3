package chat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCompleteAtPath(t *testing.T) {
	dir, home := t.TempDir(), t.TempDir()
	for _, name := range []string{"notes/todo.md", "notes/today.txt", "main.go", "main_test.go", ".env", "docs/a.md"} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, "h.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, tt := range []struct {
		input string
		want  []string
	}{
		{"read @no", []string{"read @notes/"}},
		{"read @notes/to", []string{"read @notes/today.txt", "read @notes/todo.md"}},
		{"read @./ma", []string{"read @./main.go", "read @./main_test.go"}},
		{"@main_", []string{"@main_test.go"}},
		{"@.e", []string{"@.env"}},
		{"@", []string{"@docs/", "@main.go", "@main_test.go", "@notes/"}},
		{"@~/h", []string{"@~/h.txt"}},
		{"@" + dir + "/do", []string{"@" + dir + "/docs/"}},
		{"mail a@b", nil},
		{"no at sign", nil},
		{"/tools @no", nil},
		{"@nothing/here", nil},
	} {
		got := completeAtPath(tt.input, home)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("completeAtPath(%q) = %q, want %q", tt.input, got, tt.want)
		}
	}
}
