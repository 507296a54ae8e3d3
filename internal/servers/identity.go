package servers

import (
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// What a cached catalogue also depends on besides the spec: the program
// that runs. An upgrade in place (the same command path, a new version)
// must not be served the old tools, so the cache key holds the identity of
// the resolved executable and, for a launcher (an interpreter, npx, uvx),
// of what it runs. Everything here is a stat or a small file read: the
// key is computed for every configured server at every start.

// fileIdentity is a file's path, size and modification time, "" when it
// cannot be read.
func fileIdentity(path string) string {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return ""
	}
	b, _ := json.Marshal([]any{path, info.Size(), info.ModTime().UnixNano()})
	return string(b)
}

// launcherKind is what a command does with its arguments: runs a script
// file (an interpreter), runs a package (npx, uvx) or neither.
type launcherKind int

const (
	notLauncher launcherKind = iota
	scriptLauncher
	npxLauncher
	uvxLauncher
	uvLauncher
)

// launcherOf classifies a command by its file name, as written or as
// resolved ("python3" resolves to "python3.12"): version digits and an
// executable suffix are ignored.
func launcherOf(names ...string) launcherKind {
	for _, name := range names {
		base := strings.ToLower(filepath.Base(name))
		if runtime.GOOS == "windows" {
			for _, ext := range []string{".exe", ".cmd", ".bat", ".ps1"} {
				base = strings.TrimSuffix(base, ext)
			}
		}
		base = strings.TrimRight(base, "0123456789.")
		switch base {
		case "npx", "npx-cli.js", "bunx", "pnpx":
			return npxLauncher
		case "uvx":
			return uvxLauncher
		case "uv":
			return uvLauncher
		case "node", "nodejs", "bun", "deno", "python", "pythonw", "py", "pypy", "ruby", "perl", "php",
			"sh", "bash", "zsh", "dash", "ksh", "fish", "pwsh", "powershell", "java", "dotnet", "tsx", "ts-node", "lua", "rscript":
			return scriptLauncher
		}
	}
	return notLauncher
}

// launchedIdentity is what a launcher runs, as far as it can be known
// without running it: the first argument naming a file (the script) for
// an interpreter; the installed version of the package for npx and uvx.
// Empty for other commands, whose arguments are flags and data files that
// may change at every run (a log, a database) without changing the tools.
func launchedIdentity(command, resolved string, args []string, dir string) []string {
	switch launcherOf(command, resolved) {
	case scriptLauncher:
		return scriptIdentity(args, dir)
	case npxLauncher:
		return npxIdentity(args, dir, resolved)
	case uvxLauncher:
		return uvxIdentity(args)
	case uvLauncher:
		// "uv tool run PKG" is uvx; "uv run [flags] script.py" runs a file.
		if len(args) >= 2 && args[0] == "tool" && args[1] == "run" {
			return uvxIdentity(args[2:])
		}
		return scriptIdentity(args, dir)
	}
	return nil
}

// scriptIdentity is the identity of the first argument that names a file.
func scriptIdentity(args []string, dir string) []string {
	for _, a := range args {
		if a == "" || strings.HasPrefix(a, "-") {
			continue
		}
		path := a
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		if id := fileIdentity(path); id != "" {
			return []string{id}
		}
	}
	return nil
}

// npmFlagsWithValue are npx's options that take the next argument.
var npmFlagsWithValue = map[string]bool{"-p": true, "--package": true, "-c": true, "--call": true,
	"--registry": true, "--cache": true, "--prefix": true, "--userconfig": true, "-w": true, "--workspace": true}

// npxIdentity is the version of the package npx runs wherever npx would
// find it installed: the project's node_modules (in dir or a folder
// above), the global one beside npm, and npx's own cache, whose folder is
// named by a hash of the package specs exactly as npm's libnpmexec
// computes it. A package npx must still download has no version here:
// its cached catalogue stands until a call finds a tool missing (see
// Manager.Call).
func npxIdentity(args []string, dir, resolved string) []string {
	var packages []string
	first := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			if i+1 < len(args) && first == "" {
				first = args[i+1]
			}
			break
		}
		if name, value, ok := strings.Cut(a, "="); ok && (name == "--package" || name == "-p") {
			packages = append(packages, value)
			continue
		}
		if npmFlagsWithValue[a] {
			if (a == "-p" || a == "--package") && i+1 < len(args) {
				packages = append(packages, args[i+1])
			}
			i++
			continue
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		first = a
		break
	}
	if len(packages) == 0 && first != "" {
		packages = []string{first}
	}
	if len(packages) == 0 {
		return nil
	}
	var ids []string
	name := npmPackageName(packages[0])
	if name == "" {
		return nil
	}
	// The project's own tree, from dir up.
	for d := dir; ; {
		if v := packageVersion(filepath.Join(d, "node_modules", name, "package.json")); v != "" {
			ids = append(ids, "local "+d+" "+v)
			break
		}
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	// The global tree: npm itself lives in it (…/node_modules/npm/bin/npx-cli.js).
	if strings.HasSuffix(filepath.ToSlash(resolved), "/node_modules/npm/bin/npx-cli.js") {
		global := filepath.Dir(filepath.Dir(filepath.Dir(resolved)))
		if v := packageVersion(filepath.Join(global, name, "package.json")); v != "" {
			ids = append(ids, "global "+v)
		}
	}
	if cache := npmCache(); cache != "" {
		dir := filepath.Join(cache, "_npx", npxHash(packages))
		if v := packageVersion(filepath.Join(dir, "node_modules", name, "package.json")); v != "" {
			ids = append(ids, "npx "+v)
		}
	}
	return ids
}

