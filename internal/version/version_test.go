package version

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestFromBuild(t *testing.T) {
	platform := runtime.GOOS + "/" + runtime.GOARCH
	checkout := func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20250102030405-0123456789ab+dirty"},
			Settings: []debug.BuildSetting{
				{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
				{Key: "vcs.time", Value: "2025-01-02T03:04:05Z"},
				{Key: "vcs.modified", Value: "true"},
			}}, true
	}
	installed := func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}}, true
	}
	devel := func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}, true
	}
	none := func() (*debug.BuildInfo, bool) { return nil, false }
	cases := []struct {
		name                  string
		version, commit, date string
		read                  func() (*debug.BuildInfo, bool)
		want                  string
	}{
		{"stamped release", "v1.0.0", "fedcba9876543210", "2025-06-01T00:00:00Z", checkout,
			"mcphost v1.0.0 (commit fedcba987654 with local changes, 2025-06-01T00:00:00Z, go1.26.8 " + platform + ")"},
		{"built in a checkout", "", "", "", checkout,
			"mcphost v0.0.0-20250102030405-0123456789ab+dirty (commit 0123456789ab with local changes, 2025-01-02T03:04:05Z, go1.26.8 " + platform + ")"},
		{"go install", "", "", "", installed, "mcphost v1.2.3 (go1.26.8 " + platform + ")"},
		{"nothing known", "", "", "", devel, "mcphost dev (go1.26.8 " + platform + ")"},
		{"no build info", "", "", "", none, "mcphost dev (" + runtime.Version() + " " + platform + ")"},
	}
	for _, c := range cases {
		if got := fromBuild(c.version, c.commit, c.date, c.read).String(); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
	data, err := json.Marshal(fromBuild("v1.0.0", "abc", "2025-06-01T00:00:00Z", installed))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"version":"v1.0.0","commit":"abc","date":"2025-06-01T00:00:00Z","go":"go1.26.8","platform":"` + platform + `"}`; string(data) != want {
		t.Errorf("JSON = %s, want %s", data, want)
	}
}

// TestStamping builds mcphost with the release
// script's -ldflags and checks that --version prints the stamped values.
func TestStamping(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	// The command itself, as scripts/release.sh builds it: a program of
	// its own outside the module could not import this internal package.
	const pkg = "github.com/mcphost/mcphost/internal/version"
	bin := filepath.Join(t.TempDir(), "stamped")
	build := exec.Command("go", "build", "-o", bin,
		"-ldflags", "-X "+pkg+".version=v9.8.7 -X "+pkg+".commit=0011223344556677 -X "+pkg+".date=2030-01-01T00:00:00Z", "github.com/mcphost/mcphost")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "mcphost v9.8.7 (commit 001122334455, 2030-01-01T00:00:00Z, go") {
		t.Errorf("stamped binary says %q", out)
	}
}
