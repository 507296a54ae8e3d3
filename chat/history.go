package chat

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/mcphost/mcphost/config"
)

// maxHistory bounds the entries loaded from the history file: its newest.
// The file itself is only ever appended to.
const maxHistory = 1000

// History is the list of past inputs, oldest first, kept across sessions in
// a file of JSON strings, one per line (so multi-line inputs survive).
type History struct {
	path    string
	entries []string
}

// DefaultHistoryPath is the file history in the platform's state
// directory (config.Dirs.State: $XDG_STATE_HOME/mcphost or
// ~/.local/state/mcphost, ~/Library/Application Support/mcphost,
// %LOCALAPPDATA%\mcphost), or the one in ~/.local/state/mcphost while only
// that one exists; "" without a home directory.
func DefaultHistoryPath() string { return config.DefaultUserDirs().StateFile("history") }

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
// to the file. Failing to write history never stops the chat.
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
	f, err := os.OpenFile(h.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	line, _ := json.Marshal(s)
	f.Write(append(line, '\n'))
}
