package session

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/provider"
)

func TestSaveLoadRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	msgs := []provider.Message{
		{Role: provider.RoleUser, Content: "echo hi"},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c1", Name: "everything__echo", Arguments: map[string]any{"message": "hi"}}}},
		{Role: provider.RoleTool, Content: "Echo: hi", ToolName: "everything__echo", ToolCallID: "c1"},
		{Role: provider.RoleAssistant, Content: "done"},
	}
	if err := Save(path, "qwen3:8b", msgs); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Model != "qwen3:8b" || len(f.Messages) != 4 || f.Messages[1].ToolCalls[0].Arguments["message"] != "hi" || f.Messages[2].ToolCallID != "c1" {
		t.Errorf("loaded %+v", f)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 2 || entries[0].Name() != "s.json" || entries[1].Name() != "s.json.lock" {
		t.Errorf("temporary files left beside the session: %v", entries)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o644)
		return p
	}
	if _, err := Load(filepath.Join(dir, "missing.json")); !errors.Is(err, ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	tests := map[string]string{
		write("garbage.json", "not json"):                                      "is not a session file",
		write("future.json", `{"version": 99, "messages": []}`):                "newer mcphost",
		write("role.json", `{"version": 1, "messages": [{"role": "wizard"}]}`): `unknown role "wizard"`,
	}
	for path, want := range tests {
		if _, err := Load(path); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
			t.Errorf("Load(%s) = %v, want an error naming the file and %q", path, err, want)
		}
	}
}

func TestSaveIntoMissingDirectoryNamesThePath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "dir", "s.json")
	err := Save(path, "m", nil)
	if err == nil || !strings.Contains(err.Error(), path) || strings.Count(err.Error(), path) > 1 {
		t.Errorf("err = %v", err)
	}
}
