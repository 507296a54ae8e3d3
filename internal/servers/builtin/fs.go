package builtin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/internal/userdirs"
)

// FSOptions configure the fs server.
type FSOptions struct {
	// AllowedDirectories are the only directories the tools may touch
	// (with everything below them); empty means the working directory.
	// Relative paths are taken from the working directory.
	AllowedDirectories []string `json:"allowed_directories"`
	// WritableProtected are protected files or folders (see Protected)
	// that the tools may change after all: the user's choice, path by
	// path, such as a .mcp.json the user wants the model to edit.
	// Relative paths are taken from the working directory.
	WritableProtected []string `json:"writable_protected"`
	// Protected are the files and folders the tools refuse to change,
	// from config.ServerSpec.Protected: mcphost's own files. The config
	// files at the top of each allowed directory (.mcp.json,
	// .mcphost.yml, .yaml, .json and the .mcphost folder) and mcphost's
	// folders of the user's config, state and cache are protected
	// besides, always.
	Protected []string `json:"-"`
}

// Limits of the fs tools, so one call cannot flood the model's context.
const (
	fsMaxRead    = 100 << 10 // bytes of a file returned by read_file
	fsMaxEdit    = 10 << 20  // largest file edit_file rewrites
	fsMaxList    = 1000      // entries listed by list_directory
	fsMaxResults = 500       // matches returned by search_files
)

// fsServer confines every operation to its allowed directories. Each
// directory is an os.Root: the kernel resolves every path component
// relative to it, and a symbolic link that leads out, or a component
// replaced by such a link after our own checks, fails at the moment of
// use rather than at a check before it.
type fsServer struct {
	dirs []*allowedDir
	// guard refuses changes to mcphost's own files.
	guard *protection
}

type allowedDir struct {
	path  string // absolute, symbolic links resolved
	given string // absolute, as configured
	root  *os.Root
}

// NewFS returns the fs server. The allowed directories stay open until
// ctx ends.
func NewFS(ctx context.Context, o FSOptions) (*mcp.Server, error) {
	s, err := newFSServer(o)
	if err != nil {
		return nil, err
	}
	return s.serve(ctx), nil
}

// newFSServer opens the allowed directories of o.
func newFSServer(o FSOptions) (*fsServer, error) {
	dirs := o.AllowedDirectories
	if len(dirs) == 0 {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("cannot find the working directory to serve: %v", err)
		}
		dirs = []string{wd}
	}
	s := &fsServer{}
	for _, d := range dirs {
		ad, err := openAllowed(d)
		if err != nil {
			s.close()
			return nil, err
		}
		s.dirs = append(s.dirs, ad)
	}
	mine := userdirs.Default()
	guard, err := newProtection(s.dirs, o.Protected, o.WritableProtected, []string{mine.Config, mine.State, mine.LegacyState, mine.Cache})
	if err != nil {
		s.close()
		return nil, err
	}
	s.guard = guard
	return s, nil
}

// serve registers the tools; the allowed directories stay open until ctx
// ends.
func (s *fsServer) serve(ctx context.Context) *mcp.Server {
	context.AfterFunc(ctx, s.close)
	srv := mcp.NewServer(implementation("fs"), &mcp.ServerOptions{
		Instructions: "Files in " + s.dirList() + ". Relative paths are taken from " + s.dirs[0].path + "." +
			" mcphost's own files (.mcp.json, .mcphost.yml and the .mcphost folder at the top, and the files mcphost runs or trusts) can be read but not changed unless the user allows it.",
	})
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)}
	mcp.AddTool(srv, &mcp.Tool{Name: "read_file", Annotations: readOnly,
		Description: "Read a text file. Optionally only its first (head) or last (tail) lines. At most 100 KB is returned."}, s.readFile)
	mcp.AddTool(srv, &mcp.Tool{Name: "list_directory", Annotations: readOnly,
		Description: "List the entries of a directory, marking each as [DIR], [FILE] (with its size) or [LINK]."}, s.listDirectory)
	mcp.AddTool(srv, &mcp.Tool{Name: "search_files", Annotations: readOnly,
		Description: "Find files and directories below a directory whose names match a glob such as *.go, or contain the text given (case-insensitive). Symbolic links are not followed."}, s.searchFiles)
	mcp.AddTool(srv, &mcp.Tool{Name: "get_file_info", Annotations: readOnly,
		Description: "Show the type, size, permissions and modification time of a file or directory."}, s.fileInfo)
	mcp.AddTool(srv, &mcp.Tool{Name: "list_allowed_directories", Annotations: readOnly,
		Description: "List the directories these tools may access."}, s.listAllowed)
	mcp.AddTool(srv, &mcp.Tool{Name: "write_file",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
		Description: "Create a file, or replace the whole content of an existing one. The directory must exist."}, s.writeFile)
	mcp.AddTool(srv, &mcp.Tool{Name: "edit_file",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(false)},
		Description: "Replace old_text by new_text in a file. old_text must occur exactly once, unless replace_all is set."}, s.editFile)
	mcp.AddTool(srv, &mcp.Tool{Name: "move_file",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(false), OpenWorldHint: ptr(false)},
		Description: "Move or rename a file or directory. The destination must not exist."}, s.moveFile)
	mcp.AddTool(srv, &mcp.Tool{Name: "create_directory",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(false), IdempotentHint: true, OpenWorldHint: ptr(false)},
		Description: "Create a directory, and its parents if needed. Succeeds if it already exists."}, s.createDirectory)
	return srv
}

