package configload

import (
	"errors"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mcphost/mcphost/config"
)

func TestLoadFormats(t *testing.T) {
	tests := []struct {
		name, file, content string
		want                func(dir, path string) []config.ServerSpec
	}{
		{
			name: "claude json stdio",
			file: ".mcp.json",
			content: `{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
				"env": {"DEBUG": "1"}}}}`,
			want: func(dir, path string) []config.ServerSpec {
				return []config.ServerSpec{{Name: "fs", Transport: config.TransportStdio, Command: "npx",
					Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/tmp"},
					Env:  map[string]string{"DEBUG": "1"}, StartTimeout: config.DefaultStartTimeout, Source: path}}
			},
		},
		{
			name:    "claude json stdio with type",
			file:    ".mcp.json",
			content: `{"mcpServers": {"t": {"type": "stdio", "command": "uvx", "args": ["mcp-server-time"]}}}`,
			want: func(dir, path string) []config.ServerSpec {
				return []config.ServerSpec{{Name: "t", Transport: config.TransportStdio, Command: "uvx", Args: []string{"mcp-server-time"},
					StartTimeout: config.DefaultStartTimeout, Source: path}}
			},
		},
		{
			name: "claude json http",
			file: ".mcp.json",
			content: `{"mcpServers": {"api": {"type": "http", "url": "https://example.com/mcp", "headers": {"Authorization": "Bearer x"}},
				"api2": {"type": "streamable-http", "url": "http://localhost:8080/mcp"},
				"api3": {"type": "streamableHttp", "url": "http://localhost:8081/mcp"},
				"api4": {"url": "http://localhost:8082/mcp"}}}`,
			want: func(dir, path string) []config.ServerSpec {
				return []config.ServerSpec{
					{Name: "api", Transport: config.TransportHTTP, URL: "https://example.com/mcp",
						Headers: map[string]string{"Authorization": "Bearer x"}, StartTimeout: config.DefaultStartTimeout, Source: path},
					{Name: "api2", Transport: config.TransportHTTP, URL: "http://localhost:8080/mcp", StartTimeout: config.DefaultStartTimeout, Source: path},
					{Name: "api3", Transport: config.TransportHTTP, URL: "http://localhost:8081/mcp", StartTimeout: config.DefaultStartTimeout, Source: path},
					{Name: "api4", Transport: config.TransportHTTP, URL: "http://localhost:8082/mcp", StartTimeout: config.DefaultStartTimeout, Source: path},
				}
			},
		},
		{
			name:    "claude json sse",
			file:    ".mcp.json",
			content: `{"mcpServers": {"old": {"type": "sse", "url": "http://localhost:9000/sse", "headers": {"X-Key": "k"}}}}`,
			want: func(dir, path string) []config.ServerSpec {
				return []config.ServerSpec{{Name: "old", Transport: config.TransportSSE, URL: "http://localhost:9000/sse",
					Headers: map[string]string{"X-Key": "k"}, StartTimeout: config.DefaultStartTimeout, Source: path}}
			},
		},
		{
			name: "mcphost yaml local",
			file: ".mcphost.yml",
			content: `mcpServers:
  time:
    type: local
    command: [uvx, mcp-server-time, --local-timezone, Europe/Paris]
    environment:
      TZ_DEBUG: "yes"
    allowedTools: [get_current_time]
    timeout: 45s
    cwd: sub
`,
			want: func(dir, path string) []config.ServerSpec {
				return []config.ServerSpec{{Name: "time", Transport: config.TransportStdio, Command: "uvx",
					Args: []string{"mcp-server-time", "--local-timezone", "Europe/Paris"},
					Env:  map[string]string{"TZ_DEBUG": "yes"}, Dir: filepath.Join(dir, "sub"),
					AllowedTools: []string{"get_current_time"}, StartTimeout: 45 * time.Second, Source: path}}
			},
		},
		{
			name: "mcphost yaml remote",
			file: ".mcphost.yaml",
			content: `mcpServers:
  web:
    type: remote
    url: https://mcp.example.com/mcp
    headers:
      - "Authorization: Bearer abc:def"
      - "X-Team:  blue "
    excludedTools: [delete_everything]
    allowedTools: [search]
    timeout: 10
`,
			want: func(dir, path string) []config.ServerSpec {
				return []config.ServerSpec{{Name: "web", Transport: config.TransportHTTP, URL: "https://mcp.example.com/mcp",
					Headers:      map[string]string{"Authorization": "Bearer abc:def", "X-Team": "blue"},
					AllowedTools: []string{"search"}, ExcludedTools: []string{"delete_everything"},
					StartTimeout: 10 * time.Second, Source: path}}
			},
		},
		{
			name: "mcphost json",
			file: ".mcphost.json",
			content: `{"mcpServers": {
				"a": {"type": "local", "command": ["node", "server.js"], "args": ["--x"], "disabled": true, "timeout": 1.5},
				"b": {"type": "local", "command": ["b"], "enabled": false},
				"c": {"type": "remote", "url": "https://c.example/mcp", "headers": ["K: V"]}}}`,
			want: func(dir, path string) []config.ServerSpec {
				return []config.ServerSpec{
					{Name: "a", Transport: config.TransportStdio, Command: "node", Args: []string{"server.js", "--x"},
						Disabled: true, StartTimeout: 1500 * time.Millisecond, Source: path},
					{Name: "b", Transport: config.TransportStdio, Command: "b", Args: nil, Disabled: true, StartTimeout: config.DefaultStartTimeout, Source: path},
					{Name: "c", Transport: config.TransportHTTP, URL: "https://c.example/mcp", Headers: map[string]string{"K": "V"},
						StartTimeout: config.DefaultStartTimeout, Source: path},
				}
			},
		},
		{
			name: "claude format in yaml",
			file: ".mcphost.yml",
			content: `mcpServers:
  srv:
    command: python
    args: [-m, srv, --port, 8080]
    env: {PORT: 8080}
    allowed_tools: [x]
`,
			want: func(dir, path string) []config.ServerSpec {
				return []config.ServerSpec{{Name: "srv", Transport: config.TransportStdio, Command: "python",
					Args: []string{"-m", "srv", "--port", "8080"}, Env: map[string]string{"PORT": "8080"},
					AllowedTools: []string{"x"}, StartTimeout: config.DefaultStartTimeout, Source: path}}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(t)
			path := write(t, fx.work, tt.file, tt.content)
			s := fx.mustLoad(t)
			if want := tt.want(fx.work, path); !reflect.DeepEqual(s.Servers, want) {
				t.Errorf("Servers =\n%+v\nwant\n%+v", s.Servers, want)
			}
			if !reflect.DeepEqual(s.Files, []string{path}) {
				t.Errorf("Files = %q, want [%q]", s.Files, path)
			}
		})
	}
}

