// Package version tells which build of mcphost is running: the version,
// commit and build date stamped by the release script with -ldflags, or
// else what the Go toolchain recorded in the binary (the module version of
// a `go install ...@v1.2.3`, the commit and its time of a build in a git
// checkout).
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Set by scripts/release.sh with
//
//	-ldflags "-X github.com/mcphost/mcphost/internal/version.version=v1.2.3
//	          -X github.com/mcphost/mcphost/internal/version.commit=<sha>
//	          -X github.com/mcphost/mcphost/internal/version.date=<RFC 3339>"
//
// They are written by the linker only, never at run time.
var (
	version string
	commit  string
	date    string
)

// Info describes a build.
type Info struct {
	// Version is the release (v1.2.3), a Go pseudo-version for a build
	// between releases, or "dev" when nothing says.
	Version string `json:"version"`
	// Commit is the git commit built from, when known.
	Commit string `json:"commit,omitempty"`
	// Date is when the commit was made (a release is built from it, so this
	// is its build date too), in RFC 3339, when known.
	Date string `json:"date,omitempty"`
	// Modified is set when the working tree had uncommitted changes.
	Modified bool `json:"modified,omitempty"`
	// Go is the Go version it was built with.
	Go string `json:"go"`
	// Platform is GOOS/GOARCH.
	Platform string `json:"platform"`
}

// Get returns this binary's build information.
func Get() Info { return fromBuild(version, commit, date, debug.ReadBuildInfo) }

// fromBuild prefers the stamped values and fills in the rest from the
// build info that read returns.
func fromBuild(version, commit, date string, read func() (*debug.BuildInfo, bool)) Info {
	i := Info{Version: version, Commit: commit, Date: date, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi, ok := read(); ok && bi != nil {
		if i.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			i.Version = bi.Main.Version
		}
		if bi.GoVersion != "" {
			i.Go = bi.GoVersion
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if i.Commit == "" {
					i.Commit = s.Value
				}
			case "vcs.time":
				if i.Date == "" {
					i.Date = s.Value
				}
			case "vcs.modified":
				i.Modified = s.Value == "true"
			}
		}
	}
	if i.Version == "" {
		i.Version = "dev"
	}
	return i
}

// String is the one line `mcphost --version` prints:
//
//	mcphost v1.2.3 (commit 0123456789ab, 2025-01-02T03:04:05Z, go1.26.8 darwin/arm64)
func (i Info) String() string {
	var parts []string
	if i.Commit != "" {
		c := "commit " + i.Commit[:min(len(i.Commit), 12)]
		if i.Modified {
			c += " with local changes"
		}
		parts = append(parts, c)
	}
	if i.Date != "" {
		parts = append(parts, i.Date)
	}
	parts = append(parts, strings.TrimSpace(i.Go+" "+i.Platform))
	return fmt.Sprintf("mcphost %s (%s)", i.Version, strings.Join(parts, ", "))
}
