package configload

import (
	"errors"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func scriptEnv(vars map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := vars[k]
		return v, ok
	}
}

func TestParseScript(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		args     map[string]string
		env      map[string]string
		settings map[string]any
		servers  bool
		prompt   string
	}{
		{
			name:     "front matter and body",
			text:     "#!/usr/bin/env -S mcphost script\n---\nmodel: ollama:qwen3:8b\nmax-steps: 5\n---\nList the files in ${dir:-/tmp}.\n",
			settings: map[string]any{"model": "ollama:qwen3:8b", "max-steps": 5},
			prompt:   "List the files in /tmp.",
		},
		{
			name:     "prompt key",
			text:     "---\nprompt: Hello ${who}\nsystem-prompt: be ${tone:-brief}\n---\n",
			args:     map[string]string{"who": "Ann", "tone": "kind"},
			settings: map[string]any{"system-prompt": "be kind"},
			prompt:   "Hello Ann",
		},
		{
			name:     "body wins over prompt key",
			text:     "---\nprompt: from key\n---\nfrom body\n",
			settings: map[string]any{},
			prompt:   "from body",
		},
		{
			name:   "no front matter",
			text:   "# Title\n\nSay ${env://GREETING} to $USER and ${NAME}.\n",
			env:    map[string]string{"GREETING": "hi", "NAME": "Bo"},
			prompt: "# Title\n\nSay hi to $USER and Bo.",
		},
		{
			name:     "comments before the front matter, servers, empty prompt",
			text:     "#!/bin/sh\n# a comment\n\n---\nmcp-servers:\n  fs: {command: npx, args: [\"${dir}\"]}\n---\n\n",
			args:     map[string]string{"dir": "/srv"},
			settings: map[string]any{},
			servers:  true,
			prompt:   "",
		},
		{
			name:     "args beat the environment; empty arg takes the default; escape",
			text:     "---\nmodel: ${MODEL}\n---\n${a:-x} ${b:-dflt} $${literal} $$ ${env://MODEL}",
			args:     map[string]string{"MODEL": "from-arg", "a": "A", "b": ""},
			env:      map[string]string{"MODEL": "from-env"},
			settings: map[string]any{"model": "from-arg"},
			prompt:   "A dflt ${literal} $$ from-env",
		},
		{
			name:     "CRLF and a list setting",
			text:     "---\r\nallow: [\"${x}\", 2]\r\n---\r\nhi\r\n",
			args:     map[string]string{"x": "fs__*"},
			settings: map[string]any{"allow": []any{"fs__*", 2}},
			prompt:   "hi",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ParseScript("job.sh", []byte(tt.text), tt.args, scriptEnv(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			if f.Prompt != tt.prompt {
				t.Errorf("prompt %q, want %q", f.Prompt, tt.prompt)
			}
			if tt.settings != nil && !reflect.DeepEqual(f.Settings, tt.settings) {
				t.Errorf("settings %#v, want %#v", f.Settings, tt.settings)
			}
			if (f.Servers != nil) != tt.servers {
				t.Errorf("servers %v, want present=%v", f.Servers, tt.servers)
			}
		})
	}
}

func TestServersKeepTheirVariablesForLookup(t *testing.T) {
	f, err := ParseScript("job.sh", []byte("---\nmcpServers:\n  fs:\n    command: npx\n    args: [\"${dir}\", \"${HOME}\"]\n---\nhi"),
		map[string]string{"dir": "/srv"}, scriptEnv(map[string]string{"HOME": "/home/u", "dir": "/env"}))
	if err != nil {
		t.Fatal(err)
	}
	fs := f.Servers["fs"].(map[string]any)
	if got := fs["args"].([]any)[0]; got != "${dir}" {
		t.Errorf("server arg = %v, want it left for config to expand", got)
	}
	if v, _ := f.Lookup("dir"); v != "/srv" {
		t.Errorf("Lookup(dir) = %q, want the --args value", v)
	}
	if v, _ := f.Lookup("HOME"); v != "/home/u" {
		t.Errorf("Lookup(HOME) = %q, want the environment's", v)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, text string
		args       map[string]string
		want       []string
	}{
		{"missing variable", "Deploy ${service} to ${env://REGION} and ${service}", nil,
			[]string{"job.sh", "${service}", "${env://REGION}", "--args:service VALUE", "export REGION"}},
		{"unused arg", "Hello ${name}", map[string]string{"nmae": "x", "name": "y"},
			[]string{"job.sh", "--args:nmae is not used", "it uses name"}},
		{"unclosed front matter", "---\nmodel: x\nHello", nil, []string{"job.sh", "line 1", "never closed"}},
		{"bad yaml", "#!/usr/bin/env -S mcphost script\n---\nmodel: x\n  bad: [\n---\nhi", nil, []string{"job.sh", "not valid YAML", "line 4"}},
		{"not a mapping", "---\n- a\n---\nhi", nil, []string{"job.sh", "must be settings"}},
		{"servers not an object", "---\nmcpServers: [a]\n---\nhi", nil, []string{`"mcpServers" must be an object`}},
		{"bad reference", "for f in ${files[@]}; do", nil, []string{`"${files[@]}" is not a variable`, "$${"}},
		{"unclosed reference", "cost: ${price", nil, []string{`without a closing "}"`}},
		{"prompt not text", "---\nprompt: [a]\n---\n", nil, []string{`"prompt" must be text`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseScript("job.sh", []byte(tt.text), tt.args, scriptEnv(nil))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope.sh")
	_, err := LoadScript(path, nil, nil)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "no such file") || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("err = %v", err)
	}
}

func TestTakeScriptArgs(t *testing.T) {
	rest, vars, err := TakeScriptArgs([]string{"script", "job.sh", "--args:dir", "/tmp", "-m", "x", "--args:who=Ann", "--args:empty=", "--", "--args:late", "v"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"script", "job.sh", "-m", "x", "--", "--args:late", "v"}; !reflect.DeepEqual(rest, want) {
		t.Errorf("rest = %q, want %q", rest, want)
	}
	if want := map[string]string{"dir": "/tmp", "who": "Ann", "empty": ""}; !reflect.DeepEqual(vars, want) {
		t.Errorf("vars = %v, want %v", vars, want)
	}
	for _, bad := range [][]string{{"--args:dir"}, {"--args:", "x"}, {"--args:1x=y"}} {
		if _, _, err := TakeScriptArgs(bad); err == nil || !strings.Contains(err.Error(), "--args:") {
			t.Errorf("TakeScriptArgs(%q) err = %v", bad, err)
		}
	}
}
