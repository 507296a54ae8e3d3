package configload

import (
	"fmt"

	"github.com/mcphost/mcphost/config"
)

// builtin fills the fields of a server compiled into mcphost: "name" picks
// it (fs, bash, fetch, todo) and "options" configures it. Which names and
// options exist is the builtin package's business; strings in options are
// expanded like the other fields, so "${PROJECT_DIR}/docs" works.
func (p *serverParser) builtin(spec *config.ServerSpec, e entry, x *expander) error {
	name := spec.Name
	v, ok := e.get("name")
	s, isString := v.(string)
	if !ok || v == nil || (isString && s == "") {
		return p.fail(name, "name", `a builtin server needs "name": the built-in server to run, e.g. "name": "fs"`)
	}
	if !isString {
		return p.fail(name, "name", `"name" must be a string such as "fs"`)
	}
	spec.Builtin = s
	v, ok = e.get("options")
	if !ok || v == nil {
		return nil
	}
	m, ok := asMap(v)
	if !ok {
		return p.fail(name, "options", `"options" must be an object of option: value pairs`)
	}
	expanded, err := p.expandValue(x, "options", m)
	if err != nil {
		return err
	}
	spec.Options = expanded.(map[string]any)
	return nil
}

// expandValue expands the variables in every string of an options value,
// returning a copy with YAML's map[any]any turned into map[string]any.
func (p *serverParser) expandValue(x *expander, where string, v any) (any, error) {
	switch t := v.(type) {
	case string:
		return x.expand("options", where, t)
	case []any:
		out := make([]any, len(t))
		for i, item := range t {
			val, err := p.expandValue(x, fmt.Sprintf("%s entry %d", where, i+1), item)
			if err != nil {
				return nil, err
			}
			out[i] = val
		}
		return out, nil
	}
	if m, ok := asMap(v); ok {
		out := make(map[string]any, len(m))
		for _, k := range sortedKeys(m) {
			val, err := p.expandValue(x, where+"."+k, m[k])
			if err != nil {
				return nil, err
			}
			out[k] = val
		}
		return out, nil
	}
	return v, nil
}
