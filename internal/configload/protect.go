package configload

import (
	"fmt"
	"maps"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/userdirs"
)

// optWritableProtected is the built-in fs server's option that lets it
// write some of the files it protects (config.ServerSpec.Protected): a
// list of paths. Only the user's own config may set it: a project file's
// is dropped with a warning, or a cloned folder could lift the
// protection itself.
const optWritableProtected = "writable_protected"

// builtinFS is the name of the built-in server that writes files.
const builtinFS = "fs"

// protectedPaths are mcphost's own files, which the built-in fs server
// must not write (config.ServerSpec.Protected): every config and hooks
// file mcphost reads or would read (the user's and the project's, also
// those not there yet: a new ~/.mcphost.yml is used without asking), the
// user's config, state and cache directories (trust store, OAuth tokens,
// tool cache, history), the --config file, the script, the session file
// and its lock, the audit log, and the project files that trusted
// project files run. Absolute and clean, sorted, each once.
func (o *LoadOptions) protectedPaths(s *config.Settings, files []*configFile) []string {
	set := map[string]bool{}
	add := func(paths ...string) {
		for _, p := range paths {
			if p == "" {
				continue
			}
			if !filepath.IsAbs(p) {
				p = filepath.Join(o.WorkDir, p)
			}
			set[filepath.Clean(p)] = true
		}
	}
	configNames := append([]string{".mcp.json"}, dotfiles()...)
	for _, dir := range []string{o.HomeDir, o.WorkDir} {
		if dir == "" {
			continue
		}
		for _, name := range configNames {
			add(filepath.Join(dir, name))
		}
		// The project's hooks live in .mcphost/ (hooks.yml, .yaml, .json).
		add(filepath.Join(dir, ".mcphost"))
	}
	dirs := []userdirs.Dirs{userdirs.For(runtime.GOOS, o.HomeDir, o.Env)}
	if !o.Isolated {
		// The host's cache and the OAuth store follow the process's own
		// environment, which o.Env may not be.
		dirs = append(dirs, userdirs.Default())
	}
	for _, d := range dirs {
		add(d.Config, d.State, d.LegacyState, d.Cache)
	}
	add(o.ConfigDir, o.trustStore().Path, o.flagString(keyConfig), o.ConfigFile, o.ScriptFile)
	for _, f := range files {
		add(f.path)
		for script := range f.scripts {
			add(script)
			if real, err := filepath.EvalSymlinks(script); err == nil {
				add(real)
			}
		}
	}
	if s.Session != "" {
		add(s.Session, s.Session+".lock")
	}
	add(s.Audit)
	return slices.Sorted(maps.Keys(set))
}

// protectServers fills in Protected for the built-in fs servers of s, and
// drops writable_protected from those a project file configures, with a
// warning naming the file.
func (o *LoadOptions) protectServers(s *config.Settings, files []*configFile) []string {
	var warnings []string
	var protected []string
	for i := range s.Servers {
		spec := &s.Servers[i]
		if spec.Transport != config.TransportBuiltin || spec.Builtin != builtinFS {
			continue
		}
		if protected == nil {
			protected = o.protectedPaths(s, files)
		}
		spec.Protected = append(slices.Clip(spec.Protected), protected...)
		if !isProjectFile(files, spec.Source) {
			continue
		}
		for k := range spec.Options {
			if normKey(k) != normKey(optWritableProtected) {
				continue
			}
			opts := maps.Clone(spec.Options)
			delete(opts, k)
			spec.Options = opts
			warnings = append(warnings, fmt.Sprintf("%s: server %q: %q is ignored: a project file cannot let the fs server write mcphost's own files; only your own config can",
				config.DisplayPath(spec.Source, o.HomeDir, o.WorkDir), spec.Name, k))
		}
	}
	return warnings
}
