package host

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pngHeader is enough of a PNG for content sniffing.
var pngHeader = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00")

func attachDir(t *testing.T) (dir, home string) {
	t.Helper()
	dir, home = t.TempDir(), t.TempDir()
	for name, content := range map[string]string{
		"notes/todo.md":    "buy milk\n",
		"README":           "read me",
		"code.go":          "x := \"```\"\n",
		"photo.png":        string(pngHeader),
		"blob.bin":         "\x00\x01\x02binary",
		"big.txt":          strings.Repeat("a", 300<<10),
		"notes.":           "",
		"../home-file.txt": "",
	} {
		path := filepath.Join(dir, name)
		if strings.HasPrefix(name, "../") {
			path = filepath.Join(home, "h.txt")
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	return dir, home
}

func TestFileRefsFindPathsAndLeaveWordsAlone(t *testing.T) {
	dir, home := attachDir(t)
	noResources := func(string) bool { return false }
	tests := []struct {
		prompt  string
		want    []string // written paths attached
		wantErr string
	}{
		{prompt: "summarise @notes/todo.md", want: []string{"notes/todo.md"}},
		{prompt: "@./README and @README again", want: []string{"./README"}},
		{prompt: "see @notes/todo.md, then reply", want: []string{"notes/todo.md"}},
		{prompt: "home @~/h.txt", want: []string{"~/h.txt"}},
		{prompt: "abs @" + filepath.Join(dir, "code.go"), want: []string{filepath.Join(dir, "code.go")}},
		{prompt: "mail a@b.com or @alice, cc @org/team", want: nil},
		{prompt: "read @notes/nope.md", wantErr: "@notes/nope.md: no such file"},
		{prompt: "read @./missing.txt", wantErr: "@./missing.txt: no such file"},
		{prompt: "read @notes/", wantErr: "@notes/ is a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.prompt, func(t *testing.T) {
			refs, err := fileRefs(tt.prompt, home, noResources)
			if tt.wantErr != "" {
				if !errors.Is(err, ErrAttachment) || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), "the prompt was not sent") {
					t.Fatalf("err %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range refs {
				got = append(got, r.written)
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("attached %q, want %q", got, tt.want)
			}
		})
	}
	// A server's resource is not a file.
	refs, err := fileRefs("@fs:notes/todo.md", home, func(w string) bool { return strings.HasPrefix(w, "fs:") })
	if err != nil || len(refs) != 0 {
		t.Errorf("resource taken for a file: %v, %v", refs, err)
	}
}

func TestReadFileRefTextImagesAndLimits(t *testing.T) {
	attachDir(t)
	f, err := readFileRef(fileRef{written: "notes/todo.md", path: "notes/todo.md"}, false)
	if err != nil || f.part != "File: notes/todo.md\n```md\nbuy milk\n```" || f.att.Kind != "text" || f.att.File != "notes/todo.md" {
		t.Errorf("text file: %q %+v %v", f.part, f.att, err)
	}
	// A fence inside the file does not end the block.
	if f, _ := readFileRef(fileRef{written: "code.go", path: "code.go"}, false); !strings.HasPrefix(f.part, "File: code.go\n````go\n") || !strings.HasSuffix(f.part, "\n````") {
		t.Errorf("file with a fence: %q", f.part)
	}
	img, err := readFileRef(fileRef{written: "photo.png", path: "photo.png"}, true)
	if err != nil || string(img.image) != string(pngHeader) || !strings.Contains(img.part, "image image/png") {
		t.Errorf("image for a vision model: %+v %v", img, err)
	}
	blind, err := readFileRef(fileRef{written: "photo.png", path: "photo.png"}, false)
	if err != nil || blind.image != nil || !strings.Contains(blind.part, "this model cannot see images") {
		t.Errorf("image for a model without vision: %+v %v", blind, err)
	}
	for name, want := range map[string]string{
		"blob.bin": "@blob.bin is a binary file",
		"big.txt":  "@big.txt is 300.0 KB, more than the 256 KiB a text file may have",
	} {
		_, err := readFileRef(fileRef{written: name, path: name}, true)
		if !errors.Is(err, ErrAttachment) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
}
