package builtin

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/guard/approval"
	"github.com/mcphost/mcphost/internal/servers"
)

// TestDefaultApproval checks the annotations of every built-in tool
// through the decision they lead to: the read-only, closed-world tools run
// without asking; everything that writes, runs commands or reaches the
// network is asked.
func TestDefaultApproval(t *testing.T) {
	dir := t.TempDir()
	want := map[string]approval.Decision{
		"fs__read_file": approval.Allow, "fs__list_directory": approval.Allow, "fs__search_files": approval.Allow,
		"fs__get_file_info": approval.Allow, "fs__list_allowed_directories": approval.Allow,
		"fs__write_file": approval.Ask, "fs__edit_file": approval.Ask, "fs__move_file": approval.Ask, "fs__create_directory": approval.Ask,
		"bash__run":    approval.Ask,
		"fetch__fetch": approval.Ask,
		"todo__list":   approval.Allow, "todo__add": approval.Ask, "todo__update": approval.Ask, "todo__remove": approval.Ask,
	}
	seen := 0
	for _, name := range Names() {
		spec := config.ServerSpec{Name: name, Transport: config.TransportBuiltin, Builtin: name}
		if name == "fs" {
			spec.Options = map[string]any{"allowed_directories": []any{dir}}
		}
		srv, err := New(context.Background(), spec)
		if err != nil {
			t.Fatal(err)
		}
		res, err := connect(t, srv).ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, listed := range res.Tools {
			full := name + "__" + listed.Name
			def := servers.ToolDef(listed)
			got := approval.Policy{}.Decide(&def, true, full).Decision
			if w, ok := want[full]; !ok || got != w {
				t.Errorf("%s: default %s, want %s", full, got, w)
			}
			seen++
		}
	}
	if seen != len(want) {
		t.Errorf("saw %d tools, want %d", seen, len(want))
	}
}

func TestOptionsAndNames(t *testing.T) {
	dir := t.TempDir()
	spec := func(name string, opts map[string]any) config.ServerSpec {
		return config.ServerSpec{Name: "mine", Source: "/p/.mcphost.yml", Transport: config.TransportBuiltin, Builtin: name, Options: opts}
	}
	if err := Check(spec("fs", map[string]any{"allowedDirectories": []any{dir}})); err != nil {
		t.Errorf("camelCase option: %v", err)
	}
	if err := Check(spec("bash", map[string]any{"timeout": "2m", "max-output": 10})); err != nil {
		t.Errorf("bash options: %v", err)
	}
	tests := []struct {
		spec config.ServerSpec
		want string
	}{
		{spec("nope", nil), `there is no built-in server "nope": use one of fs, bash, fetch, todo`},
		{spec("", nil), `a builtin server needs "name"`},
		{spec("fs", map[string]any{"dirs": []any{dir}}), "options.dirs: unknown option for the fs server: use allowed_directories"},
		{spec("fs", map[string]any{"allowed_directories": dir}), "options.allowed_directories: must be a list of strings"},
		{spec("fs", map[string]any{"allowed_directories": []any{dir + "/missing"}}), "does not exist"},
		{spec("bash", map[string]any{"timeout": "soon"}), `options.timeout: must be a number of seconds or a duration such as "30s"`},
		{spec("todo", map[string]any{"x": 1}), "the todo server takes no options"},
	}
	for _, tt := range tests {
		err := Check(tt.spec)
		var ce *config.Error
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Check(%s %v) = %v, want a config error containing %q", tt.spec.Builtin, tt.spec.Options, err, tt.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), `/p/.mcphost.yml: server "mine": `) {
			t.Errorf("error does not name the file and server: %v", err)
		}
	}
}
