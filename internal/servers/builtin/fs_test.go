package builtin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fsFixture is an allowed directory beside a directory the server must
// never reach, each with a file.
type fsFixture struct {
	allowed, outside string
	cs               *mcp.ClientSession
}

const outsideText = "TOP SECRET outside the allowed directory"

func newFSFixture(t *testing.T) *fsFixture {
	t.Helper()
	base := t.TempDir()
	f := &fsFixture{allowed: filepath.Join(base, "allowed"), outside: filepath.Join(base, "outside")}
	for _, d := range []string{f.allowed, f.outside, filepath.Join(f.allowed, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(f.outside, "secret.txt"), outsideText)
	writeFile(t, filepath.Join(f.allowed, "notes.txt"), "one\ntwo\nthree\n")
	writeFile(t, filepath.Join(f.allowed, "sub", "deep.md"), "# deep\n")
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	srv, err := NewFS(ctx, FSOptions{AllowedDirectories: []string{f.allowed}})
	if err != nil {
		t.Fatal(err)
	}
	f.cs = connect(t, srv)
	return f
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func TestFSReadListSearchInfo(t *testing.T) {
	f := newFSFixture(t)
	if got := mustOK(t, f.cs, "read_file", map[string]any{"path": "notes.txt"}); got != "one\ntwo\nthree\n" {
		t.Errorf("read relative = %q", got)
	}
	if got := mustOK(t, f.cs, "read_file", map[string]any{"path": filepath.Join(f.allowed, "notes.txt"), "head": 1}); got != "one\n" {
		t.Errorf("head = %q", got)
	}
	if got := mustOK(t, f.cs, "read_file", map[string]any{"path": "notes.txt", "tail": 2}); got != "two\nthree\n" {
		t.Errorf("tail = %q", got)
	}
	// Inside paths that pass through ".." stay allowed.
	if got := mustOK(t, f.cs, "read_file", map[string]any{"path": "sub/../notes.txt"}); got != "one\ntwo\nthree\n" {
		t.Errorf("read sub/../notes.txt = %q", got)
	}
	list := mustOK(t, f.cs, "list_directory", map[string]any{"path": "."})
	for _, want := range []string{"[FILE] notes.txt (14 B)", "[DIR] sub/"} {
		if !strings.Contains(list, want) {
			t.Errorf("list lacks %q:\n%s", want, list)
		}
	}
	if got := mustOK(t, f.cs, "search_files", map[string]any{"path": ".", "pattern": "*.md"}); got != filepath.Join(f.allowed, "sub", "deep.md") {
		t.Errorf("search *.md = %q", got)
	}
	if got := mustOK(t, f.cs, "search_files", map[string]any{"path": ".", "pattern": "NOTE"}); got != filepath.Join(f.allowed, "notes.txt") {
		t.Errorf("search NOTE = %q", got)
	}
	info := mustOK(t, f.cs, "get_file_info", map[string]any{"path": "notes.txt"})
	if !strings.Contains(info, "type: file") || !strings.Contains(info, "size: 14 bytes") {
		t.Errorf("info = %q", info)
	}
	if got := mustOK(t, f.cs, "list_allowed_directories", nil); got != f.allowed {
		t.Errorf("allowed = %q", got)
	}
	writeFile(t, filepath.Join(f.allowed, "blob.bin"), "\x00\x01\x02")
	if got := mustOK(t, f.cs, "read_file", map[string]any{"path": "blob.bin"}); !strings.Contains(got, "binary file of 3 bytes") {
		t.Errorf("binary = %q", got)
	}
	mustFail(t, f.cs, "read_file", map[string]any{"path": "missing.txt"}, "does not exist")
	mustFail(t, f.cs, "read_file", map[string]any{"path": "sub"}, "is a directory")
}

func TestFSWriteEditMoveCreate(t *testing.T) {
	f := newFSFixture(t)
	mustOK(t, f.cs, "create_directory", map[string]any{"path": "new/deeper"})
	mustOK(t, f.cs, "write_file", map[string]any{"path": "new/deeper/a.txt", "content": "hello world\nhello again\n"})
	mustFail(t, f.cs, "edit_file", map[string]any{"path": "new/deeper/a.txt", "old_text": "hello", "new_text": "bye"}, "occurs 2 times")
	mustFail(t, f.cs, "edit_file", map[string]any{"path": "new/deeper/a.txt", "old_text": "absent", "new_text": "x"}, "was not found")
	mustOK(t, f.cs, "edit_file", map[string]any{"path": "new/deeper/a.txt", "old_text": "hello world", "new_text": "bye"})
	mustOK(t, f.cs, "move_file", map[string]any{"source": "new/deeper/a.txt", "destination": "b.txt"})
	data, err := os.ReadFile(filepath.Join(f.allowed, "b.txt"))
	if err != nil || string(data) != "bye\nhello again\n" {
		t.Errorf("b.txt = %q, %v", data, err)
	}
	mustFail(t, f.cs, "move_file", map[string]any{"source": "b.txt", "destination": "notes.txt"}, "already exists")
	mustFail(t, f.cs, "write_file", map[string]any{"path": "nodir/x.txt", "content": "x"}, "create it with create_directory")
	// Replacing shrinks the file: no old bytes are left at the end.
	mustOK(t, f.cs, "write_file", map[string]any{"path": "notes.txt", "content": "1"})
	if data, _ := os.ReadFile(filepath.Join(f.allowed, "notes.txt")); string(data) != "1" {
		t.Errorf("notes.txt = %q after a shorter write", data)
	}
}

// TestFSRefusesEscapes tries every way out of the allowed directory the
// issue lists; each is refused with a clear error and nothing outside is
// read or changed.
func TestFSRefusesEscapes(t *testing.T) {
	f := newFSFixture(t)
	symlink(t, filepath.Join(f.outside, "secret.txt"), filepath.Join(f.allowed, "link-out.txt"))
	symlink(t, f.outside, filepath.Join(f.allowed, "dir-out"))
	symlink(t, filepath.Join(f.outside, "created.txt"), filepath.Join(f.allowed, "dangling-out.txt"))
	symlink(t, "loop-b", filepath.Join(f.allowed, "loop-a"))
	symlink(t, "loop-a", filepath.Join(f.allowed, "loop-b"))
	secret := filepath.Join(f.outside, "secret.txt")

	tests := []struct {
		name, tool string
		args       map[string]any
		want       string
	}{
		{"dot-dot", "read_file", map[string]any{"path": "../outside/secret.txt"}, "outside the allowed directories"},
		{"dot-dot deep", "read_file", map[string]any{"path": "sub/../../outside/secret.txt"}, "outside the allowed directories"},
		{"absolute outside", "read_file", map[string]any{"path": secret}, "outside the allowed directories"},
		{"etc passwd", "read_file", map[string]any{"path": "/etc/passwd"}, "outside the allowed directories"},
		{"home tilde", "read_file", map[string]any{"path": "~/.ssh/id_rsa"}, "~ is not expanded"},
		{"symlink to a file outside", "read_file", map[string]any{"path": "link-out.txt"}, "leads outside the allowed directories"},
		{"through a symlinked dir", "read_file", map[string]any{"path": "dir-out/secret.txt"}, "leads outside the allowed directories"},
		{"list a symlinked dir", "list_directory", map[string]any{"path": "dir-out"}, "leads outside the allowed directories"},
		{"info through a symlinked dir", "get_file_info", map[string]any{"path": "dir-out/secret.txt"}, "leads outside"},
		{"symlink loop", "read_file", map[string]any{"path": "loop-a"}, "symbolic link loop"},
		{"write through a symlink out", "write_file", map[string]any{"path": "link-out.txt", "content": "pwned"}, "leads outside"},
		{"create through a dangling symlink out", "write_file", map[string]any{"path": "dangling-out.txt", "content": "pwned"}, "leads outside"},
		{"write outside", "write_file", map[string]any{"path": "../outside/new.txt", "content": "pwned"}, "outside the allowed directories"},
		{"edit through a symlink out", "edit_file", map[string]any{"path": "link-out.txt", "old_text": "TOP", "new_text": "pwned"}, "leads outside"},
		{"move out", "move_file", map[string]any{"source": "notes.txt", "destination": "../outside/stolen.txt"}, "outside the allowed directories"},
		{"move in from outside", "move_file", map[string]any{"source": secret, "destination": "got.txt"}, "outside the allowed directories"},
		{"move into a symlinked dir", "move_file", map[string]any{"source": "notes.txt", "destination": "dir-out/stolen.txt"}, "leads outside"},
		{"mkdir outside", "create_directory", map[string]any{"path": "../outside/newdir"}, "outside the allowed directories"},
		{"mkdir through a symlinked dir", "create_directory", map[string]any{"path": "dir-out/newdir"}, "leads outside"},
		{"search outside", "search_files", map[string]any{"path": "..", "pattern": "secret"}, "outside the allowed directories"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := mustFail(t, f.cs, tt.tool, tt.args, tt.want)
			if strings.Contains(text, outsideText) {
				t.Errorf("the outside file's content leaked: %q", text)
			}
		})
	}
	// Nothing outside changed.
	if data, _ := os.ReadFile(secret); string(data) != outsideText {
		t.Errorf("the outside file was modified: %q", data)
	}
	entries, _ := os.ReadDir(f.outside)
	if len(entries) != 1 {
		t.Errorf("files appeared outside: %v", entries)
	}
	// A search does not follow the symbolic link to the outside directory.
	if got := mustOK(t, f.cs, "search_files", map[string]any{"path": ".", "pattern": "secret"}); strings.Contains(got, "secret.txt") {
		t.Errorf("search followed a link out: %q", got)
	}
}

// TestFSSwapForSymlinkDuringReads swaps a file for a symbolic link that
// points out, over and over, while reading it: every read returns the
// inside content or an error, never the outside file. The containment is
// enforced when the file is opened, not by a check before it.
func TestFSSwapForSymlinkDuringReads(t *testing.T) {
	f := newFSFixture(t)
	inside := filepath.Join(f.allowed, "swap.txt")
	writeFile(t, inside, "inside")
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tmpFile, tmpLink := inside+".file", inside+".link"
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if i%2 == 0 {
				os.Symlink(filepath.Join(f.outside, "secret.txt"), tmpLink)
				os.Rename(tmpLink, inside)
			} else {
				os.WriteFile(tmpFile, []byte("inside"), 0o644)
				os.Rename(tmpFile, inside)
			}
		}
	})
	refused := 0
	for range 300 {
		text, isErr := call(t, f.cs, "read_file", map[string]any{"path": "swap.txt"})
		if strings.Contains(text, outsideText) {
			t.Fatalf("read the outside file through a swapped-in symlink: %q", text)
		}
		if isErr {
			refused++
		}
	}
	close(stop)
	wg.Wait()
	t.Logf("%d of 300 reads met the symlink and were refused", refused)
}

