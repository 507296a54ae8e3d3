package chat

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

func TestHistoryKeepsTheLinesOfChatsWritingAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	// Two chats, started on the same (empty) file, each adding its lines.
	a, b := LoadHistory(path), LoadHistory(path)
	var wg sync.WaitGroup
	for name, h := range map[string]*History{"a": a, "b": b} {
		wg.Go(func() {
			for i := range 50 {
				h.Add(fmt.Sprintf("%s%d", name, i))
			}
		})
	}
	wg.Wait()
	got := LoadHistory(path).Entries()
	if len(got) != 100 {
		t.Fatalf("the file holds %d lines, want both chats' 100", len(got))
	}
	seen := map[string]bool{}
	for _, e := range got {
		seen[e] = true
	}
	for i := range 50 {
		if !seen[fmt.Sprintf("a%d", i)] || !seen[fmt.Sprintf("b%d", i)] {
			t.Fatalf("line %d of a chat is missing: %v", i, got)
		}
	}
}

func TestHistoryFileIsCappedWhenWritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	h := LoadHistory(path)
	for i := range 2*maxHistory + 5 {
		h.Add(fmt.Sprint("line ", i))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Count(string(data), "\n")
	if lines > 2*maxHistory || lines < maxHistory {
		t.Errorf("the file holds %d lines, want between %d and %d", lines, maxHistory, 2*maxHistory)
	}
	entries := LoadHistory(path).Entries()
	if last := entries[len(entries)-1]; last != fmt.Sprint("line ", 2*maxHistory+4) {
		t.Errorf("newest entry %q", last)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, %v", info.Mode(), err)
	}
}

func TestHistoryCapDropsNoNewLineOfAnotherChat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	a, b := LoadHistory(path), LoadHistory(path)
	var wg sync.WaitGroup
	for name, h := range map[string]*History{"a": a, "b": b} {
		wg.Go(func() {
			for i := range maxHistory + 200 {
				h.Add(fmt.Sprintf("%s%d", name, i))
			}
		})
	}
	wg.Wait()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		seen[strings.Trim(line, `"`)] = true
	}
	// Whatever the cuts dropped, it was old: each chat's newest lines are there.
	for i := maxHistory + 150; i < maxHistory+200; i++ {
		if !seen[fmt.Sprintf("a%d", i)] || !seen[fmt.Sprintf("b%d", i)] {
			t.Fatalf("a recent line (%d) of a chat was lost", i)
		}
	}
}

func TestHistoryIsNeverWrittenThroughALink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("making symbolic links needs a privilege on Windows")
	}
	for _, planted := range []string{"history", "history.lock"} {
		t.Run(planted, func(t *testing.T) {
			dir := t.TempDir()
			target := filepath.Join(dir, "victim")
			if err := os.WriteFile(target, []byte("keep\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, filepath.Join(dir, planted)); err != nil {
				t.Fatal(err)
			}
			LoadHistory(filepath.Join(dir, "history")).Add("typed secret")
			got, err := os.ReadFile(target)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != "keep\n" {
				t.Fatalf("the chat wrote through the link %s into its target: %q", planted, got)
			}
		})
	}
}
