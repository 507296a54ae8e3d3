package session

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcphost/mcphost/provider"
)

func TestListFindsTheSavedConversationsNewestFirst(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old.json")
	if err := Save(old, "tiny", []provider.Message{{Role: provider.RoleSystem, Content: "sys"}, {Role: provider.RoleUser, Content: "first question"}}); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(old, time.Now().Add(-time.Hour), time.Now().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := Save(filepath.Join(dir, "new.json"), "big", nil); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "other.json"), []byte(`{"name": "a package.json"}`), 0o600)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o600)
	got, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || filepath.Base(got[0].Path) != "new.json" || filepath.Base(got[1].Path) != "old.json" {
		t.Fatalf("List = %+v, want new.json then old.json", got)
	}
	if got[1].Model != "tiny" || got[1].Messages != 2 || got[1].FirstPrompt != "first question" {
		t.Errorf("old.json: %+v", got[1])
	}
}

func TestNextPathNumbersTheFollowingConversation(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "chat.json")
	if got := NextPath(p); got != filepath.Join(dir, "chat-2.json") {
		t.Errorf("NextPath(chat.json) = %s", got)
	}
	os.WriteFile(filepath.Join(dir, "chat-2.json"), nil, 0o600)
	if got := NextPath(p); got != filepath.Join(dir, "chat-3.json") {
		t.Errorf("NextPath(chat.json) with chat-2.json there = %s", got)
	}
	if got := NextPath(filepath.Join(dir, "chat-2.json")); got != filepath.Join(dir, "chat-3.json") {
		t.Errorf("NextPath(chat-2.json) = %s", got)
	}
	if got := NextPath(filepath.Join(dir, "s")); got != filepath.Join(dir, "s-2") {
		t.Errorf("NextPath(s) = %s", got)
	}
}