func TestLoadKeepsCase(t *testing.T) {
	tests := []struct{ file, content string }{
		{".mcp.json", `{"mcpServers": {"MyServer": {"type": "http", "url": "https://x.example/mcp",
			"headers": {"X-Custom-Header": "v"}}, "Local": {"command": "run", "env": {"API_Key": "k"}}}}`},
		{".mcphost.yml", `mcpServers:
  MyServer:
    type: http
    url: https://x.example/mcp
    headers: {X-Custom-Header: v}
  Local:
    command: run
    env: {API_Key: k}
`},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			fx := newFixture(t)
			write(t, fx.work, tt.file, tt.content)
			s := fx.mustLoad(t)
			if len(s.Servers) != 2 {
				t.Fatalf("got %d servers, want 2", len(s.Servers))
			}
			local, remote := s.Servers[0], s.Servers[1]
			if local.Name != "Local" || remote.Name != "MyServer" {
				t.Errorf("names = %q, %q; want Local, MyServer", local.Name, remote.Name)
			}
			if _, ok := local.Env["API_Key"]; !ok {
				t.Errorf("env = %v, want key API_Key", local.Env)
			}
			if _, ok := remote.Headers["X-Custom-Header"]; !ok {
				t.Errorf("headers = %v, want key X-Custom-Header", remote.Headers)
			}
		})
	}
}

func TestLoadPrecedence(t *testing.T) {
	type layers struct{ userLegacy, user, projectLegacy, project, env, flag bool }
	tests := []struct {
		name      string
		l         layers
		wantModel string
		wantSteps int
	}{
		{"defaults", layers{}, "", 20},
		{"user legacy", layers{userLegacy: true}, "user-legacy", 2},
		{"user file over legacy", layers{userLegacy: true, user: true}, "user", 3},
		{"project legacy over user", layers{user: true, projectLegacy: true}, "project-legacy", 4},
		{"project over user", layers{userLegacy: true, user: true, projectLegacy: true, project: true}, "project", 5},
		{"env over files", layers{user: true, project: true, env: true}, "env", 6},
		{"flag over env", layers{user: true, project: true, env: true, flag: true}, "flag", 7},
		{"flag over default", layers{flag: true}, "flag", 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(t)
			if tt.l.userLegacy {
				write(t, fx.home, ".mcp.json", `{"model": "user-legacy", "max-steps": 2}`)
			}
			if tt.l.user {
				write(t, fx.home, ".mcphost.yml", "model: user\nmax-steps: 3\n")
			}
			if tt.l.projectLegacy {
				write(t, fx.work, ".mcp.json", `{"model": "project-legacy", "max-steps": 4}`)
			}
			if tt.l.project {
				write(t, fx.work, ".mcphost.json", `{"model": "project", "max-steps": 5}`)
			}
			if tt.l.env {
				fx.env["MCPHOST_MODEL"] = "env"
				fx.env["MCPHOST_MAX_STEPS"] = "6"
			}
			if tt.l.flag {
				fx.args = []string{"-m", "flag", "--max-steps", "7"}
			}
			s := fx.mustLoad(t)
			if s.Model != tt.wantModel || s.MaxSteps != tt.wantSteps {
				t.Errorf("model, max-steps = %q, %d; want %q, %d", s.Model, s.MaxSteps, tt.wantModel, tt.wantSteps)
			}
		})
	}
}

