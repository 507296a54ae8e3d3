package configload

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/provider"
)

// Describe says, one line each, what the project file f would do if it
// were used: the servers it would start or reach (commands with their
// arguments, URLs, the names of the variables and headers it sets, OAuth
// settings), the engines it names or moves, the settings it would change,
// its per-model settings, approval rules and hooks, and the project files
// it runs, trusted with it. Values are shown as the file writes them,
// ${VAR} unexpanded, so that no secret from the environment is printed,
// and quoted when they hold spaces, quotes or control characters, so that
// no value can pass for another line or draw on the terminal. The error
// is the file's own problem (bad syntax, a bad server entry), for the
// caller to show with the rest.
//
// It fails closed: every top-level key that mcphost reads (the settings
// and sections of fileKeys and topLevelSections, the one list the loader
// also checks keys against) gets a line, the raw value if nothing better
// describes it; "nothing mcphost uses" is said only when the file holds no
// such key.
func Describe(f config.ProjectFile) ([]string, error) {
	r := fileReader{homeDir: f.HomeDir, workDir: f.WorkDir}
	var (
		cf  *configFile
		err error
	)
	hooksFile := isHooksFile(f.Path)
	if hooksFile {
		cf, err = r.decodeHooksFile(f.Path, f.Data)
	} else {
		cf, err = r.decode(f.Path, f.WorkDir, f.Data)
	}
	if err != nil {
		return nil, err
	}
	// The keys the file sets that mcphost reads, by their normKey, each
	// crossed off when a line describes it.
	pending := map[string]string{}
	var ignored []string
	if !hooksFile {
		doc, _ := r.decodeDoc(f.Path, f.Data) // decoded above: no error
		top, _ := asMap(doc)
		known := append(fileKeys(), topLevelSections()...)
		for _, k := range sortedKeys(top) {
			if top[k] == nil {
				continue // the loader skips a key set to null
			}
			if i := slices.IndexFunc(known, func(s string) bool { return normKey(s) == normKey(k) }); i >= 0 {
				pending[normKey(k)] = k
			} else {
				ignored = append(ignored, k)
			}
		}
	} else if cf.sections[keyHooks] != nil {
		pending[normKey(keyHooks)] = keyHooks
	}
	done := func(key string) { delete(pending, normKey(key)) }

	var lines []string
	project := &LoadOptions{HomeDir: f.HomeDir, WorkDir: f.WorkDir}
	cf.project = true
	hooks, err := project.hooks([]*configFile{cf})
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
				line := fmt.Sprintf("run the command %s at %s", quoted(c.Command), at)
				if event == config.HookPreToolUse {
					line += " (a project's hook may deny or ask about tool calls, not approve them)"
				}
				lines = append(lines, line)
				done(keyHooks)
			}
		}
	}
	servers, err := describeServers(f, cf)
	if cf.servers != nil {
		done("mcpServers")
		if cf.roots != nil {
			done("roots") // shown with each server it reaches
		}
	}
	lines = append(lines, servers...)
	providers := describeProviders(cf.providers)
	if len(providers) > 0 {
		done(keyProviders)
	}
	lines = append(lines, providers...)
	for _, k := range sortedKeys(cf.settings) {
		lines = append(lines, describeSetting(f, k, cf.settings[k]))
		done(k)
	}
	models := describeModels(cf.sections[keyModels])
	if len(models) > 0 {
		done(keyModels)
	}
	lines = append(lines, models...)
	approval := describeApproval(cf.approval)
	if len(approval) > 0 {
		done(keyApproval)
	}
	lines = append(lines, approval...)
	// Whatever no line above described yet (a section that does not
	// parse, a key added later) is shown as written.
	for _, nk := range sortedKeys(pending) {
		lines = append(lines, "set "+describeRaw(pending[nk], rawValue(f, r, pending[nk])))
	}
	used := len(lines) > 0
	for _, path := range sortedKeys(f.Scripts) {
		lines = append(lines, fmt.Sprintf("run or read the project file %s (trusted with it: a change to it asks for trust again)",
			quoted(config.DisplayPath(path, f.HomeDir, f.WorkDir))))
	}
	if !used {
		what := "nothing mcphost uses (no mcpServers, providers, settings, models, approval rules or hooks)"
		if len(ignored) > 0 {
			what += "; mcphost ignores its keys " + quotedList(ignored)
		}
		lines = append(lines, what)
	}
	return lines, err
}

// rawValue is the value of the top-level key k of f as written.
func rawValue(f config.ProjectFile, r fileReader, k string) any {
	doc, _ := r.decodeDoc(f.Path, f.Data)
	if top, ok := asMap(doc); ok {
		return top[k]
	}
	return doc
}

// describeRaw is "KEY: VALUE" with the value as rawText writes it.
func describeRaw(key string, val any) string {
	return key + ": " + rawText(val)
}

// rawText is a value as written: a scalar as text, anything else as JSON,
// quoted when it needs to be.
func rawText(val any) string {
	text, ok := scalarString(val)
	if !ok {
		data, _ := json.Marshal(jsonable(val))
		text = string(data)
	}
	return quoted(text)
}

