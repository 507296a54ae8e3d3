package toolcall_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/internal/toolcall"
)

func testCatalog() *toolcall.Catalog {
	return toolcall.NewCatalog([]toolcall.Tool{
		{Exposed: "everything__echo", Server: "everything", Name: "echo"},
		{Exposed: "everything__get-sum", Server: "everything", Name: "get-sum"},
		{Exposed: "files__read_file", Server: "files", Name: "read_file"},
		{Exposed: "notes__read_file", Server: "notes", Name: "read_file"},
		{Exposed: "files__list_directory", Server: "files", Name: "list_directory"},
	})
}

func TestResolve(t *testing.T) {
	c := testCatalog()
	tests := []struct{ name, want string }{
		{"everything__echo", "everything__echo"},
		{"echo", "everything__echo"},
		{"ECHO", "everything__echo"},
		{"everything.echo", "everything__echo"},
		{"everything/echo", "everything__echo"},
		{"everything_echo", "everything__echo"},
		{"everything:echo", "everything__echo"},
		{"Everything.Echo", "everything__echo"},
		{"get_sum", "everything__get-sum"},
		{"everything.get_sum", "everything__get-sum"},
		{"functions.echo", "everything__echo"},
		{"default_api.get-sum", "everything__get-sum"},
		{"files.read_file", "files__read_file"},
		{"notes/read_file", "notes__read_file"},
		{"list_directory", "files__list_directory"},
	}
	for _, tt := range tests {
		got, err := c.Resolve(tt.name)
		if err != nil || got != tt.want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
}

func TestResolveAmbiguousAndUnknown(t *testing.T) {
	c := testCatalog()
	_, err := c.Resolve("read_file")
	var ne *toolcall.NameError
	if !errors.As(err, &ne) || !slices.Equal(ne.Matches, []string{"files__read_file", "notes__read_file"}) {
		t.Fatalf("read_file: %v, want ambiguous between files and notes", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "ambiguous") || !strings.Contains(msg, `"notes__read_file"`) {
		t.Errorf("ambiguous message %q", msg)
	}

	_, err = c.Resolve("list_dir")
	if !errors.As(err, &ne) || len(ne.Matches) != 0 || len(ne.Closest) == 0 || ne.Closest[0] != "files__list_directory" {
		t.Fatalf("list_dir: %v, want unknown with files__list_directory closest", err)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, `unknown tool "list_dir"; the closest tools are "files__list_directory"`) {
		t.Errorf("unknown message %q", msg)
	}

	_, err = toolcall.NewCatalog(nil).Resolve("x")
	if err == nil || err.Error() != `unknown tool "x": no tools are available` {
		t.Errorf("empty catalog: %v", err)
	}
}
