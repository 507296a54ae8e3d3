// Package eval runs a set of tasks on models with the configured MCP
// servers and judges each run ("mcphost eval", host.Eval): it reads task
// files, checks them before anything runs, judges a run against what the
// task expects and adds the runs up per model. It knows nothing of
// engines or servers: the caller runs each task (see Engine).
package eval

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/spell"
)

// Task is one task of a task file: a prompt and what its run must show.
type Task struct {
	// Name names the task in the report; unique in its file.
	Name string
	// Prompt is sent as the user's message of a new conversation.
	Prompt string
	// Tools must each be called at least once, in any order.
	Tools []string
	// Args holds, per tool, arguments that one of its calls must have
	// (a subset: the call may have more).
	Args map[string]map[string]any
	// Answer, when not nil, must match the final answer.
	Answer *regexp.Regexp
	// Repeat is how many times the task runs on each model, at least 1.
	Repeat int
	// Line is the task's line in its file, 0 for a task made in code.
	Line int
}

// Expected lists the tools the task expects called: Tools, then the tools
// of Args not among them.
func (t Task) Expected() []string {
	out := slices.Clone(t.Tools)
	for _, name := range sortedKeys(t.Args) {
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// File is a parsed task file.
type File struct {
	// Path is the file's path as given.
	Path string
	// Tasks are the file's tasks, in order.
	Tasks []Task
	// Servers is the file's mcpServers object as decoded (nil when the file
	// has none): they replace the config's servers, as a script's do.
	Servers map[string]any
	// SystemPrompt is the file's system-prompt, "" when it has none.
	SystemPrompt string
	// Approval holds the file's approval rules.
	Approval config.Rules
}

// Starts reports whether the file would change what runs beyond its
// prompts: servers it starts, or approval rules. Such a file is used only
// when trusted.
func (f *File) Starts() bool {
	return f.Servers != nil || len(f.Approval.Allow)+len(f.Approval.Ask)+len(f.Approval.Deny) > 0
}

// The keys of a task file, as written in the documentation; they are
// matched folded (spell.FoldKey), as config keys are.
var (
	fileKeys   = []string{"tasks", "mcpServers", "system-prompt", "approval"}
	taskKeys   = []string{"name", "prompt", "expect", "repeat"}
	expectKeys = []string{"tools", "args", "answer"}
	ruleKeys   = []string{"allow", "ask", "deny"}
)

// maxRepeat bounds repeat: a typo of 1000 would run for hours.
const maxRepeat = 100

// parser reads one file, its errors naming the file and the line.
type parser struct{ path string }

// fail is an error at node's line.
func (p parser) fail(n *yaml.Node, format string, a ...any) error {
	msg := fmt.Sprintf(format, a...)
	if n != nil && n.Line > 0 {
		msg = fmt.Sprintf("line %d: %s", n.Line, msg)
	}
	return &config.Error{File: p.path, Message: msg}
}

// Parse reads the task file data; filename names it in errors. Every problem is
// a *config.Error naming the file and the line: an unknown key (with the
// key it most likely meant), a missing name or prompt, a repeat that is
// not a positive number, a regular expression that does not compile.
func Parse(filename string, data []byte) (*File, error) {
	p := parser{path: filename}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &config.Error{File: filename, Message: "not valid YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if len(doc.Content) == 0 {
		return nil, &config.Error{File: filename, Message: `the file is empty: write a list of tasks under "tasks:" (see mcphost help eval)`}
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, p.fail(top, `a task file is a mapping with a "tasks:" list (and optionally mcpServers, system-prompt, approval)`)
	}
	f := &File{Path: filename}
	var tasks *yaml.Node
	err := p.mapping(top, fileKeys, "the task file", func(key string, k, v *yaml.Node) error {
		switch key {
		case "tasks":
			tasks = v
		case "mcpServers":
			var m map[string]any
			if v.Kind != yaml.MappingNode || v.Decode(&m) != nil {
				return p.fail(v, `"mcpServers" must be an object with one entry per server name, as in a config file`)
			}
			if m == nil {
				m = map[string]any{}
			}
			f.Servers = m
		case "system-prompt":
			if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
				return p.fail(v, `"system-prompt" must be text`)
			}
			f.SystemPrompt = v.Value
		case "approval":
			return p.mapping(v, ruleKeys, `"approval"`, func(key string, _, v *yaml.Node) error {
				list, err := p.strings(v, `"approval.`+key+`" must be a list of tool patterns such as "fs__read_*"`)
				if err != nil {
					return err
				}
				for _, pattern := range list {
					if strings.TrimSpace(pattern) == "" {
						return p.fail(v, `"approval.%s" has an empty pattern: write tool patterns such as "fs__read_*"`, key)
					}
					if _, err := path.Match(pattern, ""); err != nil {
						return p.fail(v, `"approval.%s" has the pattern %q, which is not a valid glob: close its [ ] or quote the character with a backslash`, key, pattern)
					}
				}
				switch key {
				case "allow":
					f.Approval.Allow = append(f.Approval.Allow, list...)
				case "ask":
					f.Approval.Ask = append(f.Approval.Ask, list...)
				case "deny":
					f.Approval.Deny = append(f.Approval.Deny, list...)
				}
				return nil
			})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if tasks == nil || tasks.Kind != yaml.SequenceNode || len(tasks.Content) == 0 {
		at := top
		if tasks != nil {
			at = tasks
		}
		return nil, p.fail(at, `"tasks" must be a list of tasks, each with a name and a prompt`)
	}
	seen := map[string]int{}
	for _, n := range tasks.Content {
		t, err := p.task(n)
		if err != nil {
			return nil, err
		}
		if line, ok := seen[t.Name]; ok {
			return nil, p.fail(n, "a second task is named %q (the first is on line %d): give each task its own name", t.Name, line)
		}
		seen[t.Name] = t.Line
		f.Tasks = append(f.Tasks, t)
	}
	return f, nil
}

// task reads one entry of tasks.
func (p parser) task(n *yaml.Node) (Task, error) {
	t := Task{Repeat: 1, Line: n.Line}
	if n.Kind != yaml.MappingNode {
		return t, p.fail(n, "each task must be a mapping with a name and a prompt")
	}
	err := p.mapping(n, taskKeys, "a task", func(key string, _, v *yaml.Node) error {
		switch key {
		case "name":
			if v.Kind != yaml.ScalarNode || strings.TrimSpace(v.Value) == "" {
				return p.fail(v, `a task's "name" must be text`)
			}
			t.Name = strings.TrimSpace(v.Value)
		case "prompt":
			if v.Kind != yaml.ScalarNode || strings.TrimSpace(v.Value) == "" || v.Tag == "!!null" {
				return p.fail(v, `a task's "prompt" must be text`)
			}
			t.Prompt = v.Value
		case "repeat":
			var r int
			if v.Kind != yaml.ScalarNode || v.Decode(&r) != nil || r < 1 || r > maxRepeat {
				return p.fail(v, `"repeat" must be a whole number from 1 to %d, got %q`, maxRepeat, v.Value)
			}
			t.Repeat = r
		case "expect":
			return p.expect(v, &t)
		}
		return nil
	})
	if err != nil {
		return t, err
	}
	switch {
	case t.Name == "":
		return t, p.fail(n, `a task has no "name": give each task a name for the report`)
	case t.Prompt == "":
		return t, p.fail(n, `the task %q has no "prompt": write what the model is asked`, t.Name)
	}
	return t, nil
}

// expect reads a task's expect: mapping.
func (p parser) expect(n *yaml.Node, t *Task) error {
	return p.mapping(n, expectKeys, `"expect"`, func(key string, _, v *yaml.Node) error {
		switch key {
		case "tools":
			list, err := p.strings(v, `"expect.tools" must be a list of tool names as the model sees them, such as everything__echo`)
			if err != nil {
				return err
			}
			t.Tools = list
		case "args":
			var m map[string]map[string]any
			if v.Kind != yaml.MappingNode || v.Decode(&m) != nil {
				return p.fail(v, `"expect.args" must map each tool name to the arguments it must be called with, e.g. {everything__echo: {message: kiwi}}`)
			}
			for name, args := range m {
				if args == nil {
					return p.fail(v, `"expect.args" gives no arguments for %s: write them as {NAME: VALUE}, or list the tool under expect.tools`, name)
				}
			}
			t.Args = m
		case "answer":
			if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
				return p.fail(v, `"expect.answer" must be a regular expression, as text`)
			}
			re, err := regexp.Compile(v.Value)
			if err != nil {
				return p.fail(v, "expect.answer %q is not a regular expression that compiles (%s): fix it, or quote special characters with a backslash", v.Value, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
			}
			t.Answer = re
		}
		return nil
	})
}

// mapping walks the keys of the mapping n, what naming it in errors, and
// refuses unknown keys with the known one they most likely mean. each gets
// the key as known spells it.
func (p parser) mapping(n *yaml.Node, known []string, what string, each func(key string, k, v *yaml.Node) error) error {
	if n.Kind != yaml.MappingNode {
		return p.fail(n, "%s must be a mapping of %s", what, quoteList(known))
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		key, ok := knownKey(known, k.Value)
		if !ok {
			hint := ""
			if near := Suggest(known, k.Value); near != "" {
				hint = fmt.Sprintf(": did you mean %q?", near)
			} else {
				hint = ": the keys are " + quoteList(known)
			}
			return p.fail(k, "unknown key %q in %s%s", k.Value, what, hint)
		}
		if err := each(key, k, v); err != nil {
			return err
		}
	}
	return nil
}

// strings reads a list of text, or one text as a list of one.
func (p parser) strings(n *yaml.Node, msg string) ([]string, error) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		return []string{n.Value}, nil
	}
	var list []string
	if n.Kind != yaml.SequenceNode || n.Decode(&list) != nil {
		return nil, p.fail(n, "%s", msg)
	}
	return list, nil
}

// knownKey finds k among known, folded.
func knownKey(known []string, k string) (string, bool) {
	for _, name := range known {
		if spell.FoldKey(name) == spell.FoldKey(k) {
			return name, true
		}
	}
	return "", false
}

// Suggest is the name of names nearest to typed, "" when none is near
// enough to be a slip of the fingers.
func Suggest(names []string, typed string) string {
	near := spell.Nearest(names, 1, func(name string) (int, bool) {
		d := spell.Distance(spell.FoldKey(name), spell.FoldKey(typed))
		return d, d <= max(2, len(typed)/3)
	})
	if len(near) == 0 {
		return ""
	}
	return near[0]
}

// quoteList joins names quoted, as errors list them.
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
