package configload

import (
	"fmt"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mcphost/mcphost/config"
)

// The approval flags, repeatable and flag-only: rules in files go under
// "approval:".
const (
	keyAllowTool = "allow-tool"
	keyDenyTool  = "deny-tool"
	keyYolo      = "yolo"
	keyAudit     = "audit"
	keyApproval  = "approval"
)

// approval gathers the rules of every config file (they add up, whichever
// file they are in) and of the flags, checking each pattern; a project
// file's go to Approval.Project.
func (o *LoadOptions) approval(files []*configFile) (config.Approval, error) {
	var a config.Approval
	for _, f := range files {
		if f.approval == nil {
			continue
		}
		m, ok := asMap(f.approval)
		if !ok {
			return a, o.fail(f.path, keyApproval, nil, `"approval" must be an object with "allow", "ask" and "deny" lists of tool patterns such as "fs__read_*"`)
		}
		rules := &config.Rules{Allow: a.Allow, Ask: a.Ask, Deny: a.Deny}
		if f.project {
			rules = &a.Project
		}
		for _, k := range sortedKeys(m) {
			var list *[]string
			switch normKey(k) {
			case "allow":
				list = &rules.Allow
			case "ask":
				list = &rules.Ask
			case "deny":
				list = &rules.Deny
			default:
				return a, o.fail(f.path, keyApproval, nil, `"approval" has an unknown key %q: use "allow", "ask" or "deny"`, k)
			}
			patterns, err := o.patternList(f.path, "approval."+normKey(k), m[k])
			if err != nil {
				return a, err
			}
			*list = append(*list, patterns...)
		}
		if !f.project {
			a.Allow, a.Ask, a.Deny = rules.Allow, rules.Ask, rules.Deny
		}
	}
	for _, fl := range []struct {
		key  string
		list *[]string
	}{{keyAllowTool, &a.Allow}, {keyDenyTool, &a.Deny}} {
		f := o.Flags.Lookup(fl.key)
		if f == nil || !f.Changed {
			continue
		}
		values, err := o.Flags.GetStringArray(fl.key)
		if err != nil {
			continue
		}
		if len(values) == 0 { // pflag reads --deny-tool "" as no value
			values = []string{""}
		}
		for _, p := range values {
			if err := checkPattern(p); err != nil {
				return a, o.fail("", fl.key, nil, "--%s %s", fl.key, err)
			}
			*fl.list = append(*fl.list, p)
		}
	}
	return a, nil
}

// patternList reads a list of patterns (or a single one) from a file.
func (o *LoadOptions) patternList(file, field string, v any) ([]string, error) {
	var items []any
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		items = []any{x}
	case []any:
		items = x
	default:
		return nil, o.fail(file, field, nil, "%q must be a list of tool patterns such as \"fs__read_*\"", field)
	}
	var out []string
	for i, item := range items {
		s, ok := item.(string)
		if !ok {
			return nil, o.fail(file, field, nil, "%q entry %d must be a string", field, i+1)
		}
		if err := checkPattern(s); err != nil {
			return nil, o.fail(file, field, nil, "%q entry %d: %v", field, i+1, err)
		}
		out = append(out, s)
	}
	return out, nil
}

// checkPattern rejects what path.Match cannot match with, and empty
// patterns, which would match nothing and are surely a mistake.
func checkPattern(p string) error {
	if strings.TrimSpace(p) == "" {
		return fmt.Errorf("is an empty pattern: give a tool name such as \"fs__read_file\" or a glob such as \"fs__*\"")
	}
	if _, err := path.Match(p, ""); err != nil {
		return fmt.Errorf("%q is not a valid pattern: use * for any text, ? for one character and [abc] for a class", p)
	}
	return nil
}

// definesServers reports whether any file has an mcpServers object, even
// an empty one, which says "no servers" on purpose.
func definesServers(files []*configFile) bool {
	for _, f := range files {
		if f.servers != nil {
			return true
		}
	}
	return false
}

// defaultServers is what mcphost runs when no config file defines
// mcpServers (LoadOptions.DefaultServer): the built-in fs server, confined
// to the working directory, so that "what is in this folder?" works on a
// fresh machine.
func (o *LoadOptions) defaultServers() []config.ServerSpec {
	return []config.ServerSpec{{
		Name:         config.DefaultServerName,
		Transport:    config.TransportBuiltin,
		Builtin:      "fs",
		Options:      map[string]any{"allowed_directories": []any{o.WorkDir}},
		StartTimeout: config.DefaultStartTimeout,
	}}
}

// auditPath resolves the audit log's path: "~/" is the home directory and
// a relative path is taken from the config file that set it, or else from
// the working directory.
func (o *LoadOptions) auditPath(value string, from origin) string {
	if path, ok := homeRelative(value, o.HomeDir); ok {
		return path
	}
	switch {
	case value == "":
		return ""
	case filepath.IsAbs(value):
		return filepath.Clean(value)
	case from.file != "":
		return filepath.Join(filepath.Dir(from.file), value)
	}
	return filepath.Join(o.WorkDir, value)
}

// refuseProjectYolo takes yolo out of the project files' settings: a
// folder the user opened must not turn off approval. A yolo that asks for
// it is named in the returned warnings.
func refuseProjectYolo(files []*configFile) []string {
	var warnings []string
	for _, f := range files {
		val, ok := f.settings[keyYolo]
		if !f.project || !ok {
			continue
		}
		delete(f.settings, keyYolo)
		if b, ok := parseBool(val); ok && !b {
			continue
		}
		warnings = append(warnings, fmt.Sprintf("ignoring \"yolo\" in the project config file %s: a project file cannot turn off approval; use --yolo or your own config file", filepath.Base(f.path)))
	}
	return warnings
}

// parseBool reads true or false from a bool or a string such as "1" or
// "false".
func parseBool(v any) (bool, bool) {
	switch b := v.(type) {
	case bool:
		return b, true
	case string:
		if v, err := strconv.ParseBool(strings.TrimSpace(b)); err == nil {
			return v, true
		}
	}
	return false, false
}
