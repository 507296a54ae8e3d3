package builtin

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The fs server does not change mcphost's own files. A model allowed to
// write files (the common grant fs__*) could otherwise rewrite what mcphost
// runs or trusts: a hook's script runs in the same run, a config entry's
// command at the next start. Two sources name those files:
//
//   - config.ServerSpec.Protected, filled by the config loader: the config
//     files, hooks, trust store, cache, session locks, and the project
//     scripts that trusted entries run;
//   - a backstop the server always applies, because the library may be
//     used without the loader: mcphost's own folders of the user's
//     config, state (trust store, sign-ins, history) and cache, wherever
//     the allowed directories reach them; and the names of mcphost's
//     config at the top of each allowed directory (.mcp.json,
//     .mcphost.yml, .mcphost.yaml, .mcphost.json and the .mcphost
//     folder). Only the top: that is where
//     mcphost reads them when started there (the project, or the home
//     folder's own files, which need no trust at all), while one deeper
//     down is read only if mcphost is started in that folder, and then as
//     a project file that needs trust for its exact content. Copies in
//     testdata or examples stay writable.
//
// The user lifts protection path by path with the option
// writable_protected (the loader lets only the user's own config set it).
//
// Paths are compared as the kernel would resolve them: inside the allowed
// directory, symbolic links are followed as os.Root follows them and ".."
// is taken after them; names are compared case-insensitively where the
// file system usually is (Windows, macOS); and an existing path is also
// compared by identity (same device and inode), which catches any other
// spelling of the same file or folder.

// backstopNames are mcphost's config names protected at the top of every
// allowed directory.
func backstopNames() []string {
	return []string{".mcp.json", ".mcphost.yml", ".mcphost.yaml", ".mcphost.json", ".mcphost"}
}

// guardedPath is a path, relative to an allowed directory, that the fs
// server refuses to change (or, in the lifted list, may change after all).
type guardedPath struct {
	dir    *allowedDir
	rel    string // as given, cleaned; "." for the whole directory
	shown  string // the path as given, absolute, for the refusal
	why    string // what the file is, for the refusal
	folder bool   // a folder, even while it does not exist
}

// protection holds the fs server's protected and lifted paths.
type protection struct {
	protected []guardedPath
	lifted    []guardedPath
}

// Reasons a path is protected, as the model reads them.
const (
	whyListed = "one that mcphost runs or trusts (its config, hooks, trust store, cache or session locks, or a script that a trusted config entry runs)"
	whyConfig = "a config file mcphost reads when it is started in %s"
	whyFolder = "the folder of the project's hooks and the scripts they run"
	whyMine   = "where mcphost keeps the user's config, state (trust store, sign-ins, history) or cache"
)

// newProtection maps the protected and lifted paths onto the allowed
// directories; mine are mcphost's own folders of the user (config, state,
// cache). Paths outside every allowed directory need no rule: the fs
// tools cannot reach them.
func newProtection(dirs []*allowedDir, protected, lifted, mine []string) (*protection, error) {
	p := &protection{}
	for _, d := range dirs {
		for _, name := range backstopNames() {
			// Mapped onto every allowed directory: one may hold another.
			for _, g := range mapOnto(dirs, filepath.Join(d.path, name), fmt.Sprintf(whyConfig, d.path)) {
				if name == ".mcphost" {
					g.why, g.folder = whyFolder, true
				}
				p.protected = append(p.protected, g)
			}
		}
	}
	for _, path := range mine {
		if path != "" {
			for _, g := range mapOnto(dirs, path, whyMine) {
				g.folder = true
				p.protected = append(p.protected, g)
			}
		}
	}
	for _, path := range protected {
		if strings.TrimSpace(path) == "" {
			continue
		}
		p.protected = append(p.protected, mapOnto(dirs, path, whyListed)...)
	}
	for _, path := range lifted {
		if strings.TrimSpace(path) == "" {
			return nil, errors.New("writable_protected has an empty path: remove it or give the file to allow writing")
		}
		p.lifted = append(p.lifted, mapOnto(dirs, path, "")...)
	}
	return p, nil
}

