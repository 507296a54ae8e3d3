package builtin

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestFindShell: the shell each platform picks by default, given what is
// installed, and a configured one.
func TestFindShell(t *testing.T) {
	env := map[string]string{
		"ProgramFiles": `C:\Program Files`, "LOCALAPPDATA": `C:\Users\u\AppData\Local`, "SystemRoot": `C:\Windows`,
	}
	getenv := func(k string) string { return env[k] }
	gitBash := filepath.Join(`C:\Program Files`, "Git", "bin", "bash.exe")
	cases := []struct {
		name, goos, configured string
		installed              map[string]string // name → path
		want                   string            // describe(), or the error's start
		wantPath               string
	}{
		{"bash", "linux", "", map[string]string{"bash": "/bin/bash", "sh": "/bin/sh"}, "bash -c", "/bin/bash"},
		{"sh without bash", "darwin", "", map[string]string{"sh": "/bin/sh"}, "sh -c", "/bin/sh"},
		{"none", "linux", "", nil, "no shell found (tried bash, sh)", ""},
		{"configured", "linux", "zsh", map[string]string{"zsh": "/bin/zsh", "bash": "/bin/bash"}, "zsh -c", "/bin/zsh"},
		{"configured missing", "linux", "fish", nil, `shell "fish" not found`, ""},
		{"configured pwsh", "linux", "pwsh", map[string]string{"pwsh": "/usr/bin/pwsh"}, "PowerShell (pwsh -Command)", "/usr/bin/pwsh"},
		{"Git Bash on PATH", "windows", "", map[string]string{"bash": `D:\Git\bin\bash.exe`, "cmd": `C:\Windows\System32\cmd.exe`}, "bash -c", `D:\Git\bin\bash.exe`},
		{"WSL's bash is skipped for Git Bash", "windows", "", map[string]string{"bash": `C:\WINDOWS\system32\bash.exe`, gitBash: gitBash}, "Git Bash -c", gitBash},
		{"PowerShell 7", "windows", "", map[string]string{"pwsh": `C:\Program Files\PowerShell\7\pwsh.exe`, "powershell": `C:\p.exe`}, "PowerShell (pwsh -Command)", `C:\Program Files\PowerShell\7\pwsh.exe`},
		{"Windows PowerShell", "windows", "", map[string]string{"powershell": `C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe`, "cmd": "cmd.exe"}, "PowerShell (powershell -Command)", `C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe`},
		{"cmd", "windows", "", map[string]string{"cmd": `C:\Windows\System32\cmd.exe`}, "cmd /c", `C:\Windows\System32\cmd.exe`},
		{"configured cmd", "windows", "cmd.exe", map[string]string{"cmd.exe": `C:\Windows\System32\cmd.exe`}, "cmd /c", `C:\Windows\System32\cmd.exe`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lookPath := func(name string) (string, error) {
				if p, ok := c.installed[name]; ok {
					return p, nil
				}
				return "", errors.New("not found")
			}
			sh, err := findShell(c.configured, c.goos, lookPath, getenv)
			if c.wantPath == "" {
				if err == nil || !strings.HasPrefix(err.Error(), c.want) {
					t.Fatalf("err = %v, want %q…", err, c.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if sh.describe() != c.want || sh.path != c.wantPath {
				t.Errorf("shell = %q at %s, want %q at %s", sh.describe(), sh.path, c.want, c.wantPath)
			}
		})
	}
}

// TestShellCommand: the arguments each kind of shell gets.
func TestShellCommand(t *testing.T) {
	for _, c := range []struct {
		sh   shell
		want string
	}{
		{shell{name: "bash", path: "/bin/bash", kind: posixShell}, "/bin/bash -c echo hi"},
		{shell{name: "pwsh", path: "pwsh", kind: powerShell}, "pwsh -NoProfile -NonInteractive -Command echo hi"},
	} {
		if got := strings.Join(c.sh.command("echo hi").Args, " "); got != c.want {
			t.Errorf("%s: %q, want %q", c.sh.name, got, c.want)
		}
	}
}
