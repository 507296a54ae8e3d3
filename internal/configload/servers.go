package configload

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/spell"
)

// toolNameSeparator joins server and tool names in the catalogue the model
// sees, so a server name must not contain it.
const toolNameSeparator = "__"

// ServersFromMap normalises an already-decoded mcpServers object into
// ServerSpecs, sorted by name (byte order) so that the result is the same on
// every run. raw must keep the case of its keys, which is why callers decode
// files themselves instead of going through viper.
//
// Both formats users already have are accepted:
//
//   - Claude Desktop / Claude Code: {"command": "npx", "args": [...],
//     "env": {...}} for stdio (type optional, or "stdio");
//     {"type": "http", "url": ..., "headers": {...}} for Streamable HTTP
//     ("streamable-http" and "streamableHttp" mean the same; a url without a
//     type is http); {"type": "sse", "url": ..., "headers": {...}}.
//   - mcphost's own: type "local" with command as a list (program, then its
//     arguments) and an "environment" map; type "remote" (Streamable HTTP)
//     with url and headers as a list of "Name: value" strings.
//
// Either format may add allowedTools, excludedTools, disabled (or
// enabled: false), timeout (seconds as a number, or a Go duration such as
// "45s"; DefaultStartTimeout when absent), toolTimeout (the same form;
// DefaultToolTimeout), maxRestarts (automatic restarts per minute, 0 for
// none; DefaultMaxRestarts), maxResultBytes (DefaultMaxResultBytes) and cwd
// (relative to projectDir).
//
// Variables in command, args, env values, url, header values and cwd are
// expanded: ${VAR}, ${VAR:-default}, ${env://VAR}, ${env://VAR:-default},
// plus the built-ins ${PROJECT_DIR} (projectDir) and ${HOME}. env supplies
// the variables and HOME; nil means the process environment, and an unset
// HOME falls back to os.UserHomeDir. An unset variable without a default is
// an error, except in a disabled server, where it expands to "".
//
// source names the file raw came from; it is copied to ServerSpec.Source and
// used in errors, which are *Error values.
func ServersFromMap(raw map[string]any, source, projectDir string, env func(string) (string, bool)) ([]config.ServerSpec, error) {
	if env == nil {
		env = os.LookupEnv
	}
	home, ok := env("HOME")
	if !ok || home == "" {
		home, _ = os.UserHomeDir() // without a home, ${HOME} is simply unset
	}
	p := serverParser{source: source, projectDir: projectDir, homeDir: home, env: env}
	names := make([]string, 0, len(raw))
	for name := range raw {
		names = append(names, name)
	}
	sort.Strings(names)
	specs := make([]config.ServerSpec, 0, len(names))
	for _, name := range names {
		spec, err := p.parse(name, raw[name])
		if err != nil {
			return nil, err
		}
		specs = append(specs, spec)
	}
	return specs, nil
}

// serverParser normalises the servers of one config file.
type serverParser struct {
	source, projectDir string
	// homeDir is ${HOME}; workDir only shortens paths in errors.
	homeDir, workDir string
	env              func(string) (string, bool)
	// describing parses for a description (ProjectFile.Describe): the
	// variables stay as written, so values are not checked.
	describing bool
}

// fail builds the *Error for a problem in server name's field.
func (p *serverParser) fail(name, field, format string, args ...any) *config.Error {
	return &config.Error{
		File: p.source, Server: name, Field: field,
		Message: fmt.Sprintf(format, args...),
		HomeDir: p.homeDir, WorkDir: p.workDir,
	}
}