// jsonable turns YAML's map[any]any into map[string]any, for json.Marshal.
func jsonable(v any) any {
	switch t := v.(type) {
	case []any:
		out := make([]any, len(t))
		for i, item := range t {
			out[i] = jsonable(item)
		}
		return out
	}
	if m, ok := asMap(v); ok {
		out := make(map[string]any, len(m))
		for k, item := range m {
			out[k] = jsonable(item)
		}
		return out
	}
	return v
}

// describeProviders describes a providers section: each engine it names,
// where its requests go and what they carry. An entry named after an
// engine of provider.Engines moves that engine: said so, with the address
// it replaces. A malformed section is left to the fail-closed line.
func describeProviders(raw any) []string {
	m, ok := asMap(raw)
	if !ok {
		return nil
	}
	var lines []string
	for _, name := range sortedKeys(m) {
		e, ok := asMap(m[name])
		if !ok {
			lines = append(lines, "name the engine "+describeRaw(quoted(name), m[name]))
			continue
		}
		ent := entry{m: e}
		url, _ := ent.get("url")
		urlText, _ := scalarString(url)
		var b strings.Builder
		if row, builtin := provider.LookupEngine(name); builtin && strings.EqualFold(row.Name, strings.TrimSpace(name)) {
			fmt.Fprintf(&b, "redirect the built-in engine %s (-m %s:MODEL, normally at %s) to %s: your prompts, tool results and its API key go there",
				row.Name, row.Name, row.URL, quoted(urlText))
		} else {
			fmt.Fprintf(&b, "name the engine %s (-m %s:MODEL) at %s", quoted(name), quoted(name), quoted(urlText))
		}
		if t, ok := ent.get("type"); ok && t != nil {
			ts, _ := scalarString(t)
			fmt.Fprintf(&b, ", of type %s", quoted(ts))
		}
		if k, ok := ent.get("api-key"); ok && k != nil {
			ks, _ := scalarString(k)
			fmt.Fprintf(&b, ", sending the API key %s", quoted(ks))
		}
		if h, ok := ent.get("headers"); ok && h != nil {
			if hm, ok := asMap(h); ok {
				fmt.Fprintf(&b, ", sending the headers %s", quotedList(sortedKeys(hm)))
			} else {
				fmt.Fprintf(&b, ", sending the headers %s", rawText(h))
			}
		}
		lines = append(lines, b.String())
	}
	return lines
}

// describeModels describes a models section: the settings each model
// gets.
func describeModels(raw any) []string {
	m, ok := asMap(raw)
	if !ok {
		return nil
	}
	var lines []string
	for _, name := range sortedKeys(m) {
		lines = append(lines, "set for the model "+describeRaw(quoted(name), m[name]))
	}
	return lines
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
		lines = append(lines, describeServer(spec)+describeServerExtras(cf.servers[name]))
	}
	return lines, nil
}

// describedServerFields are the fields of a server entry that
// describeServer shows (or that pick what it shows).
func describedServerFields() []string {
	return []string{"type", "command", "args", "env", "environment", "cwd", "url", "headers", "oauth", "name", "options", "roots", "disabled", "enabled"}
}

// describeServerExtras names the other fields a server entry sets, with
// their values, so that no field of a server goes unseen, whatever it
// does.
func describeServerExtras(raw any) string {
	m, ok := asMap(raw)
	if !ok {
		return ""
	}
	var extras []string
	for _, k := range sortedKeys(m) {
		if m[k] == nil || slices.ContainsFunc(describedServerFields(), func(f string) bool { return normKey(f) == normKey(k) }) {
			continue
		}
		extras = append(extras, describeRaw(quoted(k), m[k]))
	}
	if len(extras) == 0 {
		return ""
	}
	return ", with " + strings.Join(extras, ", ")
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
		if o := spec.OAuth; o != nil {
			b.WriteString(", signing in with OAuth")
			var parts []string
			if o.ClientID != "" {
				parts = append(parts, "client id "+quoted(o.ClientID))
			}
			if o.ClientSecret != "" {
				parts = append(parts, "a client secret")
			}
			if o.ClientMetadataURL != "" {
				parts = append(parts, "client metadata at "+quoted(o.ClientMetadataURL))
			}
			if len(o.Scopes) > 0 {
				parts = append(parts, "scopes "+quotedList(o.Scopes))
			}
			if o.RedirectPort != 0 {
				parts = append(parts, fmt.Sprintf("redirect port %d", o.RedirectPort))
			}
			if len(parts) > 0 {
				b.WriteString(" (" + strings.Join(parts, ", ") + ")")
			}
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
	case keyProviderURL:
		line += fmt.Sprintf(" (the address of openai: and of the presets %s, which get your prompts, tool results and the API key, OPENAI_API_KEY for openai:)",
			strings.Join(provider.Presets(), ":, ")+":")
	case keyOllamaHost:
		line += " (moves Ollama: your prompts and tool results go there)"
	case keyProviderAPIKey:
		line += " (the API key sent to the OpenAI-compatible engine)"
	case keyModel, keyEmbedModel:
		line += " (the model, and so the engine, that gets your prompts)"
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
