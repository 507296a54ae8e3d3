package configload

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/mcphost/mcphost/config"
)

// Describe says, one line each, what the project file f would do if it
// were used: the servers it would start or reach (commands with their
// arguments, URLs, the names of the variables and headers it sets), the
// settings it would change and its approval rules. Values are shown as
// the file writes them, ${VAR} unexpanded, so that no secret from the
// environment is printed, and quoted when they hold spaces, quotes or
// control characters, so that no value can pass for another line or
// draw on the terminal. The error is the file's own problem (bad syntax,
// a bad server entry), for the caller to show with the rest.
func Describe(f config.ProjectFile) ([]string, error) {
	r := fileReader{homeDir: f.HomeDir, workDir: f.WorkDir}
	var (
		cf  *configFile
		err error
	)
	if isHooksFile(f.Path) {
		cf, err = r.decodeHooksFile(f.Path, f.Data)
	} else {
		cf, err = r.decode(f.Path, f.WorkDir, f.Data)
	}
	if err != nil {
		return nil, err
	}
	var lines []string
	hooks, err := (&LoadOptions{HomeDir: f.HomeDir, WorkDir: f.WorkDir}).hooks([]*configFile{cf})
	if err != nil {
		return nil, err
	}
	for _, event := range config.HookEvents() {
		for _, rule := range hooks[event] {
			for _, c := range rule.Commands {
				at := event
				if rule.Matcher != "" && rule.Matcher != "*" {
					at += " of tools matching " + quoted(rule.Matcher)
				}
				lines = append(lines, fmt.Sprintf("run the command %s at %s", quoted(c.Command), at))
			}
		}
	}
	servers, err := describeServers(f, cf)
	lines = append(lines, servers...)
	for _, k := range sortedKeys(cf.settings) {
		lines = append(lines, describeSetting(f, k, cf.settings[k]))
	}
	lines = append(lines, describeApproval(cf.approval)...)
	if len(lines) == 0 {
		lines = append(lines, "nothing mcphost uses (no mcpServers, settings, approval rules or hooks)")
	}
	return lines, err
}

// describeServers describes the mcpServers of cf.
func describeServers(f config.ProjectFile, cf *configFile) ([]string, error) {
	if cf.servers == nil {
		return nil, nil
	}
	if len(cf.servers) == 0 {
		return []string{"start no MCP servers (an empty mcpServers: not even the built-in fs server)"}, nil
	}
	// Variables stay as written: the file is described, not run, and the
	// environment may hold secrets.
	asWritten := func(name string) (string, bool) { return "${" + name + "}", true }
	p := serverParser{
		source: f.Path, projectDir: f.WorkDir, homeDir: f.HomeDir, workDir: f.WorkDir,
		env: asWritten, describing: true,
	}
	var lines []string
	for _, name := range sortedKeys(cf.servers) {
		spec, err := p.parse(name, cf.servers[name])
		if err != nil {
			return lines, err
		}
		if spec.Roots == nil && cf.roots != nil {
			x := expander{p: &p, lenient: true}
			if spec.Roots, err = p.roots("", cf.roots, &x); err != nil {
				return lines, err
			}
		}
		lines = append(lines, describeServer(spec))
	}
	return lines, nil
}

// describeServer is one server's line.
func describeServer(spec config.ServerSpec) string {
	var b strings.Builder
	name := "server " + quoted(spec.Name)
	switch spec.Transport {
	case config.TransportStdio:
		fmt.Fprintf(&b, "start %s: %s", name, quoted(spec.Command))
		for _, a := range spec.Args {
			b.WriteString(" " + quoted(a))
		}
		if spec.Dir != "" {
			fmt.Fprintf(&b, " (in %s)", quoted(spec.Dir))
		}
		if len(spec.Env) > 0 {
			fmt.Fprintf(&b, ", setting %s", quotedList(sortedKeys(spec.Env)))
		}
	case config.TransportBuiltin:
		fmt.Fprintf(&b, "run %s: the built-in %s server", name, quoted(spec.Builtin))
		if len(spec.Options) > 0 {
			opts, _ := json.Marshal(spec.Options)
			fmt.Fprintf(&b, " with options %s", quoted(string(opts)))
		}
	default:
		fmt.Fprintf(&b, "connect to %s: %s (%s)", name, quoted(spec.URL), spec.Transport)
		if len(spec.Headers) > 0 {
			fmt.Fprintf(&b, ", sending the headers %s", quotedList(sortedKeys(spec.Headers)))
		}
	}
	if len(spec.Roots) > 0 {
		// Roots widen what a server such as server-filesystem may reach.
		fmt.Fprintf(&b, ", giving it the directories %s as its roots", quotedList(spec.Roots))
	}
	if spec.Disabled {
		b.WriteString(" (disabled)")
	}
	return b.String()
}

// describeSetting is one setting's line.
func describeSetting(f config.ProjectFile, key string, val any) string {
	text, ok := scalarString(val)
	if !ok {
		data, _ := json.Marshal(val)
		text = string(data)
	}
	line := fmt.Sprintf("set %s: %s", key, quoted(text))
	switch key {
	case keyYolo:
		if b, ok := parseBool(val); !ok || b {
			line += " (refused: a project file cannot turn off approval)"
		}
	case keySystemPrompt:
		path, fromHome := homeRelative(text, f.HomeDir)
		if !fromHome && !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(f.Path), path)
		}
		if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() {
			line = fmt.Sprintf("set system-prompt: the contents of the file %s", quoted(path))
		}
	}
	return line
}

// describeApproval describes an approval section; a malformed one is
// reported when the file is used.
func describeApproval(raw any) []string {
	m, ok := asMap(raw)
	if !ok {
		return nil
	}
	var lines []string
	for _, k := range sortedKeys(m) {
		var patterns []string
		switch v := m[k].(type) {
		case string:
			patterns = []string{v}
		case []any:
			for _, item := range v {
				if s, ok := scalarString(item); ok {
					patterns = append(patterns, s)
				}
			}
		}
		if len(patterns) == 0 {
			continue
		}
		switch normKey(k) {
		case "allow":
			lines = append(lines, "allow without asking, unless your own rules ask or deny: "+quotedList(patterns))
		case "ask":
			lines = append(lines, "ask before running: "+quotedList(patterns))
		case "deny":
			lines = append(lines, "never run: "+quotedList(patterns))
		}
	}
	return lines
}

// quoted returns s as it is when it is plain, else Go-quoted, which shows
// spaces, quotes, newlines, escape sequences and invisible characters.
func quoted(s string) string {
	plain := s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return r == '"' || r == '\'' || r == '\\' || unicode.IsSpace(r) || !unicode.IsPrint(r)
	})
	if plain {
		return s
	}
	return strconv.Quote(s)
}

// quotedList joins the quoted items with commas.
func quotedList(items []string) string {
	out := make([]string, len(items))
	for i, s := range items {
		out[i] = quoted(s)
	}
	return strings.Join(out, ", ")
}