// parse normalises one mcpServers entry.
func (p *serverParser) parse(name string, raw any) (config.ServerSpec, error) {
	if strings.TrimSpace(name) == "" {
		return config.ServerSpec{}, p.fail(name, "name", `a server under "mcpServers" has an empty name: give it a short name such as "fs"`)
	}
	if strings.Contains(name, toolNameSeparator) {
		return config.ServerSpec{}, p.fail(name, "name", `the name must not contain "__", which separates server and tool in tool names: rename it, e.g. to %q`,
			strings.ReplaceAll(name, toolNameSeparator, "_"))
	}
	m, ok := asMap(raw)
	if !ok {
		return config.ServerSpec{}, p.fail(name, "", `the entry must be an object with "command" (a program to run) or "url" (a server to reach)`)
	}
	e := entry{m: m}
	spec := config.ServerSpec{Name: name, Source: p.source, StartTimeout: config.DefaultStartTimeout}

	var err error
	if spec.Disabled, err = p.disabled(name, e); err != nil {
		return config.ServerSpec{}, err
	}
	if spec.Transport, err = p.transport(name, e); err != nil {
		return config.ServerSpec{}, err
	}
	x := expander{p: p, name: name, lenient: spec.Disabled || p.describing}
	switch spec.Transport {
	case config.TransportStdio:
		err = p.stdio(&spec, e, &x)
	case config.TransportBuiltin:
		err = p.builtin(&spec, e, &x)
	default:
		err = p.remote(&spec, e, &x)
	}
	if err == nil {
		if v, ok := e.get("roots"); ok {
			spec.Roots, err = p.roots(name, v, &x)
		}
	}
	var unset *unsetError
	if errors.As(err, &unset) {
		// This server alone cannot run: it fails to start with the error,
		// and the others run.
		spec.Err = unset.err
		return spec, nil
	}
	if err != nil {
		return config.ServerSpec{}, err
	}
	if spec.AllowedTools, err = p.stringList(name, e, "allowedTools"); err != nil {
		return config.ServerSpec{}, err
	}
	if spec.ExcludedTools, err = p.stringList(name, e, "excludedTools"); err != nil {
		return config.ServerSpec{}, err
	}
	if v, ok := e.get("timeout"); ok {
		if spec.StartTimeout, err = p.duration(name, "timeout", v); err != nil {
			return config.ServerSpec{}, err
		}
	}
	if v, ok := e.get("toolTimeout"); ok {
		if spec.ToolTimeout, err = p.duration(name, "toolTimeout", v); err != nil {
			return config.ServerSpec{}, err
		}
	}
	if v, ok := e.get("toolTotalTimeout"); ok {
		if spec.ToolTotalTimeout, err = p.duration(name, "toolTotalTimeout", v); err != nil {
			return config.ServerSpec{}, err
		}
	}
	if v, ok := e.get("maxRestarts"); ok {
		if spec.MaxRestarts, err = p.count(name, "maxRestarts", v, 0); err != nil {
			return config.ServerSpec{}, err
		}
		if spec.MaxRestarts == 0 {
			spec.MaxRestarts = -1 // never; 0 in a ServerSpec is the default
		}
	}
	if v, ok := e.get("maxResultBytes"); ok {
		if spec.MaxResultBytes, err = p.count(name, "maxResultBytes", v, 1); err != nil {
			return config.ServerSpec{}, err
		}
	}
	return spec, nil
}

// disabled reads "disabled" and opencode-style "enabled".
func (p *serverParser) disabled(name string, e entry) (bool, error) {
	disabled := false
	for _, field := range []string{"disabled", "enabled"} {
		v, ok := e.get(field)
		if !ok || v == nil {
			continue
		}
		b, ok := v.(bool)
		if !ok {
			return false, p.fail(name, field, "%q must be true or false", field)
		}
		if field == "enabled" {
			b = !b
		}
		disabled = disabled || b
	}
	return disabled, nil
}

// transport reads "type", or infers it from whether command or url is given.
func (p *serverParser) transport(name string, e entry) (config.Transport, error) {
	_, hasCommand := e.get("command")
	_, hasURL := e.get("url")
	v, ok := e.get("type")
	if !ok || v == nil || v == "" {
		switch {
		case hasCommand && hasURL:
			return "", p.fail(name, "type", `give either "command" (a program to run) or "url" (a server to reach), not both, or set "type"`)
		case hasURL:
			return config.TransportHTTP, nil
		default:
			// Most servers are stdio, so a missing command is the likelier mistake.
			return config.TransportStdio, nil
		}
	}
	s, ok := v.(string)
	if !ok {
		return "", p.fail(name, "type", `"type" must be a string: "stdio", "http" or "sse"`)
	}
	switch normKey(s) {
	case "stdio", "local":
		return config.TransportStdio, nil
	case "http", "streamablehttp", "remote":
		return config.TransportHTTP, nil
	case "sse":
		return config.TransportSSE, nil
	case "builtin":
		return config.TransportBuiltin, nil
	}
	return "", p.fail(name, "type", `unknown type %q: use "stdio" (or "local") for a program, "http" (or "remote", "streamable-http") or "sse" for a URL, "builtin" for a server inside mcphost`, s)
}

