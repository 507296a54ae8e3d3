package chat

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/mcphost/mcphost/internal/nofollow"
	"github.com/mcphost/mcphost/internal/userdirs"
)

// maxHistory bounds the entries loaded from the history file, its newest,
// and the lines the file keeps when it is cut back.
const maxHistory = 1000

// History is the list of past inputs, oldest first, kept across sessions in
// a file of JSON strings, one per line (so multi-line inputs survive).
type History struct {
	path    string
	entries []string
}

// DefaultHistoryPath is the file history in the platform's state
// directory (userdirs.Dirs.State: $XDG_STATE_HOME/mcphost or
// ~/.local/state/mcphost, ~/Library/Application Support/mcphost,
// %LOCALAPPDATA%\mcphost), or the one in ~/.local/state/mcphost while only
// that one exists; "" without a home directory.
func DefaultHistoryPath() string { return userdirs.Default().StateFile("history") }

// LoadHistory reads the history file at path; a missing or unreadable
// file is an empty history (the chat must start anyway). An empty path
// keeps history in memory only.
func LoadHistory(path string) *History {
	h := &History{path: path}
	if path == "" {
		return h
	}
	f, err := os.Open(path)
	if err != nil {
		return h
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		var s string
		if json.Unmarshal(sc.Bytes(), &s) == nil && s != "" {
			h.entries = append(h.entries, s)
		}
	}
	if len(h.entries) > maxHistory {
		h.entries = h.entries[len(h.entries)-maxHistory:]
	}
	return h
}

// Entries returns the entries, oldest first.
func (h *History) Entries() []string { return h.entries }

// Add records an input (skipping a repeat of the last one) and appends it
// to the file. Chats running at once each append their own lines under
// the file's lock, so none is lost; the file is cut back to its newest
// maxHistory lines once it holds twice as many. Failing to write history
// never stops the chat.
func (h *History) Add(s string) {
	if s == "" || (len(h.entries) > 0 && h.entries[len(h.entries)-1] == s) {
		return
	}
	h.entries = append(h.entries, s)
	if h.path == "" {
		return
	}
	if err := os.MkdirAll(filepath.Dir(h.path), 0o700); err != nil {
		return
	}
	// Neither the lock nor the file is written through a link: one
	// planted there would have its target appended to.
	lock, err := nofollow.NewLock(h.path + ".lock")
	if err != nil {
		return
	}
	// Another chat holds it for a moment at most; give up after a second
	// rather than stall the prompt.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if ok, _ := lock.TryLockContext(ctx, 10*time.Millisecond); !ok {
		return
	}
	defer lock.Unlock()
	line, _ := json.Marshal(s)
	if !nofollow.Locked(lock, h.path+".lock") {
		return
	}
	f, err := nofollow.OpenFile(h.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	_, err = f.Write(append(line, '\n'))
	f.Close()
	if err == nil {
		capFile(h.path, maxHistory)
	}
}

// capFile rewrites the history file with its newest keep lines once it
// holds twice as many, so that it stays small however long it is used.
// The caller holds the file's lock.
func capFile(path string, keep int) {
	data, err := os.ReadFile(path)
	if err != nil || bytes.Count(data, []byte("\n")) < 2*keep {
		return
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
		lines = lines[:n-1]
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".history.*.tmp")
	if err != nil {
		return
	}
	defer os.Remove(tmp.Name()) // no-op once renamed
	_, err = tmp.Write(bytes.Join(lines[len(lines)-keep:], nil))
	if cerr := tmp.Close(); err != nil || cerr != nil {
		return
	}
	_ = os.Chmod(tmp.Name(), 0o600)
	_ = os.Rename(tmp.Name(), path)
}
