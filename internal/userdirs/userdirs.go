// Package userdirs says where mcphost keeps a user's files on each
// platform: config, state (history, trust, sign-ins) and cache.
package userdirs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// appName names mcphost's own directory inside the platform's directories.
const appName = "mcphost"

// Dirs are where mcphost keeps the user's files.
type Dirs struct {
	// Home is the home directory: ~/.mcphost.yml and ~/.mcp.json are read
	// from it, and it is ${HOME} in config files.
	Home string
	// Config holds the user's config file (config.yml, .yaml or .json):
	// $XDG_CONFIG_HOME/mcphost or ~/.config/mcphost on Linux and the BSDs,
	// ~/Library/Application Support/mcphost on macOS, %APPDATA%\mcphost on
	// Windows.
	Config string
	// State holds what mcphost remembers between runs (the chat's input
	// history): $XDG_STATE_HOME/mcphost or ~/.local/state/mcphost on Linux
	// and the BSDs, ~/Library/Application Support/mcphost on macOS,
	// %LOCALAPPDATA%\mcphost on Windows.
	State string
	// LegacyState is where the state was kept before it followed the
	// platform (~/.local/state/mcphost everywhere); it is still read when
	// State holds nothing yet.
	LegacyState string
	// Cache holds what can be thrown away and found again (servers' tool
	// lists): $XDG_CACHE_HOME/mcphost or ~/.cache/mcphost on Linux and the
	// BSDs, ~/Library/Caches/mcphost on macOS, %LOCALAPPDATA%\mcphost\cache
	// on Windows.
	Cache string
}

// For returns the directories of the user whose home is home, on
// system goos (runtime.GOOS but for tests), with the environment read by
// env (nil: os.LookupEnv). The XDG variables are honoured on every Unix,
// macOS included, when set. An empty home leaves the directories derived
// from it empty.
func For(goos, home string, env func(string) (string, bool)) Dirs {
	if env == nil {
		env = os.LookupEnv
	}
	get := func(name string) string {
		v, _ := env(name)
		if !filepath.IsAbs(v) {
			return "" // the XDG spec: a relative value is to be ignored
		}
		return v
	}
	under := func(base string, elem ...string) string {
		if base == "" {
			return ""
		}
		return filepath.Join(append([]string{base}, elem...)...)
	}
	d := Dirs{Home: home, LegacyState: under(home, ".local", "state", appName)}
	switch goos {
	case "windows":
		d.Config = under(first(get("APPDATA"), under(home, "AppData", "Roaming")), appName)
		d.State = under(first(get("LOCALAPPDATA"), under(home, "AppData", "Local")), appName)
		d.Cache = under(d.State, "cache")
	case "darwin", "ios":
		support := under(home, "Library", "Application Support", appName)
		d.Config = first(under(get("XDG_CONFIG_HOME"), appName), support)
		d.State = first(under(get("XDG_STATE_HOME"), appName), support)
		d.Cache = first(under(get("XDG_CACHE_HOME"), appName), under(home, "Library", "Caches", appName))
	default:
		d.Config = under(first(get("XDG_CONFIG_HOME"), under(home, ".config")), appName)
		d.State = under(first(get("XDG_STATE_HOME"), under(home, ".local", "state")), appName)
		d.Cache = under(first(get("XDG_CACHE_HOME"), under(home, ".cache")), appName)
	}
	return d
}

// Default is For this system, this process's environment
// and home directory.
func Default() Dirs {
	home, _ := os.UserHomeDir()
	return For(runtime.GOOS, home, nil)
}

// StateFile returns the path of the state file name: in State, unless it
// is not there yet and LegacyState has it. It returns "" when neither
// directory is known. Callers create State's directories when they write.
func (d Dirs) StateFile(name string) string {
	if d.State == "" {
		if d.LegacyState == "" {
			return ""
		}
		return filepath.Join(d.LegacyState, name)
	}
	path := filepath.Join(d.State, name)
	if d.LegacyState == "" || d.LegacyState == d.State {
		return path
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		legacy := filepath.Join(d.LegacyState, name)
		if _, err := os.Stat(legacy); err == nil {
			return legacy
		}
	}
	return path
}

// first returns the first non-empty string.
func first(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