// stdio fills the fields of a server mcphost starts as a child process.
func (p *serverParser) stdio(spec *config.ServerSpec, e entry, x *expander) error {
	name := spec.Name
	missing := p.fail(name, "command", `"command" is missing: give the program to run, e.g. "command": "npx"`)
	v, ok := e.get("command")
	if !ok || v == nil {
		return missing
	}
	var command []string
	switch c := v.(type) {
	case string:
		command = []string{c}
	case []any:
		// mcphost's own format: the program and its arguments in one list.
		for i, item := range c {
			s, ok := scalarString(item)
			if !ok {
				return p.fail(name, "command", `"command" entry %d must be a string`, i+1)
			}
			command = append(command, s)
		}
	default:
		return p.fail(name, "command", `"command" must be a string, or a list of the program and its arguments`)
	}
	if len(command) == 0 || strings.TrimSpace(command[0]) == "" {
		return missing
	}
	args, err := p.stringList(name, e, "args")
	if err != nil {
		return err
	}
	args = append(append([]string(nil), command[1:]...), args...)

	if spec.Command, err = x.expand("command", `"command"`, command[0]); err != nil {
		return err
	}
	if spec.Command == "" && !x.lenient {
		return p.fail(name, "command", `"command" is empty once its variables are expanded: give the program to run`)
	}
	for i, a := range args {
		s, err := x.expand("args", fmt.Sprintf("arg %d", i+1), a)
		if err != nil {
			return err
		}
		spec.Args = append(spec.Args, s)
	}
	for _, field := range []string{"environment", "env"} {
		if err := p.envMap(spec, e, x, field); err != nil {
			return err
		}
	}
	if v, ok := e.get("cwd"); ok && v != nil {
		s, ok := v.(string)
		if !ok {
			return p.fail(name, "cwd", `"cwd" must be a string: the directory to start the server in`)
		}
		if spec.Dir, err = x.expand("cwd", `"cwd"`, s); err != nil {
			return err
		}
		spec.Dir = p.resolveDir(spec.Dir)
	}
	return nil
}

// roots reads a list of directories offered to a server as its roots
// (MCP roots): a server entry's "roots", or a file's top-level one.
// Variables are expanded; relative paths are relative to the project
// directory.
func (p *serverParser) roots(name string, v any, x *expander) ([]string, error) {
	if v == nil {
		return nil, nil
	}
	items, ok := v.([]any)
	if !ok {
		return nil, p.fail(name, "roots", `"roots" must be a list of directories, e.g. ["~/src", "${PROJECT_DIR}"]`)
	}
	out := make([]string, 0, len(items))
	for i, item := range items {
		s, ok := item.(string)
		if !ok || strings.TrimSpace(s) == "" {
			return nil, p.fail(name, "roots", `"roots" entry %d must be the path of a directory`, i+1)
		}
		dir, err := x.expand("roots", fmt.Sprintf(`"roots" entry %d`, i+1), s)
		if err != nil {
			return nil, err
		}
		if rest, ok := strings.CutPrefix(dir, "~"); ok && (rest == "" || rest[0] == '/' || rest[0] == filepath.Separator) && p.homeDir != "" {
			dir = p.homeDir + rest
		}
		out = append(out, p.resolveDir(dir))
	}
	return out, nil
}

// envMap adds the entries of the env (Claude) or environment (mcphost) map;
// env is read last, so it wins when both name a variable.
func (p *serverParser) envMap(spec *config.ServerSpec, e entry, x *expander, field string) error {
	v, ok := e.get(field)
	if !ok || v == nil {
		return nil
	}
	m, ok := asMap(v)
	if !ok {
		return p.fail(spec.Name, field, `%q must be an object of NAME: value pairs`, field)
	}
	if spec.Env == nil {
		spec.Env = make(map[string]string, len(m))
	}
	for _, k := range sortedKeys(m) {
		if k == "" || strings.ContainsAny(k, "= \t") {
			return p.fail(spec.Name, field, `%q has an entry whose name %q is not a valid variable name`, field, k)
		}
		s, ok := scalarString(m[k])
		if !ok {
			return p.fail(spec.Name, field, `%s %s must be a string`, field, k)
		}
		var err error
		if spec.Env[k], err = x.expand(field, field+" "+k, s); err != nil {
			return err
		}
	}
	return nil
}