// mapOnto gives path's place in each allowed directory it lies in, as
// written and with its symbolic links resolved; an allowed directory
// inside path is covered whole.
func mapOnto(dirs []*allowedDir, path, why string) []guardedPath {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil
	}
	forms := []string{filepath.Clean(abs)}
	if real := resolveExisting(abs); real != forms[0] {
		forms = append(forms, real)
	}
	var out []guardedPath
	for _, d := range dirs {
		for _, form := range forms {
			for _, base := range []string{d.path, d.given} {
				if rel, ok := within(form, base); ok {
					out = append(out, guardedPath{dir: d, rel: rel, shown: forms[0], why: why})
				} else if _, ok := within(base, form); ok {
					out = append(out, guardedPath{dir: d, rel: ".", shown: forms[0], why: why})
				}
			}
		}
	}
	return out
}

// resolveExisting resolves the symbolic links of the longest part of abs
// that exists, keeping the rest as written: a protected file may not
// exist yet, and must not be created either.
func resolveExisting(abs string) string {
	rest := ""
	for p := abs; ; {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(real, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Clean(abs)
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

// An fsChange is what a tool is about to do to a path, for the refusal:
// "writing", "editing", "moving", "creating a directory".
type fsChange string

// check refuses a change to t when t is a protected path, or lies inside
// one, and no lifted path covers it. With whole, t is also refused when
// it holds a protected path (moving a folder moves what is in it).
func (p *protection) check(t target, change fsChange, whole bool) error {
	tForms := t.dir.forms(t.rel)
	for _, g := range p.protected {
		if g.dir != t.dir {
			continue
		}
		gForms := g.dir.forms(g.rel)
		switch {
		case coversAny(gForms, tForms) || sameAsPrefix(t.dir, gForms, tForms):
			if !p.isLifted(t.dir, tForms) {
				return protectedError(t, change, g, gForms, tForms, false)
			}
		case whole && coversAny(tForms, gForms):
			if !p.isLifted(g.dir, gForms) {
				return protectedError(t, change, g, gForms, tForms, true)
			}
		}
	}
	return nil
}

// isLifted reports whether the user's writable_protected covers a path
// (given by its forms) in d.
func (p *protection) isLifted(d *allowedDir, forms []string) bool {
	for _, l := range p.lifted {
		if l.dir == d && coversAny(l.dir.forms(l.rel), forms) {
			return true
		}
	}
	return false
}

// protectedError words a refusal for the model: the path, what it is and
// how the user can allow it. holds says that t is a folder holding the
// protected path g rather than g or a path inside it.
func protectedError(t target, change fsChange, g guardedPath, gForms, tForms []string, holds bool) error {
	gShown := g.shown
	kind := "file"
	if info, err := os.Stat(g.shown); (err == nil && info.IsDir()) || g.folder {
		kind = "folder"
	}
	var what string
	switch {
	case holds:
		what = fmt.Sprintf("%s holds %s, mcphost's own %s, %s", t.shown(), gShown, kind, g.why)
	case coversAny(tForms, gForms) || sameFile(t.dir, tForms, gForms):
		what = fmt.Sprintf("%s is mcphost's own %s, %s", t.shown(), kind, g.why)
	default:
		what = fmt.Sprintf("%s is in %s, mcphost's own %s, %s", t.shown(), gShown, kind, g.why)
	}
	return fmt.Errorf("%s refused: %s. The fs tools do not change mcphost's own files; the user can allow it by listing %s in the fs server's option writable_protected",
		change, what, t.shown())
}

// sameFile reports whether one of a's forms and one of b's name the same
// existing file or folder in d.
func sameFile(d *allowedDir, a, b []string) bool {
	for _, x := range a {
		xi, err := d.root.Stat(x)
		if err != nil {
			continue
		}
		for _, y := range b {
			if yi, err := d.root.Stat(y); err == nil && os.SameFile(xi, yi) {
				return true
			}
		}
	}
	return false
}

// forms are the spellings of rel to compare: as written, with the links of
// its folders resolved (what a rename changes), and with every link
// resolved (what a write changes). A form whose links lead out of d is
// left out: os.Root refuses to use it.
func (d *allowedDir) forms(rel string) []string {
	out := []string{filepath.Clean(rel)}
	for _, followLast := range []bool{false, true} {
		if c, ok := d.canonical(rel, followLast); ok && !contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// maxLinks bounds the symbolic links followed in one path, as the kernel
// does (ELOOP).
const maxLinks = 40

// canonical resolves the symbolic links in rel inside d the way os.Root
// follows them: a relative link from the folder it is in, ".." after the
// link before it. The part that does not exist is kept as written.
// followLast says whether a link in the last name is followed. ok is false
// when the path leads out of d, which os.Root refuses anyway.
func (d *allowedDir) canonical(rel string, followLast bool) (string, bool) {
	todo := splitPath(rel)
	var done []string
	links := 0
	for len(todo) > 0 {
		name := todo[0]
		todo = todo[1:]
		switch name {
		case ".", "":
			continue
		case "..":
			if len(done) == 0 {
				return "", false
			}
			done = done[:len(done)-1]
			continue
		}
		cur := filepath.Join(append(append([]string{}, done...), name)...)
		if len(todo) == 0 && !followLast {
			done = append(done, name)
			break
		}
		info, err := d.root.Lstat(cur)
		if err != nil {
			// Not there (yet): the rest is taken as written.
			rest, ok := within(filepath.Join(append(append([]string{d.path}, done...), append([]string{name}, todo...)...)...), d.path)
			return rest, ok
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			done = append(done, name)
			continue
		}
		if links++; links > maxLinks {
			return "", false
		}
		dest, err := d.root.Readlink(cur)
		if err != nil {
			return "", false
		}
		if filepath.IsAbs(dest) || filepath.VolumeName(dest) != "" {
			r, ok := within(filepath.Clean(dest), d.path)
			if !ok {
				if r, ok = within(filepath.Clean(dest), d.given); !ok {
					return "", false
				}
			}
			done = nil
			todo = append(splitPath(r), todo...)
			continue
		}
		todo = append(splitPath(dest), todo...)
	}
	if len(done) == 0 {
		return ".", true
	}
	return filepath.Join(done...), true
}

func splitPath(p string) []string {
	return strings.FieldsFunc(filepath.ToSlash(p), func(r rune) bool { return r == '/' })
}

// coversAny reports whether one of outer is one of inner or a folder
// holding it.
func coversAny(outer, inner []string) bool {
	for _, o := range outer {
		for _, i := range inner {
			if covers(o, i) {
				return true
			}
		}
	}
	return false
}

// covers reports whether outer is inner or a folder holding it, comparing
// names as the file system usually does (foldName).
func covers(outer, inner string) bool {
	if outer == "." {
		return true
	}
	o, in := splitPath(outer), splitPath(inner)
	if len(o) > len(in) {
		return false
	}
	for i := range o {
		if foldName(o[i]) != foldName(in[i]) {
			return false
		}
	}
	return true
}

// sameAsPrefix reports whether a protected path that exists (one of
// gForms) is the same file or folder as the target or a folder the target
// lies in, by identity: another spelling of it (a different case on a
// case-insensitive file system, a Windows short name, a bind mount) that
// the names alone do not show.
func sameAsPrefix(d *allowedDir, gForms, tForms []string) bool {
	var protected []os.FileInfo
	for _, g := range gForms {
		if info, err := d.root.Stat(g); err == nil {
			protected = append(protected, info)
		}
	}
	if len(protected) == 0 {
		return false
	}
	for _, t := range tForms {
		parts := splitPath(t)
		for n := len(parts); n >= 1; n-- {
			info, err := d.root.Stat(filepath.Join(parts[:n]...))
			if err != nil {
				continue
			}
			for _, p := range protected {
				if os.SameFile(info, p) {
					return true
				}
			}
		}
	}
	return false
}
