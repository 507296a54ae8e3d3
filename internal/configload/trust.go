package configload

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/userdirs"
)

// Project config files (./.mcp.json, ./.mcphost.*) come with whatever
// folder the user opens: a cloned repository can start programs, point
// mcphost at another engine or turn off approval. So they are used only
// once the user trusts them, and trust is recorded by path and content
// hash: any change to the file, by a tool or a git pull, makes it
// untrusted again.

// keyTrustProject trusts the project files for one run; a flag and the
// MCPHOST_TRUST_PROJECT variable, never a file setting (a project file
// must not be able to trust itself).
const keyTrustProject = "trust-project"

// trustFileName is the record of trusted project files in the state
// directory.
const trustFileName = "trusted.json"

// TrustFile returns the path of the record of trusted project files: in
// the user's state directory (see userdirs.For: $XDG_STATE_HOME/mcphost or
// ~/.local/state/mcphost, ~/Library/Application Support/mcphost on macOS,
// %LOCALAPPDATA%\mcphost on Windows). It returns "" when no such
// directory can be named. env looks up variables; nil means the process
// environment. This is the one place that says where trust is kept.
func TrustFile(homeDir string, env func(string) (string, bool)) string {
	return userdirs.For(runtime.GOOS, homeDir, env).StateFile(trustFileName)
}

// TrustRecord is one trusted file in the record.
type TrustRecord struct {
	Path      string    `json:"path"`
	SHA256    string    `json:"sha256"`
	TrustedAt time.Time `json:"trusted_at"`
}

// trustDoc is the record's file format.
type trustDoc struct {
	Version int           `json:"version"`
	Files   []TrustRecord `json:"files"`
}

// TrustStore is the record of trusted project files, one JSON file.
type TrustStore struct {
	// Path is the record's file; empty when there is nowhere to keep it,
	// so that nothing is trusted and trusting fails with a clear error.
	Path string
}

// TrustStore returns the record of trusted project files that Load
// consults for these options.
func (opts LoadOptions) TrustStore() (TrustStore, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return TrustStore{}, err
	}
	return o.trustStore(), nil
}

// trustStore is the record for options with their defaults filled in.
func (o *LoadOptions) trustStore() TrustStore {
	if o.TrustFile != "" {
		return TrustStore{Path: o.TrustFile}
	}
	return TrustStore{Path: TrustFile(o.HomeDir, o.Env)}
}

// fail words a problem with the record itself.
func (s TrustStore) fail(err error, format string, args ...any) *config.Error {
	return &config.Error{File: s.Path, Message: fmt.Sprintf(format, args...), Err: err}
}

// List returns the trusted files, sorted by path.
func (s TrustStore) List() ([]TrustRecord, error) {
	doc, err := s.read()
	if err != nil {
		return nil, err
	}
	return doc.Files, nil
}

// Trusted reports whether the file at path (absolute) with content hash
// sum is trusted.
func (s TrustStore) Trusted(path, sum string) (bool, error) {
	doc, err := s.read()
	if err != nil {
		return false, err
	}
	for _, r := range doc.Files {
		if r.Path == path {
			return r.SHA256 == sum, nil
		}
	}
	return false, nil
}

// Trust records the files as trusted with the content they were read
// with, replacing earlier records of the same paths.
func (s TrustStore) Trust(files ...config.ProjectFile) error {
	doc, err := s.read()
	if err != nil {
		return err
	}
	now := time.Now().UTC().Truncate(time.Second)
	for _, f := range files {
		doc.Files = slices.DeleteFunc(doc.Files, func(r TrustRecord) bool { return r.Path == f.Path })
		doc.Files = append(doc.Files, TrustRecord{Path: f.Path, SHA256: f.SHA256, TrustedAt: now})
	}
	return s.write(doc)
}

// Revoke forgets the file at path (made absolute) and reports whether it
// was trusted.
func (s TrustStore) Revoke(path string) (bool, error) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	doc, err := s.read()
	if err != nil {
		return false, err
	}
	n := len(doc.Files)
	doc.Files = slices.DeleteFunc(doc.Files, func(r TrustRecord) bool { return r.Path == path })
	if len(doc.Files) == n {
		return false, nil
	}
	return true, s.write(doc)
}