func TestLoadSettingsFromEachLayer(t *testing.T) {
	tests := []struct {
		name  string
		file  string // .mcphost.yml in the work dir
		env   map[string]string
		args  []string
		check func(*config.Settings) bool
	}{
		{"defaults", "", nil, nil, func(s *config.Settings) bool {
			return s.MaxSteps == 20 && s.NumCtx == 8192 && s.Output == "text" && !s.Quiet && !s.Debug && s.OllamaHost == "" &&
				s.MaxReplyBytes == 8<<20 && s.ModelIdleTimeout == 5*time.Minute && s.ModelTimeout == 30*time.Minute && s.MaxStdinBytes == 16<<20 &&
				s.MaxParallelTools == 8 && s.MaxToolCalls == 32
		}},
		{"bounds from each layer", "max-reply-bytes: 1000\nmodel-idle-timeout: 90\nmax-tool-calls: 4\n",
			map[string]string{"MCPHOST_MAX_STDIN_BYTES": "2000", "MCPHOST_MODEL_IDLE_TIMEOUT": "2m"}, []string{"--max-parallel-tools", "2"},
			func(s *config.Settings) bool {
				return s.MaxReplyBytes == 1000 && s.ModelIdleTimeout == 2*time.Minute && s.MaxStdinBytes == 2000 &&
					s.MaxParallelTools == 2 && s.MaxToolCalls == 4
			}},
		{"idle timeout in seconds from a file", "model-idle-timeout: 90\n", nil, nil,
			func(s *config.Settings) bool { return s.ModelIdleTimeout == 90*time.Second }},
		{"model timeout from a file", "model-timeout: 1h\n", nil, nil,
			func(s *config.Settings) bool { return s.ModelTimeout == time.Hour }},
		{"model timeout from the environment", "", map[string]string{"MCPHOST_MODEL_TIMEOUT": "45m"}, nil,
			func(s *config.Settings) bool { return s.ModelTimeout == 45*time.Minute }},
		{"model timeout from a flag", "model-timeout: 1h\n", nil, []string{"--model-timeout", "2h"},
			func(s *config.Settings) bool { return s.ModelTimeout == 2*time.Hour }},
		{"file kebab keys", "ollama-host: http://h:1\nnum-ctx: 4096\nmax-result-bytes: 5000\nsystem-prompt: be brief\ndebug: true\nquiet: true\noutput: json\n", nil, nil,
			func(s *config.Settings) bool {
				return s.OllamaHost == "http://h:1" && s.NumCtx == 4096 && s.MaxResultBytes == 5000 && s.SystemPrompt == "be brief" && s.Debug && s.Quiet && s.Output == "json"
			}},
		{"file snake and camel keys", "max_steps: 9\nollamaHost: http://h:2\nnumCtx: 100\nsystemPrompt: hi\n", nil, nil,
			func(s *config.Settings) bool {
				return s.MaxSteps == 9 && s.OllamaHost == "http://h:2" && s.NumCtx == 100 && s.SystemPrompt == "hi"
			}},
		{"env", "", map[string]string{"MCPHOST_OLLAMA_HOST": "http://e:3", "MCPHOST_NUM_CTX": "0", "MCPHOST_DEBUG": "true",
			"MCPHOST_OUTPUT": "stream-json"}, nil,
			func(s *config.Settings) bool {
				return s.OllamaHost == "http://e:3" && s.NumCtx == 0 && s.Debug && s.Output == "stream-json"
			}},
		{"empty env is unset", "model: m\n", map[string]string{"MCPHOST_MODEL": ""}, nil,
			func(s *config.Settings) bool { return s.Model == "m" }},
		{"flags", "debug: true\n", nil, []string{"-p", "hello", "--quiet", "--debug=false", "--ollama-host", "http://f:4", "--num-ctx", "2048", "--output", "json"},
			func(s *config.Settings) bool {
				return s.Prompt == "hello" && s.Quiet && !s.Debug && s.OllamaHost == "http://f:4" && s.NumCtx == 2048 && s.Output == "json"
			}},
		{"prompt is not read from files", "prompt: nope\n", map[string]string{"MCPHOST_PROMPT": "nope"}, nil,
			func(s *config.Settings) bool { return s.Prompt == "" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := settingsFixture(t, tt.file, tt.env, tt.args)
			if s := fx.mustLoad(t); !tt.check(s) {
				t.Errorf("unexpected settings: %+v", s)
			}
		})
	}
}

