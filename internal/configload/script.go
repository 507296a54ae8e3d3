package configload

// Script files, in the format of the original mcphost: an optional
// "#!/usr/bin/env -S mcphost script" line, YAML front matter between two
// "---" lines (mcpServers, model, system-prompt, max-steps or any other
// setting) and the prompt, either as "prompt:" in the front matter or as
// the text after it.
//
// Variables are filled in before the script is used: ${name} and
// ${name:-default} from --args:name VALUE, then the environment;
// ${env://NAME} and ${env://NAME:-default} from the environment only.
// "$${" stands for a literal "${". A variable that is unset and has no
// default is an error naming it. The mcpServers object is kept as decoded,
// for ServersFromMap to normalise and expand with Lookup.

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/mcphost/mcphost/config"
)

// Script is a parsed script file.
type Script struct {
	// Path is the script's path as given.
	Path string
	// Settings are the front matter's other keys (model, max-steps, ...),
	// spelled as written, with variables filled in.
	Settings map[string]any
	// Servers is the front matter's mcpServers object as decoded, its
	// variables not yet expanded (see Lookup); nil when the script has
	// none, empty when it says "no servers".
	Servers map[string]any
	// Prompt is the text after the front matter, or else its prompt:
	// value, trimmed, with variables filled in; empty when there is none.
	Prompt string

	args map[string]string
	env  func(string) (string, bool)
}

// Lookup resolves a variable used in the script's mcpServers: the
// --args value first, then the environment.
func (f *Script) Lookup(name string) (string, bool) {
	if v, ok := f.args[name]; ok {
		return v, true
	}
	return f.env(name)
}

// LoadScript reads and parses the script at path. args holds the --args
// values; env looks up environment variables (nil means os.LookupEnv).
func LoadScript(path string, args map[string]string, env func(string) (string, bool)) (*Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		reason := err
		if pe, ok := err.(*os.PathError); ok {
			reason = pe.Err
		}
		return nil, &config.Error{File: path, Message: fmt.Sprintf("cannot read the script: %v", reason), Err: err}
	}
	return ParseScript(path, data, args, env)
}

// ParseScript parses the script text data; path names it in errors.
func ParseScript(path string, data []byte, args map[string]string, env func(string) (string, bool)) (*Script, error) {
	if env == nil {
		env = os.LookupEnv
	}
	f := &Script{Path: path, args: args, env: env}
	fail := func(format string, a ...any) error {
		return &config.Error{File: path, Message: fmt.Sprintf(format, a...)}
	}

	front, body, frontLine, err := splitFrontMatter(data)
	if err != nil {
		return nil, fail("%s", err)
	}
	if err := checkArgs(path, data, args); err != nil {
		return nil, err
	}
	x := scriptExpander{lookup: f.Lookup, env: env}
	if front != nil {
		var doc any
		if err := yaml.Unmarshal(front, &doc); err != nil {
			return nil, fail("the front matter is not valid YAML: %s", shiftLines(yamlProblem(front, err), frontLine-1))
		}
		top, ok := asMap(doc)
		if doc != nil && !ok {
			return nil, fail(`the front matter must be settings ("model: ...", "mcpServers: ..."), one per line`)
		}
		f.Settings = map[string]any{}
		for k, v := range top {
			switch normKey(k) {
			case "mcpservers":
				if v == nil {
					continue
				}
				servers, ok := asMap(v)
				if !ok {
					return nil, fail(`"mcpServers" must be an object with one entry per server name`)
				}
				f.Servers = servers
			case "prompt":
				s, ok := v.(string)
				if !ok && v != nil {
					return nil, fail(`"prompt" must be text`)
				}
				f.Prompt = s
			default:
				f.Settings[k] = x.value(v)
			}
		}
	}
	// The text after the front matter wins over prompt:, as in mcphost.
	if text := strings.TrimSpace(string(body)); text != "" {
		f.Prompt = text
	}
	f.Prompt = strings.TrimSpace(x.text(f.Prompt))
	if err := x.err(path); err != nil {
		return nil, err
	}
	return f, nil
}

// splitFrontMatter separates the front matter from the body, dropping a shebang line
// and comment lines before the front matter. frontLine is the file line on
// which the front matter's YAML starts; front is nil when there is none.
func splitFrontMatter(data []byte) (front, body []byte, frontLine int, err error) {
	text := strings.ReplaceAll(strings.TrimPrefix(string(data), "\ufeff"), "\r\n", "\n")
	lines := strings.SplitAfter(text, "\n")
	start := 0
	if len(lines) > 0 && strings.HasPrefix(lines[0], "#!") {
		start = 1
	}
	// mcphost allows comment lines and blank lines before the "---".
	open := -1
	for i := start; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if t == "---" {
			open = i
			break
		}
		if t != "" && !strings.HasPrefix(t, "#") {
			break
		}
	}
	if open < 0 {
		return nil, []byte(strings.Join(lines[start:], "")), 0, nil
	}
	for i := open + 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == "---" {
			return []byte(strings.Join(lines[open+1:i], "")), []byte(strings.Join(lines[i+1:], "")), open + 2, nil
		}
	}
	return nil, nil, 0, fmt.Errorf(`the front matter opened with "---" on line %d is never closed: end it with a line of "---" before the prompt`, open+1)
}

// yamlLine finds the line numbers in a YAML error message.
var yamlLine = regexp.MustCompile(`line (\d+)`)