// read loads the record; a missing file is an empty record.
func (s TrustStore) read() (trustDoc, error) {
	doc := trustDoc{Version: 1}
	if s.Path == "" {
		return doc, nil
	}
	data, err := os.ReadFile(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return doc, nil
	}
	if err != nil {
		return doc, s.fail(err, "cannot read the record of trusted project files: %v", unwrapPath(err))
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return doc, s.fail(err, "the record of trusted project files is damaged (%v): delete it, then trust your project files again with mcphost trust", err)
	}
	return doc, nil
}

// write replaces the record atomically, readable by the user alone.
func (s TrustStore) write(doc trustDoc) error {
	if s.Path == "" {
		return &config.Error{Message: "there is no state directory to record trust in: set HOME or XDG_STATE_HOME, or use --trust-project for each run"}
	}
	doc.Version = 1
	slices.SortFunc(doc.Files, func(a, b TrustRecord) int { return strings.Compare(a.Path, b.Path) })
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return s.fail(err, "cannot encode the record of trusted project files: %v", err)
	}
	dir := filepath.Dir(s.Path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return s.fail(err, "cannot create the state directory: %v", unwrapPath(err))
	}
	tmp, err := os.CreateTemp(dir, trustFileName+".*")
	if err != nil {
		return s.fail(err, "cannot write the record of trusted project files: %v", unwrapPath(err))
	}
	_, werr := tmp.Write(append(data, '\n'))
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return s.fail(err, "cannot write the record of trusted project files: %v", unwrapPath(err))
	}
	if err := os.Rename(tmp.Name(), s.Path); err != nil {
		os.Remove(tmp.Name())
		return s.fail(err, "cannot write the record of trusted project files: %v", unwrapPath(err))
	}
	return nil
}

// unwrapPath drops the path from a *fs.PathError, which the message
// already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// ContentHash is the hex SHA-256 of data, as trust records it.
func ContentHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// ProjectFiles returns the project config files of the working directory
// of opts, read now, each with whether the user trusts it. A working
// directory that is the home directory has none: its files are the
// user's own.
func ProjectFiles(opts LoadOptions) ([]config.ProjectFile, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if o.isHome(o.WorkDir) {
		return nil, nil
	}
	store := o.trustStore()
	var out []config.ProjectFile
	r := fileReader{homeDir: o.HomeDir, workDir: o.WorkDir}
	for _, path := range projectPaths(o.WorkDir) {
		data, err := r.readBytes(path)
		if err != nil {
			return nil, err
		}
		f := o.projectFile(path, data)
		if f.Trusted, err = store.Trusted(f.Path, f.SHA256); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// projectFile describes a project file read as data.
func (o *LoadOptions) projectFile(path string, data []byte) config.ProjectFile {
	return config.ProjectFile{Path: path, SHA256: ContentHash(data), Data: data, HomeDir: o.HomeDir, WorkDir: o.WorkDir}
}

// isHome reports whether dir is the home directory, also through a
// symbolic link: the files there are the user's own.
func (o *LoadOptions) isHome(dir string) bool {
	if o.HomeDir == "" {
		return false
	}
	if dir == o.HomeDir {
		return true
	}
	a, errA := os.Stat(dir)
	b, errB := os.Stat(o.HomeDir)
	return errA == nil && errB == nil && os.SameFile(a, b)
}

// trustAll reports whether --trust-project or MCPHOST_TRUST_PROJECT (or
// LoadOptions.TrustProject) trusts every project file for this run.
func (o *LoadOptions) trustAll() (bool, error) {
	if o.TrustProject {
		return true, nil
	}
	if f := o.Flags.Lookup(keyTrustProject); f != nil && f.Changed && f.Value.String() == "true" {
		return true, nil
	}
	name := envName(keyTrustProject)
	v, ok := o.Env(name)
	if !ok || strings.TrimSpace(v) == "" {
		return false, nil
	}
	b, ok := parseBool(v)
	if !ok {
		return false, o.fail("", keyTrustProject, nil, "%s must be true or false (1 or 0), got %q", name, v)
	}
	return b, nil
}

// UntrustedWarning is the one warning of a run that ignores untrusted
// project files: which files, and how to use them.
func UntrustedWarning(files []config.ProjectFile) string {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Name()
	}
	what := "the project config file " + names[0] + ", which is not trusted"
	if len(names) > 1 {
		what = "the project config files " + strings.Join(names, " and ") + ", which are not trusted"
	}
	return fmt.Sprintf("ignoring %s (it may start programs and change settings); to use it, check it with mcphost trust, or trust it for one run with --trust-project", what)
}