func TestLoadProjectWinsPerServer(t *testing.T) {
	fx := newFixture(t)
	user := write(t, fx.home, ".mcp.json", `{"mcpServers": {
		"fs": {"args": ["broken: no command, but replaced"]},
		"only-user": {"command": "u"}}}`)
	project := write(t, fx.work, ".mcphost.yml", `mcpServers:
  fs:
    type: http
    url: http://localhost:1/mcp
  only-project:
    command: p
`)
	s := fx.mustLoad(t)
	want := []config.ServerSpec{
		{Name: "fs", Transport: config.TransportHTTP, URL: "http://localhost:1/mcp", StartTimeout: config.DefaultStartTimeout, Source: project},
		{Name: "only-project", Transport: config.TransportStdio, Command: "p", StartTimeout: config.DefaultStartTimeout, Source: project},
		{Name: "only-user", Transport: config.TransportStdio, Command: "u", StartTimeout: config.DefaultStartTimeout, Source: user},
	}
	if !reflect.DeepEqual(s.Servers, want) {
		t.Errorf("Servers =\n%+v\nwant\n%+v", s.Servers, want)
	}
}

func TestLoadFiles(t *testing.T) {
	fx := newFixture(t)
	userLegacy := write(t, fx.home, ".mcp.json", `{}`)
	user := write(t, fx.home, ".mcphost.yml", "model: a\n")
	write(t, fx.home, ".mcphost.json", `{"model": "ignored: only the first of .yml, .yaml, .json is read"}`)
	projectLegacy := write(t, fx.work, ".mcp.json", `{}`)
	project := write(t, fx.work, ".mcphost.yaml", "")
	write(t, fx.work, ".mcphost.json", `not even json`)
	s := fx.mustLoad(t)
	if want := []string{project, projectLegacy, user, userLegacy}; !reflect.DeepEqual(s.Files, want) {
		t.Errorf("Files = %q, want %q", s.Files, want)
	}
	if s.Model != "a" {
		t.Errorf("Model = %q, want a", s.Model)
	}
}

func TestLoadWorkDirIsHome(t *testing.T) {
	fx := newFixture(t)
	fx.work = fx.home
	path := write(t, fx.home, ".mcp.json", `{"mcpServers": {"fs": {"command": "x"}}}`)
	s := fx.mustLoad(t)
	if !reflect.DeepEqual(s.Files, []string{path}) || len(s.Servers) != 1 {
		t.Errorf("Files = %q, %d servers; want the file once and 1 server", s.Files, len(s.Servers))
	}
}

func TestLoadNoFiles(t *testing.T) {
	fx := newFixture(t)
	s := fx.mustLoad(t)
	want := []config.ServerSpec{{Name: "fs", Transport: config.TransportBuiltin, Builtin: "fs",
		Options: map[string]any{"allowed_directories": []any{fx.work}}, StartTimeout: config.DefaultStartTimeout}}
	for i := range s.Servers {
		s.Servers[i].Protected = nil // TestFSServerProtectsMcphostFiles checks it
	}
	if !reflect.DeepEqual(s.Servers, want) || len(s.Files) != 0 {
		t.Errorf("Servers = %+v, Files = %v; want the built-in fs on the working directory and no files", s.Servers, s.Files)
	}
}

func TestLoadNoFilesWithoutTheDefaultServer(t *testing.T) {
	fx := newFixture(t)
	s, err := fx.loadWith(t, LoadOptions{})
	if err != nil || len(s.Servers) != 0 {
		t.Errorf("Servers = %+v, %v; want none: only the command asks for the default fs", s.Servers, err)
	}
}

func TestLoadConfigFlag(t *testing.T) {
	t.Run("missing", func(t *testing.T) {
		fx := newFixture(t)
		fx.args = []string{"--config", "nope.yml"}
		_, err := fx.load(t)
		var ce *config.Error
		if !errors.As(err, &ce) {
			t.Fatalf("err = %v, want *Error", err)
		}
		if want := filepath.Join(fx.work, "nope.yml"); ce.File != want || ce.Field != "config" {
			t.Errorf("File, Field = %q, %q; want %q, config", ce.File, ce.Field, want)
		}
		if !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), "nope.yml: ") || !strings.Contains(err.Error(), "--config does not exist") {
			t.Errorf("err = %q, want it to name nope.yml and say it does not exist", err)
		}
	})
	t.Run("only that file", func(t *testing.T) {
		fx := newFixture(t)
		write(t, fx.home, ".mcphost.yml", "model: user\nmax-steps: 3\n")
		write(t, fx.work, ".mcp.json", `{"mcpServers": {"p": {"command": "p"}}}`)
		path := write(t, fx.work, "conf/my.yaml", "model: explicit\nmcpServers:\n  s:\n    command: ${PROJECT_DIR}/run\n")
		fx.args = []string{"--config", "conf/my.yaml"}
		s := fx.mustLoad(t)
		if s.Model != "explicit" || s.MaxSteps != 20 {
			t.Errorf("model, max-steps = %q, %d; want explicit, 20", s.Model, s.MaxSteps)
		}
		if !reflect.DeepEqual(s.Files, []string{path}) {
			t.Errorf("Files = %q, want [%q]", s.Files, path)
		}
		if len(s.Servers) != 1 || s.Servers[0].Command != filepath.Join(fx.work, "conf", "run") {
			t.Errorf("Servers = %+v, want only s with command in conf/", s.Servers)
		}
	})
}

