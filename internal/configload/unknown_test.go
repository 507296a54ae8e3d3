package configload

import (
	"strings"
	"testing"
)

func TestUnknownKeysWarned(t *testing.T) {
	tests := []struct {
		name, file, content string
		want                []string
	}{
		{
			name: "top-level slips", file: ".mcphost.yml",
			content: "modle: ollama:x\nmax_step: 3\nsystemPromt: hi\nmcpServers: {}\n",
			want: []string{
				`.mcphost.yml: unknown key "max_step" is ignored: did you mean "max_steps"?`,
				`.mcphost.yml: unknown key "modle" is ignored: did you mean "model"?`,
				`.mcphost.yml: unknown key "systemPromt" is ignored: did you mean "systemPrompt"?`,
			},
		},
		{
			name: "server entry slips", file: ".mcphost.yml",
			content: "mcpServers:\n  fs:\n    command: echo\n    excludeTools: [write_file]\n    toolTimout: 5s\n    alwaysAllow: [x]\n",
			want: []string{
				`.mcphost.yml: server "fs": unknown key "alwaysAllow" is ignored`,
				`.mcphost.yml: server "fs": unknown key "excludeTools" is ignored: did you mean "excludedTools"?`,
				`.mcphost.yml: server "fs": unknown key "toolTimout" is ignored: did you mean "toolTimeout"?`,
			},
		},
		{
			name: "claude json entry", file: ".mcp.json",
			content: `{"mcpServers": {"gh": {"type": "http", "url": "https://example.com/mcp", "header": {"A": "b"}}}}`,
			want:    []string{`.mcp.json: server "gh": unknown key "header" is ignored: did you mean "headers"?`},
		},
		{
			name: "server field at the top level", file: ".mcphost.yml",
			content: "toolTimout: 5s\nexcludedTools: [x]\nmcpServers: {}\n",
			want: []string{
				`.mcphost.yml: unknown key "excludedTools" is ignored: "excludedTools" belongs in a server's entry under mcpServers`,
				`.mcphost.yml: unknown key "toolTimout" is ignored: "toolTimeout" belongs in a server's entry under mcpServers`,
			},
		},
		{
			name: "flag-only keys", file: ".mcphost.yml",
			content: "prompt: hello\nallow-tool: [fs__*]\nmcpServers: {}\n",
			want: []string{
				`.mcphost.yml: unknown key "allow-tool" is ignored: use "approval: {allow: [...]}" in a config file, or --allow-tool`,
				`.mcphost.yml: unknown key "prompt" is ignored: a config file does not give the prompt: use -p or stdin`,
			},
		},
		{
			name: "nothing close", file: ".mcphost.yml",
			content: "colour: blue\nmcpServers: {}\n",
			want:    []string{`.mcphost.yml: unknown key "colour" is ignored`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(t)
			write(t, fx.work, tt.file, tt.content)
			s := fx.mustLoad(t)
			if strings.Join(s.Warnings, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(s.Warnings, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestKnownKeysNotWarned lists, as the README documents them, every key a
// config file, a server entry (in every format) and a script's front
// matter may hold: none may be warned about.
func TestKnownKeysNotWarned(t *testing.T) {
	top := []string{"model", "ollama-host", "provider-url", "provider-api-key", "pull", "max-steps", "system-prompt",
		"quiet", "debug", "num-ctx", "output", "hide-thinking", "session", "session-wait", "theme", "no-cache", "yolo",
		"audit", "audit-result-bytes", "max-result-bytes", "elicitation", "sampling", "max-reply-bytes",
		"model-idle-timeout", "model-timeout", "max-stdin-bytes", "max-parallel-tools", "max-tool-calls", "temperature", "top-p",
		"top-k", "max-tokens", "seed", "stop-sequences", "no-hooks", "tool-share", "embed-model",
		"mcpServers", "approval", "roots", "models", "hooks", "providers",
		// Other spellings of the same keys.
		"maxSteps", "max_steps", "systemPrompt", "mcp-servers", "mcp_servers", "OllamaHost"}
	server := []string{"type", "command", "args", "env", "environment", "cwd", "url", "headers", "oauth",
		"name", "options", "roots", "allowedTools", "excludedTools", "disabled", "enabled", "timeout",
		"toolTimeout", "toolTotalTimeout", "maxRestarts", "maxResultBytes",
		"allowed_tools", "excluded-tools", "tool_timeout", "max-restarts"}
	m := map[string]any{}
	for _, k := range top {
		m[k] = nil
	}
	entry := map[string]any{}
	for _, k := range server {
		entry[k] = nil
	}
	if w := fileKeyWarnings("f.yml", m); len(w) > 0 {
		t.Errorf("valid top-level keys warned about:\n%s", strings.Join(w, "\n"))
	}
	if w := serverKeyWarnings("f.yml", map[string]any{"s": entry}); len(w) > 0 {
		t.Errorf("valid server keys warned about:\n%s", strings.Join(w, "\n"))
	}
	front := map[string]any{}
	for _, k := range top[:36] { // the settings, without the config file's sections
		front[k] = nil
	}
	if w := scriptKeyWarnings("s.sh", front); len(w) > 0 {
		t.Errorf("valid front matter keys warned about:\n%s", strings.Join(w, "\n"))
	}

	// A whole file in each format, loaded: not one warning.
	fx := newFixture(t)
	write(t, fx.work, ".mcp.json", `{"mcpServers": {
		"a": {"type": "stdio", "command": "npx", "args": ["x"], "env": {"K": "v"}, "disabled": false},
		"b": {"type": "http", "url": "https://example.com/mcp", "headers": {"A": "b"},
		      "oauth": {"client_id": "c", "scopes": ["read"]}},
		"c": {"type": "sse", "url": "http://127.0.0.1:9/sse"}}}`)
	write(t, fx.work, ".mcphost.yml", `model: ollama:qwen3:8b
max-steps: 5
roots: [.]
approval: {allow: ["a__*"]}
models: {"qwen3:8b": {temperature: 0.2}}
providers: {box: {type: llamacpp, url: "http://127.0.0.1:8080"}}
hooks: {}
mcpServers:
  l:
    type: local
    command: [uvx, x]
    environment: {A: b}
    cwd: .
    allowedTools: [x]
    excludedTools: [y]
    timeout: 45s
    toolTimeout: 30s
    toolTotalTimeout: 5m
    maxRestarts: 0
    maxResultBytes: 1000
    roots: [.]
    enabled: true
  r:
    type: remote
    url: https://example.com/mcp
    headers: ["A: b"]
  f:
    type: builtin
    name: fs
    options: {}
`)
	s := fx.mustLoad(t)
	if len(s.Warnings) > 0 {
		t.Errorf("warnings for valid files:\n%s", strings.Join(s.Warnings, "\n"))
	}
}

func TestScriptUnknownKeysWarned(t *testing.T) {
	fx := newFixture(t)
	path := write(t, fx.work, "run.sh", "---\nmodle: ollama:x\napproval: {allow: [x]}\nmcpServers:\n  fs:\n    command: echo\n    excludeTools: [x]\n---\nhello\n")
	s, err := fx.loadWith(t, LoadOptions{ScriptPath: path})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`run.sh: unknown key "approval" is ignored: a script reads settings and mcpServers only: put it in a config file`,
		`run.sh: unknown key "modle" is ignored: did you mean "model"?`,
		`run.sh: server "fs": unknown key "excludeTools" is ignored: did you mean "excludedTools"?`,
	}
	if strings.Join(s.Warnings, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(s.Warnings, "\n"), strings.Join(want, "\n"))
	}
}

func TestHookKeysWarned(t *testing.T) {
	fx := newFixture(t)
	write(t, fx.work, ".mcphost.yml", `hooks:
  PreToolUse:
    - matchr: "fs__write_file"
      hooks:
        - type: command
          command: "true"
          timout: 5
    - matcher: "fs__.*"
      hooks: [{type: command, command: "true", timeout: 5}]
`)
	write(t, fx.work, ".mcphost/hooks.yml", "Stop:\n  - hooks: [{comand: x, command: \"true\"}]\n")
	s := fx.mustLoad(t)
	want := []string{
		`.mcphost.yml: hooks: PreToolUse entry 1: unknown key "matchr" is ignored: did you mean "matcher"?`,
		`.mcphost.yml: hooks: PreToolUse entry 1, hook 1: unknown key "timout" is ignored: did you mean "timeout"?`,
		`.mcphost/hooks.yml: hooks: Stop entry 1, hook 1: unknown key "comand" is ignored: did you mean "command"?`,
	}
	if strings.Join(s.Warnings, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(s.Warnings, "\n"), strings.Join(want, "\n"))
	}
}
