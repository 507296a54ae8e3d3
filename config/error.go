package config

import (
	"path/filepath"
	"strconv"
	"strings"
)

// Error is a configuration problem worded for the user: which file, which
// server and which field, and what to do about it. Loading the settings
// returns it (possibly wrapped) for every problem in the user's input.
type Error struct {
	// File is the config file at fault, as a path; empty when the problem is
	// in a flag or an environment variable.
	File string
	// Server is the name of the server under mcpServers, if any.
	Server string
	// Field is the setting or server field at fault, e.g. "max-steps" or "env".
	Field string
	// Message says what is wrong and what to do. It names the field itself;
	// it never holds the value of an env or header entry, which are often
	// secrets.
	Message string

	// HomeDir and WorkDir shorten File when it is rendered (see
	// DisplayPath); empty shows File as it is.
	HomeDir, WorkDir string
	// Err is the underlying error, if any, for errors.Is and errors.As.
	Err error
}

// Error renders `FILE: server "S": MESSAGE`, leaving out the parts that are
// empty. FILE is shown relative to the working directory when it lies there,
// else with ~ for the home directory.
func (e *Error) Error() string {
	var parts []string
	if e.File != "" {
		parts = append(parts, DisplayPath(e.File, e.HomeDir, e.WorkDir))
	}
	if e.Server != "" {
		parts = append(parts, "server "+strconv.Quote(e.Server))
	}
	if e.Message != "" {
		parts = append(parts, e.Message)
	}
	return strings.Join(parts, ": ")
}

// Unwrap returns the error behind this one, such as a *fs.PathError.
func (e *Error) Unwrap() error { return e.Err }

// DisplayPath shortens path for messages: relative to workDir when it lies
// there, else with ~ for homeDir. A project file reads better as
// ".mcp.json" than as a long absolute path, and a user file as "~/.mcp.json".
func DisplayPath(path, homeDir, workDir string) string {
	if workDir != "" && workDir != homeDir {
		if rel, ok := under(path, workDir); ok {
			return rel
		}
	}
	if homeDir != "" {
		if rel, ok := under(path, homeDir); ok {
			return "~" + string(filepath.Separator) + rel
		}
	}
	return path
}

// under reports path relative to dir when path lies inside dir.
func under(path, dir string) (string, bool) {
	rel, err := filepath.Rel(dir, path)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}