func TestFSAllowedDirectoryThroughASymlink(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(real, "a.txt"), "a")
	link := filepath.Join(base, "link")
	symlink(t, real, link)
	srv, err := NewFS(context.Background(), FSOptions{AllowedDirectories: []string{link}})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, srv)
	// The model may use the configured path or the resolved one.
	for _, p := range []string{filepath.Join(link, "a.txt"), filepath.Join(real, "a.txt")} {
		if got := mustOK(t, cs, "read_file", map[string]any{"path": p}); got != "a" {
			t.Errorf("read %s = %q", p, got)
		}
	}
}

func TestFSOptionErrors(t *testing.T) {
	file := t.TempDir() + "/file"
	writeFile(t, file, "x")
	for _, tc := range []struct {
		dir, want string
	}{
		{"/definitely/not/here", "does not exist"},
		{file, "is not a directory"},
	} {
		_, err := NewFS(context.Background(), FSOptions{AllowedDirectories: []string{tc.dir}})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.dir) {
			t.Errorf("NewFS(%q) error = %v, want %q", tc.dir, err, tc.want)
		}
	}
}

// BenchmarkFSReadFile measures one read_file call of a small file over the
// in-memory transport: what a built-in tool costs the agent loop.
func BenchmarkFSReadFile(b *testing.B) {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hello\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	srv, err := NewFS(context.Background(), FSOptions{AllowedDirectories: []string{dir}})
	if err != nil {
		b.Fatal(err)
	}
	clientEnd, serverEnd := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), serverEnd, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil).Connect(context.Background(), clientEnd, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": "a.txt"}}
	for b.Loop() {
		if res, err := cs.CallTool(context.Background(), params); err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}

// TestFSDoesNotWriteThroughHardLinks: a hard link inside the allowed
// directory to a file outside it reads as a file inside, but writing or
// editing it would change the file outside; both are refused, naming the
// reason, and the outside file keeps its content.
func TestFSDoesNotWriteThroughHardLinks(t *testing.T) {
	f := newFSFixture(t)
	secret := filepath.Join(f.outside, "secret.txt")
	if err := os.Link(secret, filepath.Join(f.allowed, "linked.txt")); err != nil {
		t.Skipf("hard links are not available here: %v", err)
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"write_file", map[string]any{"path": "linked.txt", "content": "overwritten"}},
		{"edit_file", map[string]any{"path": "linked.txt", "old_text": "TOP SECRET", "new_text": "edited"}},
	} {
		text, isErr := call(t, f.cs, c.tool, c.args)
		if !isErr || !strings.Contains(text, "has 2 hard links") || !strings.Contains(text, "refused") {
			t.Errorf("%s through a hard link = %q, %v; want a refusal naming the hard links", c.tool, text, isErr)
		}
	}
	if data, _ := os.ReadFile(secret); string(data) != outsideText {
		t.Errorf("the file outside was changed through the hard link: %q", data)
	}
	// A file with one name is written as before.
	mustOK(t, f.cs, "write_file", map[string]any{"path": "notes.txt", "content": "new"})
}
