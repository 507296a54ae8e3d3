package builtin

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
)

// shellKind is how a shell takes a command line.
type shellKind int

const (
	posixShell shellKind = iota // SHELL -c LINE (bash, sh, Git Bash, zsh...)
	powerShell                  // SHELL -NoProfile -NonInteractive -Command LINE
	cmdShell                    // cmd /d /s /c "LINE", on Windows
)

// shell is the interpreter that runs the bash server's commands.
type shell struct {
	name string // as configured or chosen, for the tool's description
	path string // the executable
	kind shellKind
}

// findShell resolves the configured shell, or else the first of the
// platform's defaults that is installed (see defaultShells). lookPath and
// getenv are exec.LookPath and os.Getenv but for tests.
func findShell(configured, goos string, lookPath func(string) (string, error), getenv func(string) string) (shell, error) {
	if configured != "" {
		path, err := lookPath(configured)
		if err != nil {
			return shell{}, fmt.Errorf("shell %q not found: install it or set the shell option", configured)
		}
		return shell{name: configured, path: path, kind: kindOf(path, goos)}, nil
	}
	var tried []string
	for _, c := range defaultShells(goos, getenv) {
		tried = append(tried, c)
		path, err := lookPath(c)
		if err != nil || (goos == "windows" && c == "bash" && isWSLBash(path, getenv)) {
			continue
		}
		name := c
		if filepath.IsAbs(c) || strings.ContainsAny(c, `/\`) {
			name = "Git Bash" // the only default given as a path
		}
		return shell{name: name, path: path, kind: kindOf(path, goos)}, nil
	}
	return shell{}, fmt.Errorf("no shell found (tried %s): install one or set the shell option", strings.Join(tried, ", "))
}

// defaultShells are the shells tried, in order, when none is configured.
// On Windows: Git Bash (bash on PATH, or where Git's installer puts it),
// then PowerShell 7 (pwsh), Windows PowerShell and cmd, which every
// Windows has.
func defaultShells(goos string, getenv func(string) string) []string {
	if goos != "windows" {
		return []string{"bash", "sh"}
	}
	shells := []string{"bash"}
	for _, dir := range []string{getenv("ProgramFiles"), getenv("ProgramW6432"), getenv("ProgramFiles(x86)")} {
		if dir != "" {
			shells = append(shells, filepath.Join(dir, "Git", "bin", "bash.exe"))
		}
	}
	if dir := getenv("LOCALAPPDATA"); dir != "" {
		shells = append(shells, filepath.Join(dir, "Programs", "Git", "bin", "bash.exe"))
	}
	return append(shells, "pwsh", "powershell", "cmd")
}

// isWSLBash reports whether path is the bash.exe of Windows itself, which
// runs the command inside WSL's Linux, with Linux paths, rather than in the
// working directory as the model was told.
func isWSLBash(path string, getenv func(string) string) bool {
	root := getenv("SystemRoot")
	if root == "" {
		root = `C:\Windows`
	}
	norm := func(p string) string { return strings.ToLower(strings.ReplaceAll(p, "/", `\`)) }
	return strings.HasPrefix(norm(path), strings.TrimSuffix(norm(root), `\`)+`\`)
}

// kindOf tells, from its file name, how the shell at path takes a command.
func kindOf(path, goos string) shellKind {
	base := path[strings.LastIndexAny(path, `/\`)+1:]
	base = strings.TrimSuffix(strings.ToLower(base), ".exe")
	switch {
	case base == "powershell" || base == "pwsh":
		return powerShell
	case base == "cmd" && goos == "windows":
		return cmdShell
	}
	return posixShell
}

// describe says, for the tool's description, how a command is run.
func (s shell) describe() string {
	switch s.kind {
	case powerShell:
		return "PowerShell (" + s.name + " -Command)"
	case cmdShell:
		return "cmd /c"
	}
	return s.name + " -c"
}

// command is the process that runs line.
func (s shell) command(line string) *exec.Cmd {
	switch s.kind {
	case powerShell:
		return exec.Command(s.path, "-NoProfile", "-NonInteractive", "-Command", line)
	case cmdShell:
		return cmdCommand(s.path, line)
	}
	return exec.Command(s.path, "-c", line)
}