func ptr[T any](v T) *T { return &v }

// openAllowed resolves and opens one allowed directory.
func openAllowed(d string) (*allowedDir, error) {
	abs, err := filepath.Abs(d)
	if err != nil {
		return nil, fmt.Errorf("allowed directory %s: %v", quotePath(d), err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("allowed directory %s does not exist: create it or fix allowed_directories", quotePath(d))
	}
	if err != nil {
		return nil, fmt.Errorf("allowed directory %s cannot be resolved: %v", quotePath(d), pathErr(err))
	}
	if info, err := os.Stat(real); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("allowed directory %s is not a directory: fix allowed_directories", quotePath(d))
	}
	root, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("allowed directory %s cannot be opened: %v", quotePath(d), pathErr(err))
	}
	return &allowedDir{path: real, given: filepath.Clean(abs), root: root}, nil
}

func (s *fsServer) close() {
	for _, d := range s.dirs {
		d.root.Close()
	}
}

func (s *fsServer) dirList() string {
	var names []string
	for _, d := range s.dirs {
		names = append(names, d.path)
	}
	return strings.Join(names, ", ")
}

// target is a path the model gave, resolved to an allowed directory.
type target struct {
	dir *allowedDir
	rel string // relative to dir, cleaned, "." for the directory itself
}

// shown is the path as the model should see it.
func (t target) shown() string { return filepath.Join(t.dir.path, t.rel) }

// resolve maps a path from the model to an allowed directory. The check
// is lexical, after cleaning, so "../" and absolute paths outside are
// refused here with a clear message; symbolic links are left to os.Root,
// which refuses those that lead out when the path is used.
func (s *fsServer) resolve(p string) (target, error) {
	switch {
	case strings.TrimSpace(p) == "":
		return target{}, errors.New("the path is empty: give a file or directory path")
	case strings.ContainsRune(p, 0):
		return target{}, errors.New("the path contains a NUL character")
	case p == "~" || strings.HasPrefix(p, "~/") || strings.HasPrefix(p, "~"+string(filepath.Separator)):
		return target{}, fmt.Errorf("%s: ~ is not expanded here: give the full path, inside %s", quotePath(p), s.dirList())
	}
	abs, err := absolute(p, s.dirs[0].path)
	if err != nil {
		return target{}, fmt.Errorf("%s: %v, inside %s", quotePath(p), err, s.dirList())
	}
	for _, d := range s.dirs {
		for _, base := range []string{d.path, d.given} {
			if rel, ok := within(abs, base); ok {
				return target{dir: d, rel: rel}, nil
			}
		}
	}
	return target{}, fmt.Errorf("%s is outside the allowed directories (%s): refused; use a path inside them", abs, s.dirList())
}

// absolute makes a path from the model absolute and clean. A relative path
// is taken from base. On Windows a path rooted without a drive (\dir or
// /dir) is on base's drive, as Windows itself would take it, and a
// drive-relative one (C:dir), which depends on a per-drive current
// directory mcphost does not have, is refused.
func absolute(p, base string) (string, error) {
	switch vol := filepath.VolumeName(p); {
	case filepath.IsAbs(p):
	case vol != "":
		return "", fmt.Errorf("a path relative to drive %s is ambiguous: give the full path", vol)
	case strings.HasPrefix(p, "/") || strings.HasPrefix(p, string(filepath.Separator)):
		p = filepath.VolumeName(base) + p
	default:
		p = filepath.Join(base, p)
	}
	return filepath.Clean(p), nil
}

