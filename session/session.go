// Package session saves and loads a conversation as a JSON file, so a chat
// can /save and /load it and one-shot runs can continue it across runs.
// Files are written atomically: a crash mid-write never loses the previous
// version.
package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mcphost/mcphost/provider"
)

// FormatVersion is written into every file; a file from a newer mcphost is
// refused rather than misread.
const FormatVersion = 1

// File is what a session file holds.
type File struct {
	Version  int                `json:"version"`
	Model    string             `json:"model"`
	Messages []provider.Message `json:"messages"`
}

// Save writes the conversation to path atomically (a temporary file in the
// same directory, then a rename).
func Save(path, model string, messages []provider.Message) error {
	data, err := json.MarshalIndent(File{Version: FormatVersion, Model: model, Messages: messages}, "", "  ")
	if err != nil {
		return fmt.Errorf("saving session %s: %w", path, err)
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("saving session %s: %w", path, unwrapPath(err))
	}
	defer os.Remove(tmp.Name()) // no-op once renamed
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("saving session %s: %w", path, unwrapPath(err))
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("saving session %s: %w", path, unwrapPath(err))
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("saving session %s: %w", path, unwrapPath(err))
	}
	return nil
}

// ErrNotExist is returned by Load when the file does not exist.
var ErrNotExist = errors.New("session file does not exist")

// Load reads a session file.
func Load(path string) (File, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return File{}, fmt.Errorf("%s: %w", path, ErrNotExist)
	}
	if err != nil {
		return File{}, fmt.Errorf("reading session %s: %w", path, unwrapPath(err))
	}
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return File{}, fmt.Errorf("%s is not a session file (%v): save one with /save or --session", path, err)
	}
	if f.Version > FormatVersion {
		return File{}, fmt.Errorf("%s was written by a newer mcphost (format %d): upgrade mcphost to read it", path, f.Version)
	}
	for i, m := range f.Messages {
		switch m.Role {
		case provider.RoleSystem, provider.RoleUser, provider.RoleAssistant, provider.RoleTool:
		default:
			return File{}, fmt.Errorf("%s: message %d has unknown role %q", path, i+1, m.Role)
		}
	}
	return f, nil
}

// unwrapPath drops the *PathError wrapper, whose text repeats the path.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
