package host_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/ollamatest"
)

// TestOptionsMirrorNoSetting: what the configuration says is said once,
// in Options.Config; Options holds only what a program alone can give.
func TestOptionsMirrorNoSetting(t *testing.T) {
	settings := map[string]bool{}
	for f := range reflect.TypeFor[config.Settings]().Fields() {
		settings[f.Name] = true
	}
	// Settings under other names, and the loader's options, which
	// LoadOptions holds.
	renamed := map[string]string{
		"AuditLog": "Audit", "Allow": "Approval.Allow", "Ask": "Approval.Ask", "Deny": "Approval.Deny",
		"NoServers": "Servers", "Settings": "Config", "IgnoreConfig": "LoadOptions.NoFiles",
		"ConfigFile": "LoadOptions.File", "TrustProject": "LoadOptions.TrustProject",
	}
	var configs int
	for f := range reflect.TypeFor[host.Options]().Fields() {
		if settings[f.Name] {
			t.Errorf("Options.%s mirrors config.Settings.%s", f.Name, f.Name)
		}
		if to, ok := renamed[f.Name]; ok {
			t.Errorf("Options.%s mirrors %s", f.Name, to)
		}
		if f.Type == reflect.TypeFor[*config.Settings]() {
			configs++
		}
	}
	if configs != 1 {
		t.Errorf("Options has %d fields of configuration, want one (Config)", configs)
	}
}

// isolate gives the test a home and a working directory without config
// files, and the environment variables of a user who set a model.
func isolate(t *testing.T) {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"} {
		t.Setenv(v, "")
	}
	t.Chdir(t.TempDir())
	t.Setenv("MCPHOST_MODEL", "ollama:from-env")
	t.Setenv("MCPHOST_SYSTEM_PROMPT", "the user's prompt")
	t.Setenv("OLLAMA_HOST", "http://127.0.0.1:1")
}

func TestLoadConfigReadsWhatItIsTold(t *testing.T) {
	isolate(t)
	user, err := host.LoadConfig(host.LoadOptions{})
	if err != nil || user.Model != "ollama:from-env" || user.OllamaHost != "http://127.0.0.1:1" || user.SystemPrompt != "the user's prompt" {
		t.Fatalf("LoadConfig: %+v, %v; want the user's variables", user, err)
	}
	none, err := host.LoadConfig(host.LoadOptions{NoFiles: true})
	if err != nil || none.Model != "" || none.OllamaHost != "" || none.SystemPrompt != "" {
		t.Fatalf("LoadConfig with NoFiles: %+v, %v; want no variable read", none, err)
	}
	if def := host.DefaultConfig(); !reflect.DeepEqual(def, none) || def.MaxSteps < 1 || len(def.Servers) != 0 {
		t.Errorf("DefaultConfig %+v; want the defaults, as LoadConfig with NoFiles: %+v", def, none)
	}
	// File is read instead of the usual files, with NoFiles too.
	file := filepath.Join(t.TempDir(), "mine.yml")
	if err := os.WriteFile(file, []byte("model: ollama:from-file\nmax-steps: 3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	mine, err := host.LoadConfig(host.LoadOptions{File: file, NoFiles: true})
	if err != nil || mine.Model != "ollama:from-file" || mine.MaxSteps != 3 {
		t.Errorf("LoadConfig with File: %+v, %v", mine, err)
	}
	if _, err := host.LoadConfig(host.LoadOptions{File: filepath.Join(t.TempDir(), "missing.yml")}); !errors.Is(err, host.ErrConfig) {
		t.Errorf("a missing File: %v; want ErrConfig", err)
	}
}

func TestAConfigGivenInCodeIsUsedAsGiven(t *testing.T) {
	isolate(t)
	model := ollamatest.NewServer(ollamatest.Model{Name: "tiny"})
	defer model.Close()
	model.Handle(func(api.ChatRequest) ollamatest.Reply { return ollamatest.Reply{Content: "ok"} })
	cfg := noFiles("ollama:tiny", model.URL)
	cfg.SystemPrompt = "the program's prompt"
	h, err := host.New(context.Background(), host.Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	// The Host runs with a copy: a change after New does not reach it.
	cfg.Model, cfg.SystemPrompt = "ollama:other", "changed"
	if _, err := h.Prompt(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	reqs := model.Requests()
	if len(reqs) != 1 || reqs[0].Model != "tiny" || reqs[0].Messages[0].Content != "the program's prompt" {
		t.Errorf("the model was sent %+v; want the program's model and system prompt, not the variables'", reqs)
	}
	if got := h.Settings(); got.Model != "ollama:tiny" || got.SystemPrompt != "the program's prompt" {
		t.Errorf("Settings: %q, %q", got.Model, got.SystemPrompt)
	}
}

func TestAConfigGivenInCodeIsChecked(t *testing.T) {
	tests := []struct {
		name   string
		change func(*config.Settings)
		field  string
	}{
		{"negative max-steps", func(c *config.Settings) { c.MaxSteps = -1 }, "max-steps"},
		{"negative num-ctx", func(c *config.Settings) { c.NumCtx = -2 }, "num-ctx"},
		{"tool-share above 1", func(c *config.Settings) { c.ToolShare = 2 }, "tool-share"},
		{"tool-share below 0", func(c *config.Settings) { c.ToolShare = -1 }, "tool-share"},
		{"server without a name", func(c *config.Settings) { c.Servers = []config.ServerSpec{{Command: "x"}} }, "name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := noFiles("", "")
			tt.change(cfg)
			h, err := host.New(context.Background(), host.Options{Config: cfg})
			if h != nil {
				h.Close()
			}
			var ce *config.Error
			if !errors.Is(err, host.ErrConfig) || !errors.As(err, &ce) || ce.Field != tt.field {
				t.Fatalf("New: %v (%+v); want a config error on %s", err, ce, tt.field)
			}
			// Worded for a person: the setting as a config file names it.
			if msg := err.Error(); strings.Contains(msg, "host.") || strings.Contains(msg, "Options") || (tt.field != "name" && !strings.Contains(msg, tt.field)) {
				t.Errorf("error %q; want it to name %s as a config file does, not a Go identifier", msg, tt.field)
			}
		})
	}
	// A zero configuration works: its zero bounds mean the defaults.
	h, err := host.New(context.Background(), host.Options{Config: &config.Settings{}})
	if err != nil {
		t.Fatalf("New with a zero Config: %v", err)
	}
	h.Close()
}