func TestLoadExpansion(t *testing.T) {
	tests := []struct {
		name, file, content string
		env                 map[string]string
		check               func(fx *fixture, s config.ServerSpec) bool
	}{
		{"every stdio field", ".mcp.json", `{"mcpServers": {"s": {"command": "${BIN}", "args": ["${ARG}", "${env://ARG}", "$$HOME", "$5"],
			"env": {"TOKEN": "${TOK}", "LVL": "${env://LVL:-info}"}, "cwd": "${HOME}/w"}}}`,
			map[string]string{"BIN": "/bin/srv", "ARG": "a", "TOK": "t0k"},
			func(fx *fixture, s config.ServerSpec) bool {
				return s.Command == "/bin/srv" && reflect.DeepEqual(s.Args, []string{"a", "a", "$$HOME", "$5"}) &&
					s.Env["TOKEN"] == "t0k" && s.Env["LVL"] == "info" && s.Dir == filepath.Join(fx.home, "w")
			}},
		{"every remote field", ".mcp.json", `{"mcpServers": {"s": {"type": "http", "url": "https://${HOST:-h.example}/mcp",
			"headers": {"Authorization": "Bearer ${TOK}"}}}}`,
			map[string]string{"TOK": "t0k"},
			func(fx *fixture, s config.ServerSpec) bool {
				return s.URL == "https://h.example/mcp" && s.Headers["Authorization"] == "Bearer t0k"
			}},
		{"header list", ".mcphost.yml", "mcpServers:\n  s:\n    type: remote\n    url: ${URL}\n    headers: ['X-Key: ${env://KEY}']\n",
			map[string]string{"URL": "http://u:1/mcp", "KEY": "k"},
			func(fx *fixture, s config.ServerSpec) bool {
				return s.URL == "http://u:1/mcp" && s.Headers["X-Key"] == "k"
			}},
		{"HOME is the home dir, not $HOME", ".mcp.json", `{"mcpServers": {"s": {"command": "${HOME}/bin/x"}}}`,
			map[string]string{"HOME": "/elsewhere"},
			func(fx *fixture, s config.ServerSpec) bool { return s.Command == filepath.Join(fx.home, "bin", "x") }},
		{"PROJECT_DIR of a project file", ".mcp.json", `{"mcpServers": {"s": {"command": "node", "args": ["${PROJECT_DIR}/srv.js"]}}}`, nil,
			func(fx *fixture, s config.ServerSpec) bool { return s.Args[0] == filepath.Join(fx.work, "srv.js") }},
		{"PROJECT_DIR of a user file is the work dir", "~/.mcp.json", `{"mcpServers": {"s": {"command": "${PROJECT_DIR}/x"}}}`, nil,
			func(fx *fixture, s config.ServerSpec) bool { return s.Command == filepath.Join(fx.work, "x") }},
		{"disabled server tolerates unset variables", ".mcp.json", `{"mcpServers": {"s": {"command": "x", "disabled": true,
			"env": {"T": "${UNSET}"}}}}`, nil,
			func(fx *fixture, s config.ServerSpec) bool { return s.Disabled && s.Env["T"] == "" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(t)
			dir, file := fx.work, tt.file
			if rest, ok := strings.CutPrefix(file, "~/"); ok {
				dir, file = fx.home, rest
			}
			write(t, dir, file, tt.content)
			fx.env = tt.env
			s := fx.mustLoad(t)
			if len(s.Servers) != 1 || !tt.check(fx, s.Servers[0]) {
				t.Errorf("Servers = %+v", s.Servers)
			}
		})
	}
}

