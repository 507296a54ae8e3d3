package configload

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/config"
)

func TestBuiltinServers(t *testing.T) {
	fx := newFixture(t)
	fx.env["NOTES"] = "notes"
	path := write(t, fx.work, ".mcphost.yml", `mcpServers:
  files:
    type: builtin
    name: fs
    options:
      allowed_directories: ["${PROJECT_DIR}/docs", "${HOME}/${NOTES}"]
  shell:
    type: builtin
    name: bash
    options: {timeout: 10, working_dir: "${PROJECT_DIR}"}
  tasks: {type: builtin, name: todo}
`)
	s := fx.mustLoad(t)
	want := []config.ServerSpec{
		{Name: "files", Transport: config.TransportBuiltin, Builtin: "fs", Source: path, StartTimeout: config.DefaultStartTimeout,
			Options: map[string]any{"allowed_directories": []any{filepath.Join(fx.work, "docs"), filepath.Join(fx.home, "notes")}}},
		{Name: "shell", Transport: config.TransportBuiltin, Builtin: "bash", Source: path, StartTimeout: config.DefaultStartTimeout,
			Options: map[string]any{"timeout": 10, "working_dir": fx.work}},
		{Name: "tasks", Transport: config.TransportBuiltin, Builtin: "todo", Source: path, StartTimeout: config.DefaultStartTimeout},
	}
	for i := range s.Servers {
		s.Servers[i].Protected = nil // TestFSServerProtectsMcphostFiles checks it
	}
	if !reflect.DeepEqual(s.Servers, want) {
		t.Errorf("Servers =\n%+v\nwant\n%+v", s.Servers, want)
	}
}

func TestBuiltinServerErrors(t *testing.T) {
	tests := []struct{ content, want string }{
		{`{"mcpServers": {"b": {"type": "builtin"}}}`, `.mcp.json: server "b": a builtin server needs "name"`},
		{`{"mcpServers": {"b": {"type": "builtin", "name": 3}}}`, `"name" must be a string`},
		{`{"mcpServers": {"b": {"type": "builtin", "name": "fs", "options": ["x"]}}}`, `"options" must be an object`},
		{`{"mcpServers": {"b": {"type": "inproc"}}}`, `"builtin" for a server inside mcphost`},
	}
	for _, tt := range tests {
		fx := newFixture(t)
		write(t, fx.work, ".mcp.json", tt.content)
		if _, err := fx.load(t); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.content, err, tt.want)
		}
	}
	// An unset variable in its options fails that server alone.
	fx := newFixture(t)
	write(t, fx.work, ".mcp.json", `{"mcpServers": {"b": {"type": "builtin", "name": "fs", "options": {"allowed_directories": ["${NOPE}"]}}, "ok": {"command": "x"}}}`)
	s, err := fx.load(t)
	if err != nil || len(s.Servers) != 2 || s.Servers[0].Err == nil || !strings.Contains(s.Servers[0].Err.Error(), "NOPE") || s.Servers[1].Err != nil {
		t.Errorf("unset variable in options: %+v, %v", s, err)
	}
}

func TestDefaultServerOnlyWithoutMCPServers(t *testing.T) {
	// A file with settings but no mcpServers still gets the default.
	fx := newFixture(t)
	write(t, fx.home, ".mcphost.yml", "model: ollama:qwen3\n")
	if s := fx.mustLoad(t); len(s.Servers) != 1 || s.Servers[0].Builtin != "fs" {
		t.Errorf("Servers = %+v, want the default fs", s.Servers)
	}
	// An empty mcpServers, in any file, says: no servers.
	write(t, fx.work, ".mcp.json", `{"mcpServers": {}}`)
	if s := fx.mustLoad(t); len(s.Servers) != 0 {
		t.Errorf("Servers = %+v, want none after mcpServers: {}", s.Servers)
	}
}

func TestApprovalRules(t *testing.T) {
	fx := newFixture(t)
	write(t, fx.home, ".mcphost.yml", `yolo: true
approval:
  allow: ["fs__read_*", everything__echo]
  deny: bash__*
`)
	write(t, fx.work, ".mcphost.json", `{"approval": {"ask": ["*__write_*"], "allow": ["git__status"]}, "audit": "logs/audit.jsonl"}`)
	fx.args = []string{"--allow-tool", "x__*", "--deny-tool", "fetch__*", "--deny-tool", "bash__rm"}
	s := fx.mustLoad(t)
	// The project file's rules are kept apart: they may only tighten.
	want := config.Approval{
		Allow:   []string{"fs__read_*", "everything__echo", "x__*"},
		Deny:    []string{"bash__*", "fetch__*", "bash__rm"},
		Project: config.Rules{Allow: []string{"git__status"}, Ask: []string{"*__write_*"}},
	}
	if !reflect.DeepEqual(s.Approval, want) {
		t.Errorf("Approval = %+v, want %+v", s.Approval, want)
	}
	if !s.Yolo {
		t.Error("yolo: true in a file was not read")
	}
	if want := filepath.Join(fx.work, "logs", "audit.jsonl"); s.Audit != want {
		t.Errorf("Audit = %q, want %q (relative to the file)", s.Audit, want)
	}

	fx.args = []string{"--audit", "a.jsonl"}
	fx.env["MCPHOST_YOLO"] = "false"
	s = fx.mustLoad(t)
	if s.Yolo || s.Audit != filepath.Join(fx.work, "a.jsonl") {
		t.Errorf("Yolo = %v, Audit = %q; want MCPHOST_YOLO=false to win and --audit from the working directory", s.Yolo, s.Audit)
	}
}

func TestApprovalErrors(t *testing.T) {
	tests := []struct {
		content string
		args    []string
		want    string
	}{
		{"approval: [fs__*]\n", nil, `.mcphost.yml: "approval" must be an object`},
		{"approval: {permit: [x]}\n", nil, `unknown key "permit": use "allow", "ask" or "deny"`},
		{"approval: {deny: [\"fs__[\"]}\n", nil, `"approval.deny" entry 1: "fs__[" is not a valid pattern`},
		{"approval: {allow: [3]}\n", nil, `"approval.allow" entry 1 must be a string`},
		{"", []string{"--deny-tool", ""}, "--deny-tool is an empty pattern"},
	}
	for _, tt := range tests {
		fx := settingsFixture(t, tt.content, nil, tt.args)
		if _, err := fx.load(t); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q %q: err = %v, want %q", tt.content, tt.args, err, tt.want)
		}
	}
}
