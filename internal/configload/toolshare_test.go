package configload

import (
	"errors"
	"testing"

	"github.com/mcphost/mcphost/config"
)

func TestLoadToolSelectionSettings(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		env   map[string]string
		args  []string
		share float64
		embed string
	}{
		{"defaults", "", nil, nil, 0.25, ""},
		{"file", "tool-share: 0.1\nembed-model: nomic-embed-text\n", nil, nil, 0.1, "nomic-embed-text"},
		{"file, auto", "embed-model: auto\n", nil, nil, 0.25, "auto"},
		{"file camel, whole number", "toolShare: 1\nembedModel: ' all-minilm '\n", nil, nil, 1, "all-minilm"},
		{"env", "tool-share: 0.1\n", map[string]string{"MCPHOST_TOOL_SHARE": "0", "MCPHOST_EMBED_MODEL": "bge-m3"}, nil, 0, "bge-m3"},
		{"flags", "", map[string]string{"MCPHOST_TOOL_SHARE": "0.3"}, []string{"--tool-share", "0.5", "--embed-model", "e"}, 0.5, "e"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := settingsFixture(t, tt.file, tt.env, tt.args).mustLoad(t)
			if s.ToolShare != tt.share || s.EmbedModel != tt.embed {
				t.Errorf("ToolShare %v, EmbedModel %q; want %v, %q", s.ToolShare, s.EmbedModel, tt.share, tt.embed)
			}
		})
	}
}

func TestLoadToolShareErrors(t *testing.T) {
	tests := []struct {
		name string
		file string
		env  map[string]string
		args []string
		want string
	}{
		{"flag too big", "", nil, []string{"--tool-share", "1.5"}, `--tool-share must be from 0 (always offer every tool) to 1 (the whole context window), got 1.5`},
		{"file negative", "tool-share: -0.1\n", nil, nil, `.mcphost.yml: "tool-share" must be from 0 (always offer every tool) to 1 (the whole context window), got -0.1`},
		{"env not a number", "", map[string]string{"MCPHOST_TOOL_SHARE": "a quarter"}, nil, `MCPHOST_TOOL_SHARE must be a number`},
		{"env NaN", "", map[string]string{"MCPHOST_TOOL_SHARE": "NaN"}, nil, `MCPHOST_TOOL_SHARE must be a number`},
		{"file not a number", "tool-share: [1]\n", nil, nil, `.mcphost.yml: "tool-share" must be a number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := settingsFixture(t, tt.file, tt.env, tt.args).load(t)
			var ce *config.Error
			if !errors.As(err, &ce) || ce.Field != "tool-share" || err.Error() != tt.want {
				t.Errorf("err = %v; want %q", err, tt.want)
			}
		})
	}
}