// TestLoadUnsetVariable: an entry that uses an unset variable cannot be
// used; its server carries the error (and fails to start with it) while
// the config and the other servers stand. A malformed reference is still
// an error of the file.
func TestLoadUnsetVariable(t *testing.T) {
	tests := []struct {
		name, file, content, want string
	}{
		{"project env", ".mcp.json", `{"mcpServers": {"github": {"command": "gh-mcp", "env": {"GITHUB_TOKEN": "secret-prefix ${GH_PAT}"}}}}`,
			`.mcp.json: server "github": env GITHUB_TOKEN uses ${GH_PAT}, which is not set: export GH_PAT or write ${GH_PAT:-default}`},
		{"user header", "~/.mcp.json", `{"mcpServers": {"api": {"url": "https://a.example", "headers": {"Authorization": "secret-prefix ${env://API_TOKEN}"}}}}`,
			`~/.mcp.json: server "api": header Authorization uses ${API_TOKEN}, which is not set: export API_TOKEN or write ${API_TOKEN:-default}`},
		{"arg", ".mcp.json", `{"mcpServers": {"s": {"command": "x", "args": ["ok", "${DIR}"]}}}`,
			`.mcp.json: server "s": arg 2 uses ${DIR}, which is not set: export DIR or write ${DIR:-default}`},
		{"url", ".mcp.json", `{"mcpServers": {"s": {"type": "sse", "url": "${SSE_URL}"}}}`,
			`.mcp.json: server "s": "url" uses ${SSE_URL}, which is not set: export SSE_URL or write ${SSE_URL:-default}`},
		{"bad syntax", ".mcp.json", `{"mcpServers": {"s": {"command": "x", "env": {"K": "secret-prefix ${OOPS"}}}}`,
			`.mcp.json: server "s": env K has "${" without a closing "}": write ${NAME} or ${NAME:-default}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(t)
			dir, file := fx.work, tt.file
			if rest, ok := strings.CutPrefix(file, "~/"); ok {
				dir, file = fx.home, rest
			}
			write(t, dir, file, tt.content)
			s, err := fx.load(t)
			if err == nil && len(s.Servers) == 1 {
				err = s.Servers[0].Err
			}
			var ce *config.Error
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v, want *Error", err)
			}
			if err.Error() != tt.want {
				t.Errorf("err =\n%s\nwant\n%s", err, tt.want)
			}
			if strings.Contains(err.Error(), "secret-prefix") {
				t.Errorf("err %q leaks a value", err)
			}
		})
	}
}

func TestLoadServerErrors(t *testing.T) {
	tests := []struct {
		name, content, server, field, want string
	}{
		{"missing command", `{"fs": {"args": ["x"]}}`, "fs", "command", `"command" is missing: give the program to run, e.g. "command": "npx"`},
		{"empty command list", `{"fs": {"type": "local", "command": []}}`, "fs", "command", `"command" is missing`},
		{"command not text", `{"fs": {"command": {"a": 1}}}`, "fs", "command", `"command" must be a string`},
		{"unknown type", `{"s": {"type": "websocket", "url": "ws://x"}}`, "s", "type", `unknown type "websocket"`},
		{"http without url", `{"s": {"type": "http"}}`, "s", "url", `"url" is missing: a http server`},
		{"sse without url", `{"s": {"type": "sse", "url": ""}}`, "s", "url", `"url" is missing: a sse server`},
		{"url not http", `{"s": {"type": "http", "url": "ftp://secret@x/mcp"}}`, "s", "url", `"url" must be an http:// or https:// address`},
		{"url without host", `{"s": {"url": "http://"}}`, "s", "url", `"url" must be an http:// or https:// address`},
		{"both command and url", `{"s": {"command": "x", "url": "http://x"}}`, "s", "type", `give either "command"`},
		{"name with separator", `{"a__b": {"command": "x"}}`, "a__b", "name", `the name must not contain "__"`},
		{"empty name", `{"": {"command": "x"}}`, "", "name", `empty name`},
		{"entry not an object", `{"s": "npx"}`, "s", "", `the entry must be an object`},
		{"header without colon", `{"s": {"type": "remote", "url": "http://x", "headers": ["Bearer secret-token"]}}`, "s", "headers",
			`"headers" entry 1 has no colon: write it as "Name: value"`},
		{"header with empty name", `{"s": {"type": "remote", "url": "http://x", "headers": [": secret-token"]}}`, "s", "headers", `empty name`},
		{"header value not text", `{"s": {"url": "http://x", "headers": {"K": ["secret-token"]}}}`, "s", "headers", `header K must be a string`},
		{"env not an object", `{"s": {"command": "x", "env": ["A=secret-token"]}}`, "s", "env", `"env" must be an object`},
		{"env value not text", `{"s": {"command": "x", "env": {"A": {"v": "secret-token"}}}}`, "s", "env", `env A must be a string`},
		{"env name invalid", `{"s": {"command": "x", "environment": {"A=B": "secret-token"}}}`, "s", "environment", `not a valid variable name`},
		{"args not a list", `{"s": {"command": "x", "args": "secret-token"}}`, "s", "args", `"args" must be a list of strings`},
		{"allowedTools not a list", `{"s": {"command": "x", "allowedTools": "a"}}`, "s", "allowedTools", `"allowedTools" must be a list`},
		{"excludedTools entry", `{"s": {"command": "x", "excludedTools": [["a"]]}}`, "s", "excludedTools", `"excludedTools" entry 1 must be a string`},
		{"disabled not bool", `{"s": {"command": "x", "disabled": "yes"}}`, "s", "disabled", `"disabled" must be true or false`},
		{"bad timeout", `{"s": {"command": "x", "timeout": "soon"}}`, "s", "timeout", `"timeout" must be a positive number of seconds`},
		{"zero timeout", `{"s": {"command": "x", "timeout": 0}}`, "s", "timeout", `"timeout" must be a positive number`},
		{"negative duration", `{"s": {"command": "x", "timeout": "-5s"}}`, "s", "timeout", `"timeout" must be a positive`},
		{"cwd not text", `{"s": {"command": "x", "cwd": 3}}`, "s", "cwd", `"cwd" must be a string`},
		{"roots not a list", `{"s": {"command": "x", "roots": "/tmp"}}`, "s", "roots", `"roots" must be a list of directories`},
		{"roots entry empty", `{"s": {"command": "x", "roots": ["/a", ""]}}`, "s", "roots", `"roots" entry 2 must be the path of a directory`},
		{"bad toolTotalTimeout", `{"s": {"command": "x", "toolTotalTimeout": "forever"}}`, "s", "toolTotalTimeout", `"toolTotalTimeout" must be a positive`},
		{"bad variable name", `{"s": {"command": "${1x}"}}`, "s", "command", `without a valid variable name`},
		{"command empty after expansion", `{"s": {"command": "${E:-}"}}`, "s", "command", `empty once its variables are expanded`},
		{"mcpServers not an object", `["s"]`, "", "mcpServers", `"mcpServers" must be an object`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(t)
			path := write(t, fx.work, ".mcp.json", `{"mcpServers": `+tt.content+`}`)
			_, err := fx.load(t)
			var ce *config.Error
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v, want *Error", err)
			}
			if ce.File != path || ce.Server != tt.server || ce.Field != tt.field {
				t.Errorf("File, Server, Field = %q, %q, %q; want %q, %q, %q", ce.File, ce.Server, ce.Field, path, tt.server, tt.field)
			}
			prefix := ".mcp.json: "
			if tt.server != "" {
				prefix += `server "` + tt.server + `": `
			}
			if msg := err.Error(); !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, tt.want) {
				t.Errorf("err = %q, want prefix %q and %q", msg, prefix, tt.want)
			}
			if strings.Contains(err.Error(), "secret") {
				t.Errorf("err %q leaks a value", err)
			}
		})
	}
}

