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
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	// Scripts are the project's files that the file runs, trusted with
	// it (config.ProjectFile.Scripts): path → hex SHA-256.
	Scripts   map[string]string `json:"scripts,omitempty"`
	TrustedAt time.Time         `json:"trusted_at"`
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
// sum, running no project scripts, is trusted.
func (s TrustStore) Trusted(path, sum string) (bool, error) {
	return s.TrustedFile(config.ProjectFile{Path: path, SHA256: sum})
}

// TrustedFile reports whether the project file f is trusted: its path is
// recorded with its content and the content of every script it runs.
func (s TrustStore) TrustedFile(f config.ProjectFile) (bool, error) {
	r, ok, err := s.record(f.Path)
	if err != nil || !ok {
		return false, err
	}
	return r.SHA256 == f.SHA256 && len(changedScripts(r.Scripts, f.Scripts)) == 0, nil
}

// Changes names what changed in f since it was trusted at its path: the
// file itself ("the file"), or the scripts it runs, as messages show
// them; none when it was never trusted or has not changed.
func (s TrustStore) Changes(f config.ProjectFile) ([]string, error) {
	r, ok, err := s.record(f.Path)
	if err != nil || !ok {
		return nil, err
	}
	var out []string
	if r.SHA256 != f.SHA256 {
		out = append(out, f.Name())
	}
	for _, p := range changedScripts(r.Scripts, f.Scripts) {
		out = append(out, config.DisplayPath(p, f.HomeDir, f.WorkDir))
	}
	return out, nil
}

// record returns the record of the file at path, if there is one.
func (s TrustStore) record(path string) (TrustRecord, bool, error) {
	doc, err := s.read()
	if err != nil {
		return TrustRecord{}, false, err
	}
	for _, r := range doc.Files {
		if r.Path == path {
			return r, true, nil
		}
	}
	return TrustRecord{}, false, nil
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
		doc.Files = append(doc.Files, TrustRecord{Path: f.Path, SHA256: f.SHA256, Scripts: f.Scripts, TrustedAt: now})
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
	data, err := readRegular(s.Path, maxTrustRecordBytes)
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
// of opts, read now, each with whether the user trusts it, and a warning
// for each one it skipped because it is not a regular file of a config
// file's size. A working directory that is the home directory has none:
// its files are the user's own.
func ProjectFiles(opts LoadOptions) ([]config.ProjectFile, []string, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, nil, err
	}
	if o.isHome(o.WorkDir) {
		return nil, nil, nil
	}
	store := o.trustStore()
	var (
		out     []config.ProjectFile
		skipped []string
	)
	r := fileReader{homeDir: o.HomeDir, workDir: o.WorkDir}
	for _, path := range projectPaths(o.WorkDir) {
		data, err := r.readBytes(path)
		if unreadable(err) {
			skipped = append(skipped, r.skipWarning(err))
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		f := o.projectFile(r, path, data)
		if f.Trusted, err = store.TrustedFile(f); err != nil {
			return nil, nil, err
		}
		if !f.Trusted {
			if f.Changed, err = store.Changes(f); err != nil {
				return nil, nil, err
			}
		}
		out = append(out, f)
	}
	return out, skipped, nil
}

// projectFile describes a project file read as data, with the scripts it
// runs.
func (o *LoadOptions) projectFile(r fileReader, path string, data []byte) config.ProjectFile {
	return config.ProjectFile{
		Path: path, SHA256: ContentHash(data), Data: data, HomeDir: o.HomeDir, WorkDir: o.WorkDir,
		Scripts: o.projectScripts(r, path, data),
	}
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
	var changed []string
	for _, f := range files {
		changed = append(changed, f.Changed...)
	}
	if len(changed) > 0 {
		what += " since " + strings.Join(changed, " and ") + " changed after you trusted it"
	}
	return fmt.Sprintf("ignoring %s (it may start programs and change settings); to use it, check it with mcphost trust, or trust it for one run with --trust-project", what)
}
