package e2e

// The official MCP conformance suite (@modelcontextprotocol/conformance,
// pinned with the Node.js 22 it needs in testdata/conformance) checks the
// client side of mcphost: for each scenario it starts a test server, runs
// testdata/conformance/client.sh with the server's URL, and judges what
// mcphost did on the wire.

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// conformanceDir holds the suite's package.json, relative to the module root.
const conformanceDir = "testdata/conformance"

// conformanceCheck is one entry of a scenario's checks.json.
type conformanceCheck struct {
	ID, Name, Status, ErrorMessage string
}

func TestConformance(t *testing.T) {
	t.Parallel()
	bin, err := filepath.Abs(filepath.Join(conformanceDir, "node_modules", ".bin"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(bin, "conformance")); err != nil {
		t.Fatalf("the conformance suite is not installed: run \"npm ci --prefix %s\" (scripts/test.sh does)", conformanceDir)
	}
	client, err := filepath.Abs(filepath.Join(conformanceDir, "client.sh"))
	if err != nil {
		t.Fatal(err)
	}
	// The checks each scenario must pass; others it reports may only be
	// informational or, for timing, warnings.
	scenarios := map[string][]string{
		"initialize": {"mcp-client-initialization"},
		"tools_call": {"tool-add-numbers"},
		"elicitation-sep1034-client-defaults": {
			"client-elicitation-sep1034-string-default", "client-elicitation-sep1034-integer-default",
			"client-elicitation-sep1034-number-default", "client-elicitation-sep1034-enum-default",
			"client-elicitation-sep1034-boolean-default",
		},
		"sse-retry": {"client-sse-graceful-reconnect", "client-sse-retry-timing", "client-sse-last-event-id"},
	}
	for _, name := range []string{"initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry"} {
		t.Run(name, func(t *testing.T) {
			results := t.TempDir()
			cmd := exec.Command(filepath.Join(bin, "conformance"), "client",
				"--command", client, "--scenario", name, "--timeout", "30000", "-o", results)
			// node_modules/.bin first: the suite runs on the node@22 it ships.
			cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
				"MCPHOST="+binary, "HOME="+t.TempDir(), "NO_COLOR=1")
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			runErr := cmd.Run()

			checks := readChecks(t, results)
			status := map[string]string{}
			for _, c := range checks {
				if c.Status == "FAILURE" {
					t.Errorf("check %s failed: %s", c.ID, c.ErrorMessage)
				}
				if _, seen := status[c.ID]; !seen || c.Status != "INFO" {
					status[c.ID] = c.Status
				}
			}
			// The reconnection's timing is measured against the wall
			// clock: on a loaded machine the reconnect after the server's
			// 500 ms may come a little late, which the suite reports as a
			// warning (and a late one past 1 s as a failure, caught
			// above). It exits 1 on a warning too, so that exit alone is
			// not held against the run.
			timingWarned := false
			for _, id := range scenarios[name] {
				s := status[id]
				if s == "WARNING" && id == "client-sse-retry-timing" {
					timingWarned = true
					continue
				}
				if s != "SUCCESS" {
					t.Errorf("check %s: %q, want SUCCESS", id, s)
				}
			}
			var exit *exec.ExitError
			if timingWarned && errors.As(runErr, &exit) && exit.ExitCode() == 1 {
				t.Logf("conformance %s: the reconnect came late by the wall clock (a warning):\n%s", name, tail(out.String(), 600))
				runErr = nil
			}
			if runErr != nil || t.Failed() {
				t.Errorf("conformance %s: %v\n%s", name, runErr, tail(out.String(), 3000))
			}
		})
	}
}

// authSuites are the suites of auth scenarios (OAuth sign-in) that run in
// CI, with their number of scenarios at 0.1.16: "auth" is the 14 of the
// 2025-11-25 spec (metadata discovery, client ID metadata document,
// scopes and step-up, token endpoint authentication, pre-registration);
// "draft" the 3 of the draft spec (resource mismatch, offline_access).
var authSuites = map[string]int{"auth": 14, "draft": 3}

// TestConformanceAuth runs the auth suites, their scenarios in parallel:
// each starts a protected server and its authorization server, and
// client.sh runs mcphost with $BROWSER set to a command that follows the
// authorization URL (the suite's server approves at once). Every scenario
// must pass every check: a warning (a SHOULD not followed) fails too.
func TestConformanceAuth(t *testing.T) {
	t.Parallel()
	bin, err := filepath.Abs(filepath.Join(conformanceDir, "node_modules", ".bin"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(bin, "conformance")); err != nil {
		t.Fatalf("the conformance suite is not installed: run \"npm ci --prefix %s\" (scripts/test.sh does)", conformanceDir)
	}
	client, err := filepath.Abs(filepath.Join(conformanceDir, "client.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for suite, want := range authSuites {
		t.Run(suite, func(t *testing.T) {
			results := t.TempDir()
			cmd := exec.Command(filepath.Join(bin, "conformance"), "client",
				"--command", client, "--suite", suite, "--timeout", "30000", "-o", results)
			cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
				"MCPHOST="+binary, "HOME="+t.TempDir(), "NO_COLOR=1")
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			runErr := cmd.Run()

			files, _ := filepath.Glob(filepath.Join(results, "*", "*", "checks.json"))
			if len(files) != want {
				t.Errorf("%d scenarios ran, want %d", len(files), want)
			}
			for _, f := range files {
				scenario := filepath.Base(filepath.Dir(f))
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				var checks []conformanceCheck
				if err := json.Unmarshal(data, &checks); err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				passed := 0
				for _, c := range checks {
					switch c.Status {
					case "SUCCESS":
						passed++
					case "FAILURE", "WARNING":
						t.Errorf("%s: check %s: %s: %s", scenario, c.ID, c.Status, c.ErrorMessage)
					}
				}
				if passed == 0 {
					t.Errorf("%s: no check passed", scenario)
				}
			}
			if runErr != nil || t.Failed() {
				t.Errorf("conformance --suite %s: %v\n%s", suite, runErr, tail(out.String(), 6000))
			}
		})
	}
}

// readChecks reads the checks.json the suite wrote under dir.
func readChecks(t *testing.T, dir string) []conformanceCheck {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*", "checks.json"))
	if len(files) != 1 {
		t.Fatalf("want one checks.json under %s, found %v", dir, files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var checks []conformanceCheck
	if err := json.Unmarshal(data, &checks); err != nil {
		t.Fatalf("%s: %v", files[0], err)
	}
	return checks
}

// tail keeps the end of a long output for a failure message.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

func TestHelpListsCommands(t *testing.T) {
	t.Parallel()
	out := runBinary(t, invocation{args: []string{"--help"}})
	for _, want := range []string{"mcphost script FILE", "mcphost servers", "mcphost tools list", "mcphost tools call", "--url", "--stdio", "--elicitation", "\n  6 "} {
		if !strings.Contains(out.stdout, want) {
			t.Errorf("--help lacks %q", want)
		}
	}
}