// resolveDir makes a server's working directory absolute: "~/" is the home
// directory and a relative path is taken from the project directory.
func (p *serverParser) resolveDir(dir string) string {
	if path, ok := homeRelative(dir, p.homeDir); ok {
		return path
	}
	switch {
	case dir == "":
		return ""
	case !filepath.IsAbs(dir) && p.projectDir != "":
		return filepath.Join(p.projectDir, dir)
	}
	return filepath.Clean(dir)
}

// remote fills the fields of an http or sse server.
func (p *serverParser) remote(spec *config.ServerSpec, e entry, x *expander) error {
	name := spec.Name
	v, ok := e.get("url")
	s, isString := v.(string)
	if !ok || v == nil || (isString && strings.TrimSpace(s) == "") {
		return p.fail(name, "url", `"url" is missing: a %s server needs the address to reach, e.g. "url": "https://example.com/mcp"`, spec.Transport)
	}
	if !isString {
		return p.fail(name, "url", `"url" must be a string`)
	}
	var err error
	if spec.URL, err = x.expand("url", `"url"`, s); err != nil {
		return err
	}
	if !x.lenient {
		// The URL is not quoted back: it may carry a token in its query.
		if !config.IsHTTPURL(spec.URL) {
			return p.fail(name, "url", `"url" must be an http:// or https:// address`)
		}
	}
	if err := p.oauth(spec, e, x); err != nil {
		return err
	}
	return p.headers(spec, e, x)
}

// headers reads a headers object (Claude) or a list of "Name: value"
// strings (mcphost).
func (p *serverParser) headers(spec *config.ServerSpec, e entry, x *expander) error {
	name := spec.Name
	v, ok := e.get("headers")
	if !ok || v == nil {
		return nil
	}
	raw := map[string]string{}
	switch h := v.(type) {
	case []any:
		for i, item := range h {
			s, ok := item.(string)
			if !ok {
				return p.fail(name, "headers", `"headers" entry %d must be a string "Name: value"`, i+1)
			}
			k, val, ok := strings.Cut(s, ":")
			if !ok {
				return p.fail(name, "headers", `"headers" entry %d has no colon: write it as "Name: value"`, i+1)
			}
			k = strings.TrimSpace(k)
			if k == "" {
				return p.fail(name, "headers", `"headers" entry %d has an empty name: write it as "Name: value"`, i+1)
			}
			raw[k] = strings.TrimSpace(val)
		}
	default:
		m, ok := asMap(v)
		if !ok {
			return p.fail(name, "headers", `"headers" must be an object of Name: value pairs, or a list of "Name: value" strings`)
		}
		for k, item := range m {
			s, ok := scalarString(item)
			if !ok {
				return p.fail(name, "headers", `header %s must be a string`, k)
			}
			if strings.TrimSpace(k) == "" {
				return p.fail(name, "headers", `"headers" has an entry with an empty name`)
			}
			raw[k] = s
		}
	}
	spec.Headers = make(map[string]string, len(raw))
	for _, k := range sortedKeys(raw) {
		var err error
		if spec.Headers[k], err = x.expand("headers", "header "+k, raw[k]); err != nil {
			return err
		}
	}
	return nil
}

// stringList reads a list of plain strings such as args or allowedTools.
func (p *serverParser) stringList(name string, e entry, field string) ([]string, error) {
	v, ok := e.get(field)
	if !ok || v == nil {
		return nil, nil
	}
	items, ok := v.([]any)
	if !ok {
		return nil, p.fail(name, field, "%q must be a list of strings", field)
	}
	out := make([]string, 0, len(items))
	for i, item := range items {
		s, ok := scalarString(item)
		if !ok || item == nil {
			return nil, p.fail(name, field, "%q entry %d must be a string", field, i+1)
		}
		out = append(out, s)
	}
	return out, nil
}

// count reads a whole number no smaller than lowest (a number or a
// numeric string).
func (p *serverParser) count(name, field string, v any, lowest int) (int, error) {
	bad := p.fail(name, field, "%q must be a whole number of at least %d", field, lowest)
	var f float64
	switch t := v.(type) {
	case float64:
		f = t
	case int:
		f = float64(t)
	case int64:
		f = float64(t)
	case json.Number:
		x, err := t.Float64()
		if err != nil {
			return 0, bad
		}
		f = x
	case string:
		x, err := strconv.Atoi(strings.TrimSpace(t))
		if err != nil {
			return 0, bad
		}
		f = float64(x)
	default:
		return 0, bad
	}
	if f != math.Trunc(f) || f < float64(lowest) || f > math.MaxInt32 {
		return 0, bad
	}
	return int(f), nil
}