func TestLoadSettingErrors(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		env   map[string]string
		args  []string
		field string
		want  string // the whole message
	}{
		{"output flag", "", nil, []string{"--output", "xml"}, "output", `--output must be one of text, json, stream-json, got "xml"`},
		{"output env", "", map[string]string{"MCPHOST_OUTPUT": "yaml"}, nil, "output", `MCPHOST_OUTPUT must be one of text, json, stream-json, got "yaml"`},
		{"output file", "output: md\n", nil, nil, "output", `.mcphost.yml: "output" must be one of text, json, stream-json, got "md"`},
		{"max-steps flag", "", nil, []string{"--max-steps", "0"}, "max-steps", `--max-steps must be at least 1, got 0`},
		{"max-steps file", "max-steps: -2\n", nil, nil, "max-steps", `.mcphost.yml: "max-steps" must be at least 1, got -2`},
		{"max-steps env not a number", "", map[string]string{"MCPHOST_MAX_STEPS": "lots"}, nil, "max-steps", `MCPHOST_MAX_STEPS must be a whole number`},
		{"max-steps file not a number", "max-steps: 2.5\n", nil, nil, "max-steps", `.mcphost.yml: "max-steps" must be a whole number`},
		{"num-ctx flag", "", nil, []string{"--num-ctx", "-1"}, "num-ctx", `--num-ctx must be 0 (the model's default) or more, got -1`},
		{"num-ctx env", "", map[string]string{"MCPHOST_NUM_CTX": "-5"}, nil, "num-ctx", `MCPHOST_NUM_CTX must be 0 (the model's default) or more, got -5`},
		{"max-result-bytes flag", "", nil, []string{"--max-result-bytes", "-1"}, "max-result-bytes", `--max-result-bytes must be 0 (about half the context window) or more, got -1`},
		{"debug env", "", map[string]string{"MCPHOST_DEBUG": "maybe"}, nil, "debug", `MCPHOST_DEBUG must be true or false`},
		{"max-tool-calls flag", "", nil, []string{"--max-tool-calls", "0"}, "max-tool-calls", `--max-tool-calls must be at least 1, got 0`},
		{"max-reply-bytes file", "max-reply-bytes: -3\n", nil, nil, "max-reply-bytes", `.mcphost.yml: "max-reply-bytes" must be at least 1, got -3`},
		{"model-idle-timeout env", "", map[string]string{"MCPHOST_MODEL_IDLE_TIMEOUT": "soon"}, nil, "model-idle-timeout", `MCPHOST_MODEL_IDLE_TIMEOUT must be a duration such as "90s" or "5m", or a number of seconds`},
		{"model-idle-timeout flag", "", nil, []string{"--model-idle-timeout", "0s"}, "model-idle-timeout", `--model-idle-timeout must be more than 0, got 0s`},
		{"model-timeout flag", "", nil, []string{"--model-timeout", "0s"}, "model-timeout", `--model-timeout must be more than 0, got 0s`},
		{"model file not text", "model: [a, b]\n", nil, nil, "model", `.mcphost.yml: "model" must be a string`},
		{"sampling flag", "", nil, []string{"--sampling", "yes"}, "sampling", `--sampling must be one of deny, allow, got "yes"`},
		{"prompt-arg without =", "", nil, []string{"--mcp-prompt", "a__b", "--prompt-arg", "city"}, "prompt-arg", `--prompt-arg "city" must be NAME=VALUE, e.g. --prompt-arg city=Paris`},
		{"prompt-arg without a prompt", "", nil, []string{"--prompt-arg", "city=Paris"}, "prompt-arg", `--prompt-arg gives the arguments of --mcp-prompt SERVER__PROMPT: give that too`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := settingsFixture(t, tt.file, tt.env, tt.args)
			_, err := fx.load(t)
			var ce *config.Error
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v, want *Error", err)
			}
			if ce.Field != tt.field || err.Error() != tt.want {
				t.Errorf("Field = %q, err = %q; want %q, %q", ce.Field, err, tt.field, tt.want)
			}
		})
	}
}