// npmPackageName is the name in an npm package spec ("@scope/name@1.2"
// → "@scope/name"), or "" for a spec that is not a registry name (a path,
// a URL, a git repository).
func npmPackageName(spec string) string {
	if strings.ContainsAny(spec, ":\\") || strings.HasPrefix(spec, ".") || strings.HasPrefix(spec, "/") || strings.HasPrefix(spec, "~") {
		return ""
	}
	at := strings.LastIndex(spec, "@")
	if at > 0 {
		spec = spec[:at]
	}
	if strings.Count(spec, "/") > 1 || (strings.Contains(spec, "/") && !strings.HasPrefix(spec, "@")) {
		return "" // owner/repo: a GitHub shorthand
	}
	return spec
}

// packageVersion is the "version" of a package.json, "" when there is none.
func packageVersion(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	var pkg struct {
		Version string `json:"version"`
	}
	if json.Unmarshal(data, &pkg) != nil {
		return ""
	}
	return pkg.Version
}

// npmCache is npm's cache folder: $npm_config_cache, else npm's default
// (a setting in an .npmrc is not read).
func npmCache() string {
	for _, k := range []string{"npm_config_cache", "NPM_CONFIG_CACHE"} {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	if runtime.GOOS == "windows" {
		if v := os.Getenv("LOCALAPPDATA"); v != "" {
			return filepath.Join(v, "npm-cache")
		}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".npm")
}

// uvxIdentity is the version of a package installed as a uv tool ("uv
// tool install"), which uvx runs when it is there: the name of its
// .dist-info folder carries the version. A package uvx runs from its own
// cache has none here.
func uvxIdentity(args []string) []string {
	from := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		if name, value, ok := strings.Cut(a, "="); ok && name == "--from" {
			from = value
			break
		}
		if a == "--from" && i+1 < len(args) {
			from = args[i+1]
			break
		}
		if a == "--with" || a == "--python" || a == "-p" || a == "--index" || a == "--index-url" {
			i++
			continue
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		from = a
		break
	}
	name := pythonPackageName(from)
	if name == "" {
		return nil
	}
	dir := uvToolDir()
	if dir == "" {
		return nil
	}
	dist := strings.ReplaceAll(name, "-", "_")
	var ids []string
	for _, pattern := range []string{
		filepath.Join(dir, name, "lib", "python*", "site-packages", dist+"-*.dist-info"),
		filepath.Join(dir, name, "Lib", "site-packages", dist+"-*.dist-info"),
	} {
		matches, _ := filepath.Glob(pattern)
		for _, m := range matches {
			ids = append(ids, "uv tool "+filepath.Base(m))
		}
	}
	return ids
}

// pythonPackageName is the name in a requirement ("mcp-server-fetch==1.2",
// "pkg[extra]@latest" → "mcp-server-fetch", "pkg"), normalised as uv
// names tool folders.
func pythonPackageName(req string) string {
	if req == "" || strings.ContainsAny(req, "/\\:") {
		return ""
	}
	end := strings.IndexAny(req, "@=<>!~[; ")
	if end >= 0 {
		req = req[:end]
	}
	return strings.ToLower(strings.ReplaceAll(req, "_", "-"))
}

// uvToolDir is where "uv tool install" puts tools.
func uvToolDir() string {
	if v := os.Getenv("UV_TOOL_DIR"); v != "" {
		return v
	}
	if v := os.Getenv("XDG_DATA_HOME"); v != "" {
		return filepath.Join(v, "uv", "tools")
	}
	if runtime.GOOS == "windows" {
		if v := os.Getenv("APPDATA"); v != "" {
			return filepath.Join(v, "uv", "tools")
		}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".local", "share", "uv", "tools")
}

// npxHash names npx's cache folder for a list of package specs, as npm's
// libnpmexec does: the first 16 hex digits of the SHA-512 of the specs,
// sorted, one a line.
func npxHash(packages []string) string {
	sorted := slices.Clone(packages)
	slices.Sort(sorted)
	sum := sha512.Sum512([]byte(strings.Join(sorted, "\n")))
	return hex.EncodeToString(sum[:])[:16]
}
