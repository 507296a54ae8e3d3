package configload

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcphost/mcphost/config"
)

// keyNoHooks turns every hook off for a run.
const keyNoHooks = "no-hooks"

// hookFileNames are the names of a hooks file, the first that exists being
// read: in the user's config directory and, as a project file that needs
// trust, in the working directory's .mcphost folder.
func hookFileNames() []string {
	return []string{"hooks.yml", "hooks.yaml", "hooks.json"}
}

// projectHooksPath is the working directory's hooks file, "" when none.
func projectHooksPath(workDir string) string {
	for _, name := range hookFileNames() {
		if path := filepath.Join(workDir, ".mcphost", name); exists(path) {
			return path
		}
	}
	return ""
}

// userHooksPath is the user's hooks file in dir, "" when none.
func userHooksPath(dir string) string {
	if dir == "" {
		return ""
	}
	for _, name := range hookFileNames() {
		if path := filepath.Join(dir, name); exists(path) {
			return path
		}
	}
	return ""
}

// isHooksFile reports whether path is a hooks file rather than a config
// file: its events may stand at the top, without "hooks:".
func isHooksFile(path string) bool {
	return slices.Contains(hookFileNames(), filepath.Base(path))
}

// hooks gathers the hooks of files (the user's hooks file, the hooks:
// sections of config files, the project's trusted hooks file), in that
// order: rules of every file add up.
func (o *LoadOptions) hooks(files []*configFile) (config.Hooks, error) {
	out := config.Hooks{}
	for _, f := range files {
		raw, ok := f.sections[keyHooks]
		if !ok || raw == nil {
			continue
		}
		events, ok := asMap(raw)
		if !ok {
			return nil, o.fail(f.path, keyHooks, nil, `"hooks" must be an object of events (%s), each a list of {matcher, hooks}`, strings.Join(config.HookEvents(), ", "))
		}
		for _, event := range sortedKeys(events) {
			name, known := hookEvent(event)
			if !known {
				if best, ok := closestKey(normKey(event), config.HookEvents()); ok {
					return nil, o.fail(f.path, keyHooks, nil, "%q is not a hook event: did you mean %q? (the events are %s; --no-hooks runs without hooks)", event, best, strings.Join(config.HookEvents(), ", "))
				}
				return nil, o.fail(f.path, keyHooks, nil, "%q is not a hook event: use %s (--no-hooks runs without hooks)", event, strings.Join(config.HookEvents(), ", "))
			}
			rules, err := o.hookRules(f.path, name, events[event])
			if err != nil {
				return nil, err
			}
			for i := range rules {
				rules[i].Project = f.project
				if f.project {
					rules[i].Scripts = f.scripts
				}
			}
			out[name] = append(out[name], rules...)
		}
	}
	return out, nil
}

// hookEvent returns the event name for a key written in any case.
func hookEvent(key string) (string, bool) {
	for _, e := range config.HookEvents() {
		if strings.EqualFold(e, key) {
			return e, true
		}
	}
	return "", false
}

// hookRules reads an event's list of {matcher, hooks: [{type, command,
// timeout}]}.
func (o *LoadOptions) hookRules(file, event string, raw any) ([]config.HookRule, error) {
	fail := func(format string, args ...any) error {
		return o.fail(file, keyHooks, nil, "%s: %s", event, fmt.Sprintf(format, args...))
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, fail("must be a list of {matcher, hooks}")
	}
	var rules []config.HookRule
	for i, item := range list {
		m, ok := asMap(item)
		if !ok {
			return nil, fail("entry %d must be an object with matcher and hooks", i+1)
		}
		var matcher string
		me := entry{m: m}
		if v, ok := me.get("matcher"); ok && v != nil {
			s, ok := v.(string)
			if !ok {
				return nil, fail("entry %d: matcher must be text, a tool name or a regular expression", i+1)
			}
			matcher = s
		}
		rule, err := config.NewHookRule(matcher, file)
		if err != nil {
			return nil, fail("entry %d: matcher %q is not a regular expression: %v", i+1, matcher, err)
		}
		cmds, _ := me.get("hooks")
		cl, ok := cmds.([]any)
		if !ok || len(cl) == 0 {
			return nil, fail("entry %d needs hooks: a list of {type: command, command: ...}", i+1)
		}
		for j, c := range cl {
			cm, ok := asMap(c)
			if !ok {
				return nil, fail("entry %d, hook %d must be an object with type and command", i+1, j+1)
			}
			e := entry{m: cm}
			if t, ok := e.get("type"); ok && t != nil && t != "command" {
				return nil, fail("entry %d, hook %d: type %v is not supported: use type: command", i+1, j+1, t)
			}
			cmd, _ := e.get("command")
			s, ok := cmd.(string)
			if !ok || strings.TrimSpace(s) == "" {
				return nil, fail("entry %d, hook %d needs command: the shell command to run", i+1, j+1)
			}
			hc := config.HookCommand{Command: s, Timeout: config.DefaultHookTimeout}
			if t, ok := e.get("timeout"); ok && t != nil {
				secs, ok := toFloat(t)
				if !ok || secs <= 0 {
					return nil, fail("entry %d, hook %d: timeout must be a number of seconds, got %v", i+1, j+1, t)
				}
				hc.Timeout = time.Duration(secs * float64(time.Second))
			}
			rule.Commands = append(rule.Commands, hc)
		}
		rules = append(rules, rule)
	}
	return rules, nil
}

// decodeHooksFile decodes a hooks file: "hooks:" at the top, or the
// events themselves.
func (r fileReader) decodeHooksFile(path string, data []byte) (*configFile, error) {
	doc, err := r.decodeDoc(path, data)
	if err != nil {
		return nil, err
	}
	// A hooks file holds hooks only: nothing else in it is read.
	cf := &configFile{path: path, projectDir: filepath.Dir(path), settings: map[string]any{}, sections: map[string]any{}}
	if top, ok := asMap(doc); ok {
		for k, v := range top {
			if normKey(k) == keyHooks {
				doc = v
			}
		}
	}
	cf.sections[keyHooks] = doc
	cf.warnings = hookKeyWarnings(config.DisplayPath(path, r.homeDir, r.workDir), doc)
	return cf, nil
}

// noHooksAsked reports whether --no-hooks (or MCPHOST_NO_HOOKS) turns
// hooks off for this run, as known before any file is read: the hooks
// files are then not read at all, so that no mistake in them can stop
// the run that works around it.
func (o *LoadOptions) noHooksAsked() bool {
	if on, err := strconv.ParseBool(o.flagString(keyNoHooks)); err == nil && on {
		return true
	}
	v, _ := o.Env(envName(keyNoHooks))
	on, err := strconv.ParseBool(strings.TrimSpace(v))
	return err == nil && on
}

// readUserHooks reads the user's hooks file, if there is one and hooks
// are not turned off.
func (o *LoadOptions) readUserHooks(r fileReader) (*configFile, error) {
	path := userHooksPath(o.ConfigDir)
	if path == "" || o.noHooksAsked() {
		return nil, nil
	}
	data, err := r.readBytes(path)
	if err != nil {
		return nil, err
	}
	return r.decodeHooksFile(path, data)
}