// within returns path relative to dir when it lies in dir (or is dir).
func within(p, dir string) (string, bool) {
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

// fsError is a file system error worded for the model; it unwraps to the
// os error so callers can still test for fs.ErrNotExist.
type fsError struct {
	msg string
	err error
}

func (e *fsError) Error() string { return e.msg }
func (e *fsError) Unwrap() error { return e.err }

// fail words a file system error for the model.
func fail(t target, err error) error {
	shown := t.shown()
	var msg string
	switch {
	case errors.Is(err, fs.ErrNotExist):
		msg = fmt.Sprintf("%s does not exist", shown)
	case errors.Is(err, syscall.ELOOP):
		msg = fmt.Sprintf("%s: too many levels of symbolic links (a symbolic link loop?): refused", shown)
	case strings.Contains(err.Error(), "path escapes from parent"):
		msg = fmt.Sprintf("%s leads outside the allowed directories through a symbolic link: refused", shown)
	case errors.Is(err, fs.ErrPermission):
		msg = fmt.Sprintf("%s: permission denied", shown)
	case errors.Is(err, syscall.ENOTDIR):
		msg = fmt.Sprintf("%s: a part of the path is not a directory", shown)
	case errors.Is(err, syscall.EISDIR):
		msg = fmt.Sprintf("%s is a directory, not a file", shown)
	case errors.Is(err, syscall.ENXIO):
		msg = fmt.Sprintf("%s is not a regular file (a device, pipe or socket): refused", shown)
	default:
		msg = fmt.Sprintf("%s: %v", shown, pathErr(err))
	}
	return &fsError{msg: msg, err: err}
}

// pathErr drops the path and operation that os errors repeat.
func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// openRegular opens a regular file through the root. O_NONBLOCK keeps a
// pipe from blocking the open, and the type is checked on the opened file
// itself, so a file swapped for something else after a check cannot slip
// through.
func openRegular(t target, flag int) (*os.File, fs.FileInfo, error) {
	f, err := t.dir.root.OpenFile(t.rel, flag|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		return nil, nil, fail(t, err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fail(t, err)
	}
	if info.IsDir() {
		f.Close()
		return nil, nil, fmt.Errorf("%s is a directory, not a file", t.shown())
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%s is not a regular file (%s): refused", t.shown(), describeMode(info.Mode()))
	}
	return f, info, nil
}

// singleLink refuses to write to a file that has other names (hard
// links): another name may lie outside the allowed directories, and
// writing here would change the file there. Checked on the opened file,
// so a link made after a check cannot slip through.
func singleLink(t target, f *os.File, info fs.FileInfo) error {
	n, err := linkCount(f, info)
	if err != nil {
		return fail(t, err)
	}
	if n > 1 {
		return fmt.Errorf("%s has %d hard links (other names for the same file, which may be outside the allowed directories): writing to it is refused; write a new file instead, or remove the other links", t.shown(), n)
	}
	return nil
}

func describeMode(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	}
	return "a special file"
}

func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

type pathArgs struct {
	Path string `json:"path" jsonschema:"the file or directory, absolute or relative to the first allowed directory"`
}

type readArgs struct {
	Path string `json:"path" jsonschema:"the file, absolute or relative to the first allowed directory"`
	Head int    `json:"head,omitempty" jsonschema:"if set, return only the first N lines"`
	Tail int    `json:"tail,omitempty" jsonschema:"if set, return only the last N lines"`
}

func (s *fsServer) readFile(_ context.Context, _ *mcp.CallToolRequest, in readArgs) (*mcp.CallToolResult, any, error) {
	t, err := s.resolve(in.Path)
	if err != nil {
		return nil, nil, err
	}
	if in.Head < 0 || in.Tail < 0 || (in.Head > 0 && in.Tail > 0) {
		return nil, nil, errors.New("give head or tail (a positive number of lines), not both")
	}
	f, info, err := openRegular(t, os.O_RDONLY)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	size := info.Size()
	var skipped int64
	if in.Tail > 0 && size > fsMaxRead {
		skipped = size - fsMaxRead
		if _, err := f.Seek(skipped, io.SeekStart); err != nil {
			return nil, nil, fail(t, err)
		}
	}
	data, err := io.ReadAll(io.LimitReader(f, fsMaxRead))
	if err != nil {
		return nil, nil, fail(t, err)
	}
	if isBinary(data) {
		return textResult(fmt.Sprintf("%s is a binary file of %d bytes: not shown", t.shown(), size)), nil, nil
	}
	text := string(data)
	switch {
	case in.Head > 0:
		text = firstLines(text, in.Head)
	case in.Tail > 0:
		if skipped > 0 {
			// The first line read may be a partial one.
			if i := strings.IndexByte(text, '\n'); i >= 0 {
				text = text[i+1:]
			}
		}
		text = lastLines(text, in.Tail)
	case size > fsMaxRead:
		text += fmt.Sprintf("\n[truncated: the file has %d bytes, only the first %d are shown; use head or tail]", size, fsMaxRead)
	}
	return textResult(text), nil, nil
}

func isBinary(b []byte) bool {
	if bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0 {
		return true
	}
	// A multi-byte character cut at the read limit is not binary.
	for i := 0; i < 3 && len(b) > 0 && !utf8.Valid(b); i++ {
		b = b[:len(b)-1]
	}
	return !utf8.Valid(b)
}

func firstLines(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "")
}

