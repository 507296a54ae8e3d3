package configload

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/config"
)

// loadScript loads fx with a script's front matter settings and servers.
func (fx *fixture) loadScript(t *testing.T, script map[string]any, servers []config.ServerSpec) (*config.Settings, error) {
	t.Helper()
	return fx.loadWith(t, LoadOptions{Script: script, ScriptFile: filepath.Join(fx.work, "job.sh"), Servers: servers})
}

func TestScriptLayerSitsBetweenFlagsAndTheRest(t *testing.T) {
	fx := newFixture(t)
	write(t, fx.work, ".mcphost.yml", "model: file-model\nmax-steps: 7\nnum-ctx: 4096\nmcpServers:\n  a: {command: a}\n")
	fx.env["MCPHOST_MAX_STEPS"] = "8"
	fx.args = []string{"--num-ctx", "1024"}
	write(t, fx.work, "prompts/sys.txt", "be brief")

	s, err := fx.loadScript(t, map[string]any{
		"model": "script-model", "max_steps": 9, "num-ctx": 2048,
		"system-prompt": "prompts/sys.txt", "temperature": 0.2, // not a setting: ignored
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Model != "script-model" || s.MaxSteps != 9 || s.NumCtx != 1024 {
		t.Errorf("model %q, max-steps %d, num-ctx %d: want the script over env and files, the flag over the script", s.Model, s.MaxSteps, s.NumCtx)
	}
	if s.SystemPrompt != "be brief" {
		t.Errorf("system prompt %q, want the file beside the script", s.SystemPrompt)
	}
	if len(s.Servers) != 1 || s.Servers[0].Name != "a" {
		t.Errorf("servers %+v, want the config file's when the script has none", s.Servers)
	}
}

func TestScriptServersReplaceTheConfig(t *testing.T) {
	fx := newFixture(t)
	write(t, fx.work, ".mcp.json", `{"mcpServers": {"a": {"command": "a"}}}`)
	mine := []config.ServerSpec{{Name: "b", Transport: config.TransportStdio, Command: "b"}}
	s, err := fx.loadScript(t, nil, mine)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Servers) != 1 || s.Servers[0].Name != "b" {
		t.Errorf("servers %+v, want only the script's", s.Servers)
	}
	s, err = fx.loadScript(t, nil, []config.ServerSpec{})
	if err != nil || len(s.Servers) != 0 {
		t.Errorf("an empty mcpServers in a script: servers %+v, err %v; want none", s.Servers, err)
	}
	// The config's servers are not used, so their problems do not count.
	write(t, fx.work, ".mcp.json", `{"mcpServers": {"a": {"command": "a", "env": {"TOKEN": "${UNSET_TOKEN}"}}}}`)
	if s, err = fx.loadScript(t, nil, mine); err != nil || len(s.Servers) != 1 {
		t.Errorf("a broken config server with the script's servers: servers %+v, err %v; want the script's", s.Servers, err)
	}
	if s, err = fx.load(t); err != nil || len(s.Servers) != 1 || s.Servers[0].Err == nil || !strings.Contains(s.Servers[0].Err.Error(), "UNSET_TOKEN") {
		t.Errorf("the broken config server used: %+v, %v; want it to carry an error naming UNSET_TOKEN", s, err)
	}
}

func TestScriptSettingErrorNamesTheScript(t *testing.T) {
	fx := newFixture(t)
	_, err := fx.loadScript(t, map[string]any{"max-steps": "many"}, nil)
	if err == nil || !strings.Contains(err.Error(), "job.sh") || !strings.Contains(err.Error(), "max-steps") {
		t.Errorf("err = %v, want one naming job.sh and max-steps", err)
	}
}

func TestElicitationSetting(t *testing.T) {
	fx := newFixture(t)
	if s := fx.mustLoad(t); s.Elicitation != "decline" {
		t.Errorf("default elicitation %q, want decline", s.Elicitation)
	}
	write(t, fx.work, ".mcphost.yml", "elicitation: accept-defaults\n")
	if s := fx.mustLoad(t); s.Elicitation != "accept-defaults" {
		t.Errorf("elicitation from a file = %q", s.Elicitation)
	}
	fx.args = []string{"--elicitation", "yes"}
	_, err := fx.load(t)
	if err == nil || !strings.Contains(err.Error(), "--elicitation") || !strings.Contains(err.Error(), "accept-defaults") {
		t.Errorf("bad value: err = %v", err)
	}
}
