//go:build linux

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/ollamatest"
)

func TestTwoChatsKeepBothHistories(t *testing.T) {
	t.Parallel()
	model := ollamatest.NewServer()
	defer model.Close()
	for range 6 {
		model.Enqueue(ollamatest.Reply{Content: "Noted."})
	}
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", `{"mcpServers": {}}`)
	env := chatEnv(t, model.URL)
	state := t.TempDir()
	env = append(env, "XDG_STATE_HOME="+state)
	a := startTerminal(t, dir, env, "-m", "tiny")
	b := startTerminal(t, dir, env, "-m", "tiny")
	a.waitFor("/help for commands")
	b.waitFor("/help for commands")
	for i := range 3 {
		a.typeLine(fmt.Sprint("from a ", i))
		b.typeLine(fmt.Sprint("from b ", i))
		// Each answer before the next line: the chats must interleave.
		a.waitForCount("Noted.", i+1)
		b.waitForCount("Noted.", i+1)
	}
	a.typeLine("/quit")
	b.typeLine("/quit")
	a.waitExit()
	b.waitExit()
	data, err := os.ReadFile(filepath.Join(state, "mcphost", "history"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		for _, who := range []string{"a", "b"} {
			if !strings.Contains(string(data), fmt.Sprintf(`"from %s %d"`, who, i)) {
				t.Errorf("the history file lacks chat %s's line %d:\n%s", who, i, data)
			}
		}
	}
}