func TestLoadParseErrors(t *testing.T) {
	tests := []struct{ file, content, want string }{
		{".mcp.json", "{\n  \"mcpServers\": {\n    \"a\": ,\n  }\n}\n", ".mcp.json: line 3, column 10: invalid character ','"},
		{".mcp.json", `{"mcpServers": {}}  {}`, ".mcp.json: line 1, column 21: invalid character '{' after top-level value"},
		{".mcphost.yml", "model: a\nmcpServers:\n  - x\n  y: z\n", ".mcphost.yml: line 4: did not find expected"}, // the "y: z" among list items,
		{".mcphost.yml", "- a\n- b\n", `.mcphost.yml: the file must hold an object`},
		{".mcphost.json", `"just a string"`, `.mcphost.json: the file must hold an object`},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			fx := newFixture(t)
			write(t, fx.work, tt.file, tt.content)
			_, err := fx.load(t)
			var ce *config.Error
			if !errors.As(err, &ce) || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("err = %v, want an *Error starting %q", err, tt.want)
			}
		})
	}
}

func TestLoadSystemPrompt(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, fx *fixture)
		want  string
	}{
		{"text", func(t *testing.T, fx *fixture) { fx.args = []string{"--system-prompt", "Be terse."} }, "Be terse."},
		{"absolute file", func(t *testing.T, fx *fixture) {
			fx.args = []string{"--system-prompt", write(t, fx.home, "p.md", "From a file.\n")}
		}, "From a file.\n"},
		{"relative file from the work dir", func(t *testing.T, fx *fixture) {
			write(t, fx.work, "prompts/sys.md", "Relative.")
			fx.args = []string{"--system-prompt", "prompts/sys.md"}
		}, "Relative."},
		{"home file", func(t *testing.T, fx *fixture) {
			write(t, fx.home, "sys.md", "Home.")
			fx.env["MCPHOST_SYSTEM_PROMPT"] = "~/sys.md"
		}, "Home."},
		{"relative to the config file", func(t *testing.T, fx *fixture) {
			write(t, fx.home, "sys.md", "Next to the user file.")
			write(t, fx.home, ".mcphost.yml", "system-prompt: sys.md\n")
		}, "Next to the user file."},
		{"a directory is text", func(t *testing.T, fx *fixture) {
			write(t, fx.work, "prompts/x", "")
			fx.args = []string{"--system-prompt", "prompts"}
		}, "prompts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(t)
			tt.setup(t, fx)
			if s := fx.mustLoad(t); s.SystemPrompt != tt.want {
				t.Errorf("SystemPrompt = %q, want %q", s.SystemPrompt, tt.want)
			}
		})
	}
}

func TestLoadRootsAndPromptFlags(t *testing.T) {
	fx := newFixture(t)
	fx.args = []string{"--mcp-prompt", "every__args", "--prompt-arg", "city=Paris", "--prompt-arg", "note=a=b", "--sampling", "allow"}
	write(t, fx.work, ".mcp.json", `{"roots": ["top", "~/notes"], "mcpServers": {
		"own": {"command": "x", "roots": ["${PROJECT_DIR}/src"], "toolTotalTimeout": "2m"},
		"inherits": {"command": "y"}}}`)
	write(t, fx.home, ".mcp.json", `{"mcpServers": {"user": {"command": "z"}}}`)
	s, err := fx.load(t)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]config.ServerSpec{}
	for _, sp := range s.Servers {
		byName[sp.Name] = sp
	}
	if got := byName["own"].Roots; len(got) != 1 || got[0] != filepath.Join(fx.work, "src") {
		t.Errorf("own roots = %q", got)
	}
	if got := byName["own"].ToolTotalTimeout; got != 2*time.Minute {
		t.Errorf("toolTotalTimeout = %v", got)
	}
	if got := byName["inherits"].Roots; len(got) != 2 || got[0] != filepath.Join(fx.work, "top") || got[1] != filepath.Join(fx.home, "notes") {
		t.Errorf("inherited roots = %q", got)
	}
	if got := byName["user"].Roots; got != nil {
		t.Errorf("a project file's roots reached a user server: %q", got)
	}
	if s.MCPPrompt != "every__args" || s.PromptArgs["city"] != "Paris" || s.PromptArgs["note"] != "a=b" || s.ServerSampling != config.ServerSamplingAllow {
		t.Errorf("MCPPrompt %q, PromptArgs %v, Sampling %q", s.MCPPrompt, s.PromptArgs, s.ServerSampling)
	}
}
