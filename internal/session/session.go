// Package session saves and loads a conversation as a JSON file, so a chat
// can /save and /load it and one-shot runs can continue it across runs.
//
// Files are written durably: a temporary file in the same directory is
// synced, renamed over the old one, and the directory synced, so a crash or
// a power loss at any point leaves the old file or the new one, never a
// truncated one. Runs that share a file take turns: Acquire holds it (an OS
// file lock) for as long as a run uses it, and Save and Load hold it while
// they work.
package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

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

// briefWait bounds how long Save and Load wait for a run that holds the
// file: they are quick operations of their own, not turns.
const briefWait = 30 * time.Second

// Save writes the conversation to path durably, holding the file's lock
// while it does (waiting, 30 s at most, for a run that holds it).
func Save(path, model string, messages []provider.Message) error {
	l, err := Acquire(context.Background(), path, LockOptions{Wait: briefWait})
	if err != nil {
		return err
	}
	defer l.Release()
	return l.Save(model, messages)
}

// save writes the file; beforeRename, when not nil, runs once the
// temporary file is written and synced (tests crash there).
func save(path, model string, messages []provider.Message, beforeRename func(tmp string)) error {
	data, err := json.MarshalIndent(File{Version: FormatVersion, Model: model, Messages: messages}, "", "  ")
	if err != nil {
		return fmt.Errorf("saving session %s: %w", path, err)
	}
	fail := func(err error) error { return fmt.Errorf("saving session %s: %w", path, unwrapPath(err)) }
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fail(err)
	}
	defer os.Remove(tmp.Name()) // no-op once renamed
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fail(err)
	}
	// The data must be on disk before the rename makes it the file.
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	if beforeRename != nil {
		beforeRename(tmp.Name())
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fail(err)
	}
	syncDir(dir)
	return nil
}

// syncDir makes a rename in dir durable. Not every system can sync a
// directory (Windows cannot open one for it); the rename is then as
// durable as the system makes it.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// ErrNotExist is returned by Load when the file does not exist.
var ErrNotExist = errors.New("session file does not exist")

// ErrInvalid is returned, wrapped, by Load for a file that is not a
// session file mcphost can read; such a file is never overwritten.
var ErrInvalid = errors.New("not a session file")

type invalidError struct{ msg string }

func (e *invalidError) Error() string        { return e.msg }
func (e *invalidError) Is(target error) bool { return target == ErrInvalid }

// Load reads a session file, holding its lock while it does (waiting, 30 s
// at most, for a run that holds it).
func Load(path string) (File, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return File{}, fmt.Errorf("%s: %w", path, ErrNotExist)
	}
	l, err := Acquire(context.Background(), path, LockOptions{Wait: briefWait})
	if err != nil {
		return File{}, err
	}
	defer l.Release()
	return l.Load()
}

// load reads the file.
func load(path string) (File, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return File{}, fmt.Errorf("%s: %w", path, ErrNotExist)
	}
	if err != nil {
		return File{}, fmt.Errorf("reading session %s: %w", path, unwrapPath(err))
	}
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return File{}, &invalidError{fmt.Sprintf("%s is not a session file (%v): save one with /save or --session", path, err)}
	}
	if f.Version > FormatVersion {
		return File{}, &invalidError{fmt.Sprintf("%s was written by a newer mcphost (format %d): upgrade mcphost to read it", path, f.Version)}
	}
	for i, m := range f.Messages {
		switch m.Role {
		case provider.RoleSystem, provider.RoleUser, provider.RoleAssistant, provider.RoleTool:
		default:
			return File{}, &invalidError{fmt.Sprintf("%s: message %d has unknown role %q", path, i+1, m.Role)}
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
