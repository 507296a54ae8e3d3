package config

import (
	"strconv"
	"strings"
	"unicode"
)

// ProjectFile is a config file found in the working directory, as read:
// its absolute path and the SHA-256 of the bytes that were read, which
// are the bytes described and trusted.
type ProjectFile struct {
	// Path is the file's absolute path.
	Path string
	// SHA256 is the hex SHA-256 of its contents.
	SHA256 string
	// Trusted tells whether the user trusts this content at this path.
	Trusted bool
	// Data is the contents that were read: the bytes hashed, described
	// and trusted.
	Data []byte
	// Scripts are the files of the project directory that the file runs
	// (a server's command or argument, a hook's command word naming a
	// regular file there), each with the hex SHA-256 of its contents:
	// they are trusted with the file, and a change to one makes the file
	// untrusted again.
	Scripts map[string]string
	// Changed names (as messages show them) what changed since the user
	// trusted this file at this path: the file itself or a script it
	// runs; empty when it was never trusted or has not changed.
	Changed []string
	// HomeDir and WorkDir shorten Path in Name (see DisplayPath).
	HomeDir, WorkDir string
}

// Name is the file's path as messages show it: relative to the working
// directory.
func (f ProjectFile) Name() string {
	name := DisplayPath(f.Path, f.HomeDir, f.WorkDir)
	if strings.ContainsFunc(name, unicode.IsControl) {
		return strconv.Quote(name) // a name must not draw on the terminal
	}
	return name
}
