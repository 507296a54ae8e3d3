//go:build linux

package e2e

import (
	"testing"

	"github.com/mcphost/mcphost/ollamatest"
)

// TestChatWarnsAboutMisspeltConfigKeys checks that the chat, too, names a
// misspelt key of the config with the key probably meant.
func TestChatWarnsAboutMisspeltConfigKeys(t *testing.T) {
	t.Parallel()
	ollama := ollamatest.NewServer()
	defer ollama.Close()
	dir := t.TempDir()
	writeConfig(t, dir, ".mcphost.yml", "mcpServers:\n  files:\n    type: builtin\n    name: fs\n    toolTimout: 5s\n")
	term := startTerminal(t, dir, chatEnv(t, ollama.URL), "-m", "tiny")
	term.waitFor(`warning: .mcphost.yml: server "files": unknown key "toolTimout" is ignored: did you mean "toolTimeout"?`)
	term.waitFor("> Ask anything")
	term.keys("C-d")
	term.waitExit()
}