// duration reads field as seconds (a number or numeric string) or as a Go
// duration such as "45s" or "2m".
func (p *serverParser) duration(name, field string, v any) (time.Duration, error) {
	bad := p.fail(name, field, `%q must be a positive number of seconds or a duration such as "45s" or "2m"`, field)
	var secs float64
	switch t := v.(type) {
	case float64:
		secs = t
	case int:
		secs = float64(t)
	case int64:
		secs = float64(t)
	case json.Number:
		f, err := t.Float64()
		if err != nil {
			return 0, bad
		}
		secs = f
	case string:
		if f, err := strconv.ParseFloat(strings.TrimSpace(t), 64); err == nil {
			secs = f
			break
		}
		d, err := time.ParseDuration(strings.TrimSpace(t))
		if err != nil || d <= 0 {
			return 0, bad
		}
		return d, nil
	default:
		return 0, bad
	}
	if !(secs > 0) || secs > math.MaxInt64/float64(time.Second) {
		return 0, bad
	}
	return time.Duration(secs * float64(time.Second)), nil
}

// expander expands the variables of one server's fields.
type expander struct {
	p    *serverParser
	name string
	// lenient expands unset variables to "": a disabled server is not
	// started, and its secrets are often not exported.
	lenient bool
}

// expand expands s; field is the *Error's Field and what names the entry in
// the message, e.g. "env GITHUB_TOKEN".
func (x *expander) expand(field, what, s string) (string, error) {
	out, problem := expand(s, x.lookup)
	if problem != nil {
		err := x.p.fail(x.name, field, "%s", problem.message(what))
		if problem.variable != "" {
			return "", &unsetError{err}
		}
		return "", err
	}
	return out, nil
}

// lookup resolves a variable: the built-ins first, then the environment.
func (x *expander) lookup(name string) (string, bool) {
	switch name {
	case "PROJECT_DIR":
		return x.p.projectDir, true
	case "HOME":
		if x.p.homeDir != "" {
			return x.p.homeDir, true
		}
	}
	v, ok := x.p.env(name)
	if !ok && x.lenient {
		return "", true
	}
	return v, ok
}

// entry is one server's object, whose field names are matched loosely
// (allowedTools, allowed_tools and allowed-tools are the same field).
type entry struct{ m map[string]any }

// get returns the value of field, matched through normKey.
func (e entry) get(field string) (any, bool) {
	if v, ok := e.m[field]; ok {
		return v, true
	}
	want := normKey(field)
	for _, k := range sortedKeys(e.m) {
		if normKey(k) == want {
			return e.m[k], true
		}
	}
	return nil, false
}

// normKey folds the spellings of a key, as every reader of keys does.
func normKey(k string) string { return spell.FoldKey(k) }

// asMap returns v as a string-keyed map. YAML decodes a mapping with a
// non-string key as map[any]any; its keys are rendered as text.
func asMap(v any) (map[string]any, bool) {
	switch m := v.(type) {
	case map[string]any:
		return m, true
	case map[any]any:
		out := make(map[string]any, len(m))
		for k, val := range m {
			out[fmt.Sprint(k)] = val
		}
		return out, true
	}
	return nil, false
}

// scalarString renders a scalar config value as text, so that
// `args: [--port, 8080]` in YAML works; nil is "". Lists and maps are not
// scalars.
func scalarString(v any) (string, bool) {
	switch s := v.(type) {
	case nil:
		return "", true
	case string:
		return s, true
	case bool:
		return strconv.FormatBool(s), true
	case int:
		return strconv.Itoa(s), true
	case int64:
		return strconv.FormatInt(s, 10), true
	case uint64:
		return strconv.FormatUint(s, 10), true
	case float64:
		return strconv.FormatFloat(s, 'f', -1, 64), true
	case json.Number:
		return s.String(), true
	}
	return "", false
}

// sortedKeys returns m's keys in order, for deterministic errors.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// unsetError is an entry that uses a variable with no value: its server
// fails to start, the rest of the config stands.
type unsetError struct{ err *config.Error }

func (e *unsetError) Error() string { return e.err.Error() }
func (e *unsetError) Unwrap() error { return e.err }