// shiftLines adds offset to the line numbers of a YAML error, so they
// count from the top of the script rather than of the front matter.
func shiftLines(msg string, offset int) string {
	return yamlLine.ReplaceAllStringFunc(msg, func(m string) string {
		n, _ := strconv.Atoi(strings.TrimPrefix(m, "line "))
		return fmt.Sprintf("line %d", n+offset)
	})
}

// varRef finds the ${name} and ${name:-default} references of a script.
var varRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}`)

// checkArgs refuses --args that the script never uses: most likely a
// misspelt name, whose value would silently be ignored.
func checkArgs(path string, data []byte, args map[string]string) error {
	if len(args) == 0 {
		return nil
	}
	used := map[string]bool{}
	for _, m := range varRef.FindAllSubmatch(data, -1) {
		used[string(m[1])] = true
	}
	var unused []string
	for name := range args {
		if !used[name] {
			unused = append(unused, name)
		}
	}
	if len(unused) == 0 {
		return nil
	}
	slices.Sort(unused)
	names := make([]string, 0, len(used))
	for n := range used {
		names = append(names, n)
	}
	slices.Sort(names)
	uses := "it uses no ${...} variables"
	if len(names) > 0 {
		uses = "it uses " + strings.Join(names, ", ")
	}
	return &config.Error{File: path, Message: fmt.Sprintf("--args:%s is not used by the script (%s): check the name", unused[0], uses)}
}

// scriptExpander fills in a script's variables, collecting the missing ones so that they
// are all reported at once.
type scriptExpander struct {
	lookup  func(string) (string, bool) // ${name}: --args, then environment
	env     func(string) (string, bool) // ${env://NAME}
	missing []string                    // as written: "name", "env://NAME"
	syntax  string                      // the first malformed reference
}

// value fills in the variables of every string in a decoded YAML value.
func (x *scriptExpander) value(v any) any {
	switch v := v.(type) {
	case string:
		return x.text(v)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = x.value(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = x.value(e)
		}
		return out
	}
	return v
}

// text fills in the variables of s.
func (x *scriptExpander) text(s string) string {
	if !strings.Contains(s, "${") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "$${"):
			b.WriteString("${")
			i += 3
		case strings.HasPrefix(s[i:], "${"):
			end := strings.IndexByte(s[i+2:], '}')
			if end < 0 {
				x.bad(s[i:], `has "${" without a closing "}"`)
				return s
			}
			b.WriteString(x.one(s[i+2:i+2+end], s[i:i+3+end]))
			i += 3 + end
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}

// one resolves the text between "${" and "}"; ref is the whole reference.
func (x *scriptExpander) one(expr, ref string) string {
	lookup, prefix := x.lookup, ""
	if strings.HasPrefix(expr, "env://") {
		lookup, prefix = x.env, "env://"
		expr = strings.TrimPrefix(expr, prefix)
	}
	name, def, hasDefault := strings.Cut(expr, ":-")
	if !isVarName(name) {
		x.bad(ref, "is not a variable")
		return ref
	}
	v, ok := lookup(name)
	if hasDefault && v == "" {
		return def
	}
	if !ok {
		if !slices.Contains(x.missing, prefix+name) {
			x.missing = append(x.missing, prefix+name)
		}
		return ""
	}
	return v
}

func (x *scriptExpander) bad(ref, why string) {
	if x.syntax != "" {
		return
	}
	if len(ref) > 40 {
		ref = ref[:40] + "…"
	}
	x.syntax = fmt.Sprintf(`%q %s: write ${name} or ${name:-default}, or $${ for a literal "${"`, ref, why)
}

// err reports the missing variables and malformed references, if any.
func (x *scriptExpander) err(path string) error {
	if x.syntax != "" {
		return &config.Error{File: path, Message: x.syntax}
	}
	if len(x.missing) == 0 {
		return nil
	}
	var refs, fixes []string
	for _, m := range x.missing {
		refs = append(refs, "${"+m+"}")
		if name, ok := strings.CutPrefix(m, "env://"); ok {
			fixes = append(fixes, "export "+name)
		} else {
			fixes = append(fixes, "--args:"+m+" VALUE")
		}
	}
	what := "variable " + refs[0] + " is"
	if len(refs) > 1 {
		what = "variables " + strings.Join(refs, ", ") + " are"
	}
	return &config.Error{File: path, Message: fmt.Sprintf("%s not set: give %s, or write a default as in ${name:-default}",
		what, strings.Join(fixes, ", "))}
}

// TakeScriptArgs removes the script variables, --args:NAME VALUE and
// --args:NAME=VALUE, from a command line, returning the rest for the flag
// parser. Nothing after "--" is taken.
func TakeScriptArgs(argv []string) (rest []string, vars map[string]string, err error) {
	for i := 0; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			rest = append(rest, argv[i:]...)
			break
		}
		spec, ok := strings.CutPrefix(a, "--args:")
		if !ok {
			rest = append(rest, a)
			continue
		}
		name, value, hasValue := strings.Cut(spec, "=")
		if !isVarName(name) {
			return nil, nil, &config.Error{Message: fmt.Sprintf("%q: give a variable name after --args:, as in --args:dir /tmp", a)}
		}
		if !hasValue {
			if i+1 >= len(argv) {
				return nil, nil, &config.Error{Message: fmt.Sprintf("--args:%s needs a value: --args:%s VALUE or --args:%s=VALUE", name, name, name)}
			}
			i++
			value = argv[i]
		}
		if vars == nil {
			vars = map[string]string{}
		}
		vars[name] = value
	}
	return rest, vars, nil
}
