package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcphost/mcphost/provider"
)

// Summary describes a saved conversation, for a list of those that can be
// resumed.
type Summary struct {
	// Path is the file.
	Path string
	// Saved is when the file was last written.
	Saved time.Time
	// Model is the model it was saved with; Messages counts its messages.
	Model    string
	Messages int
	// FirstPrompt is the text of its first user message; "" if none.
	FirstPrompt string
}

// List returns the session files in dir, the newest first: the *.json
// files that read as saved conversations (others are left out). It reads
// without taking the files' locks: a file is only ever replaced whole, so
// a read sees the old conversation or the new one.
func List(dir string) ([]Summary, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("listing the saved conversations in %s: %w", dir, unwrapPath(err))
	}
	var out []Summary
	for _, e := range entries {
		name := e.Name()
		// Dot files are the temporary files of a save in progress.
		if !e.Type().IsRegular() || strings.HasPrefix(name, ".") || !strings.EqualFold(filepath.Ext(name), ".json") {
			continue
		}
		path := filepath.Join(dir, name)
		f, err := load(path)
		if err != nil || f.Version == 0 {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		s := Summary{Path: path, Saved: info.ModTime(), Model: f.Model, Messages: len(f.Messages)}
		if i := slices.IndexFunc(f.Messages, func(m provider.Message) bool { return m.Role == provider.RoleUser }); i >= 0 {
			s.FirstPrompt = f.Messages[i].Content
		}
		out = append(out, s)
	}
	slices.SortStableFunc(out, func(a, b Summary) int { return b.Saved.Compare(a.Saved) })
	return out, nil
}

// NextPath names a new session file beside path for a conversation that
// follows the one in path: "chat.json" gives "chat-2.json", or the first
// of "chat-3.json", "chat-4.json"… that does not exist; "chat-2.json"
// gives "chat-3.json".
func NextPath(path string) string {
	dir, base := filepath.Split(path)
	ext := filepath.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	n := 2
	if i := strings.LastIndexByte(stem, '-'); i > 0 {
		if k, err := strconv.Atoi(stem[i+1:]); err == nil && k >= 1 && stem[i+1] != '0' {
			stem, n = stem[:i], k+1
		}
	}
	for ; ; n++ {
		next := filepath.Join(dir, fmt.Sprintf("%s-%d%s", stem, n, ext))
		if _, err := os.Lstat(next); errors.Is(err, fs.ErrNotExist) {
			return next
		}
	}
}