func lastLines(s string, n int) string {
	trimmed := strings.TrimSuffix(s, "\n")
	lines := strings.Split(trimmed, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	out := strings.Join(lines, "\n")
	if trimmed != s {
		out += "\n"
	}
	return out
}

func (s *fsServer) listDirectory(_ context.Context, _ *mcp.CallToolRequest, in pathArgs) (*mcp.CallToolResult, any, error) {
	t, err := s.resolve(in.Path)
	if err != nil {
		return nil, nil, err
	}
	entries, err := readDir(t)
	if err != nil {
		return nil, nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s:\n", t.shown())
	if len(entries) == 0 {
		b.WriteString("(empty)\n")
	}
	for i, e := range entries {
		if i == fsMaxList {
			fmt.Fprintf(&b, "[… %d more entries not shown]\n", len(entries)-fsMaxList)
			break
		}
		name := filepath.Join(t.rel, e.Name())
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			dest, err := t.dir.root.Readlink(name)
			if err != nil {
				dest = "?"
			}
			fmt.Fprintf(&b, "[LINK] %s -> %s\n", e.Name(), dest)
		case e.IsDir():
			fmt.Fprintf(&b, "[DIR] %s/\n", e.Name())
		case e.Type().IsRegular():
			size := int64(-1)
			if info, err := e.Info(); err == nil {
				size = info.Size()
			}
			fmt.Fprintf(&b, "[FILE] %s (%s)\n", e.Name(), humanBytes(size))
		default:
			fmt.Fprintf(&b, "[OTHER] %s\n", e.Name())
		}
	}
	return textResult(strings.TrimSuffix(b.String(), "\n")), nil, nil
}

// readDir lists a directory through the root, sorted by name.
func readDir(t target) ([]fs.DirEntry, error) {
	f, err := t.dir.root.Open(t.rel)
	if err != nil {
		return nil, fail(t, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fail(t, err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", t.shown())
	}
	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, fail(t, err)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	return entries, nil
}

func humanBytes(n int64) string {
	switch {
	case n < 0:
		return "size unknown"
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

type searchArgs struct {
	Path    string   `json:"path" jsonschema:"the directory to search below"`
	Pattern string   `json:"pattern" jsonschema:"a glob matched against names (*.md, test_*), or text that names must contain"`
	Exclude []string `json:"exclude_patterns,omitempty" jsonschema:"globs of names to skip, such as node_modules or .git"`
}

func (s *fsServer) searchFiles(ctx context.Context, _ *mcp.CallToolRequest, in searchArgs) (*mcp.CallToolResult, any, error) {
	t, err := s.resolve(in.Path)
	if err != nil {
		return nil, nil, err
	}
	if strings.TrimSpace(in.Pattern) == "" {
		return nil, nil, errors.New("the pattern is empty: give a glob such as *.go or part of a name")
	}
	isGlob := strings.ContainsAny(in.Pattern, "*?[")
	if _, err := path.Match(in.Pattern, ""); isGlob && err != nil {
		return nil, nil, fmt.Errorf("%q is not a valid glob", in.Pattern)
	}
	match := func(name string) bool {
		if isGlob {
			ok, _ := path.Match(in.Pattern, name)
			return ok
		}
		return strings.Contains(strings.ToLower(name), strings.ToLower(in.Pattern))
	}
	start := filepath.ToSlash(t.rel)
	if info, err := t.dir.root.Stat(t.rel); err != nil {
		return nil, nil, fail(t, err)
	} else if !info.IsDir() {
		return nil, nil, fmt.Errorf("%s is not a directory", t.shown())
	}
	var found []string
	more := false
	// WalkDir on the root's fs.FS stays inside the root and does not
	// follow symbolic links to directories.
	err = fs.WalkDir(t.dir.root.FS(), start, func(p string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			return nil // unreadable: skip it, search the rest
		}
		if p == start {
			return nil
		}
		for _, ex := range in.Exclude {
			if ok, _ := path.Match(ex, d.Name()); ok {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
		}
		if match(d.Name()) {
			if len(found) == fsMaxResults {
				more = true
				return fs.SkipAll
			}
			shown := filepath.Join(t.dir.path, filepath.FromSlash(p))
			if d.IsDir() {
				shown += string(filepath.Separator)
			}
			found = append(found, shown)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if len(found) == 0 {
		return textResult(fmt.Sprintf("no names matching %q below %s", in.Pattern, t.shown())), nil, nil
	}
	text := strings.Join(found, "\n")
	if more {
		text += fmt.Sprintf("\n[stopped after %d matches: narrow the pattern]", fsMaxResults)
	}
	return textResult(text), nil, nil
}

func (s *fsServer) fileInfo(_ context.Context, _ *mcp.CallToolRequest, in pathArgs) (*mcp.CallToolResult, any, error) {
	t, err := s.resolve(in.Path)
	if err != nil {
		return nil, nil, err
	}
	info, err := t.dir.root.Lstat(t.rel)
	if err != nil {
		return nil, nil, fail(t, err)
	}
	kind := "file"
	if !info.Mode().IsRegular() {
		kind = strings.TrimPrefix(strings.TrimPrefix(describeMode(info.Mode()), "a "), "an ")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "path: %s\ntype: %s\n", t.shown(), kind)
	if info.Mode()&fs.ModeSymlink != 0 {
		if dest, err := t.dir.root.Readlink(t.rel); err == nil {
			fmt.Fprintf(&b, "target: %s\n", dest)
		}
	}
	fmt.Fprintf(&b, "size: %d bytes\npermissions: %s\nmodified: %s", info.Size(), info.Mode().Perm(), info.ModTime().Format(time.RFC3339))
	return textResult(b.String()), nil, nil
}

func (s *fsServer) listAllowed(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
	var names []string
	for _, d := range s.dirs {
		names = append(names, d.path)
	}
	return textResult(strings.Join(names, "\n")), nil, nil
}

type writeArgs struct {
	Path    string `json:"path" jsonschema:"the file to create or replace"`
	Content string `json:"content" jsonschema:"the whole new content of the file"`
}

func (s *fsServer) writeFile(_ context.Context, _ *mcp.CallToolRequest, in writeArgs) (*mcp.CallToolResult, any, error) {
	t, err := s.resolve(in.Path)
	if err != nil {
		return nil, nil, err
	}
	if err := s.guard.check(t, "writing", false); err != nil {
		return nil, nil, err
	}
	// Truncate only once the opened file is known to be a regular one
	// with no other name.
	f, info, err := openRegular(t, os.O_WRONLY|os.O_CREATE)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("the directory of %s does not exist: create it with create_directory first", t.shown())
		}
		return nil, nil, err
	}
	defer f.Close()
	if err := singleLink(t, f, info); err != nil {
		return nil, nil, err
	}
	if err := f.Truncate(0); err != nil {
		return nil, nil, fail(t, err)
	}
	if _, err := f.WriteString(in.Content); err != nil {
		return nil, nil, fail(t, err)
	}
	if err := f.Close(); err != nil {
		return nil, nil, fail(t, err)
	}
	return textResult(fmt.Sprintf("wrote %d bytes to %s", len(in.Content), t.shown())), nil, nil
}

type editArgs struct {
	Path       string `json:"path" jsonschema:"the file to edit"`
	OldText    string `json:"old_text" jsonschema:"the exact text to replace"`
	NewText    string `json:"new_text" jsonschema:"the text to put in its place"`
	ReplaceAll bool   `json:"replace_all,omitempty" jsonschema:"replace every occurrence instead of requiring exactly one"`
}

func (s *fsServer) editFile(_ context.Context, _ *mcp.CallToolRequest, in editArgs) (*mcp.CallToolResult, any, error) {
	t, err := s.resolve(in.Path)
	if err != nil {
		return nil, nil, err
	}
	if in.OldText == "" {
		return nil, nil, errors.New("old_text is empty: give the exact text to replace")
	}
	if err := s.guard.check(t, "editing", false); err != nil {
		return nil, nil, err
	}
	// Read and rewrite through one descriptor, so the file edited is the
	// file read.
	f, info, err := openRegular(t, os.O_RDWR)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if err := singleLink(t, f, info); err != nil {
		return nil, nil, err
	}
	if info.Size() > fsMaxEdit {
		return nil, nil, fmt.Errorf("%s is %s, too large to edit here (at most %s)", t.shown(), humanBytes(info.Size()), humanBytes(fsMaxEdit))
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, nil, fail(t, err)
	}
	text := string(data)
	n := strings.Count(text, in.OldText)
	switch {
	case n == 0:
		return nil, nil, fmt.Errorf("old_text was not found in %s: read the file and copy the text exactly", t.shown())
	case n > 1 && !in.ReplaceAll:
		return nil, nil, fmt.Errorf("old_text occurs %d times in %s: include more surrounding text to make it unique, or set replace_all", n, t.shown())
	}
	text = strings.ReplaceAll(text, in.OldText, in.NewText)
	if err := f.Truncate(0); err != nil {
		return nil, nil, fail(t, err)
	}
	if _, err := f.WriteAt([]byte(text), 0); err != nil {
		return nil, nil, fail(t, err)
	}
	if err := f.Close(); err != nil {
		return nil, nil, fail(t, err)
	}
	return textResult(fmt.Sprintf("replaced %d occurrence(s) in %s", n, t.shown())), nil, nil
}

type moveArgs struct {
	Source      string `json:"source" jsonschema:"the file or directory to move"`
	Destination string `json:"destination" jsonschema:"its new path, which must not exist"`
}

func (s *fsServer) moveFile(_ context.Context, _ *mcp.CallToolRequest, in moveArgs) (*mcp.CallToolResult, any, error) {
	src, err := s.resolve(in.Source)
	if err != nil {
		return nil, nil, err
	}
	dst, err := s.resolve(in.Destination)
	if err != nil {
		return nil, nil, err
	}
	if src.dir != dst.dir {
		return nil, nil, fmt.Errorf("%s and %s are in different allowed directories: move within one", src.shown(), dst.shown())
	}
	if src.rel == "." {
		return nil, nil, fmt.Errorf("%s is an allowed directory itself and cannot be moved", src.shown())
	}
	// Moving a protected file away, or onto its name, changes it as
	// surely as writing it would.
	if err := s.guard.check(src, "moving", true); err != nil {
		return nil, nil, err
	}
	if err := s.guard.check(dst, "moving", true); err != nil {
		return nil, nil, err
	}
	if _, err := src.dir.root.Lstat(dst.rel); err == nil {
		return nil, nil, fmt.Errorf("%s already exists: choose another destination", dst.shown())
	}
	if err := src.dir.root.Rename(src.rel, dst.rel); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if _, serr := src.dir.root.Lstat(src.rel); serr != nil {
				return nil, nil, fail(src, serr)
			}
			return nil, nil, fmt.Errorf("the directory of %s does not exist: create it with create_directory first", dst.shown())
		}
		return nil, nil, fail(src, err)
	}
	return textResult(fmt.Sprintf("moved %s to %s", src.shown(), dst.shown())), nil, nil
}

func (s *fsServer) createDirectory(_ context.Context, _ *mcp.CallToolRequest, in pathArgs) (*mcp.CallToolResult, any, error) {
	t, err := s.resolve(in.Path)
	if err != nil {
		return nil, nil, err
	}
	if err := s.guard.check(t, "creating a directory", false); err != nil {
		return nil, nil, err
	}
	if err := t.dir.root.MkdirAll(t.rel, 0o755); err != nil {
		return nil, nil, fail(t, err)
	}
	return textResult("created " + t.shown()), nil, nil
}
