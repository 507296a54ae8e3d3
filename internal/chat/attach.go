package chat

import (
	"os"
	"path/filepath"
	"strings"
)

// maxPathCompletions bounds the names Tab offers for "@path", so that a
// Tab in a huge directory stays quick and its hint short.
const maxPathCompletions = 200

// completeAtPath completes a trailing "@path" word of input to the files
// and directories it could name (a directory ends in "/", so another Tab
// goes into it); it returns whole inputs, as Complete does. Dot files
// show only once a "." is typed. home expands "~/".
func completeAtPath(input, home string) []string {
	if strings.HasPrefix(input, "/") || strings.Contains(input, "\n") || input == "" || strings.HasSuffix(input, " ") {
		return nil
	}
	start := strings.LastIndexAny(input, " \t") + 1
	word := input[start:]
	typed, ok := strings.CutPrefix(word, "@")
	if !ok {
		return nil
	}
	dirTyped, base := "", typed
	if i := strings.LastIndex(typed, "/"); i >= 0 {
		dirTyped, base = typed[:i+1], typed[i+1:]
	}
	dir := dirTyped
	switch {
	case dir == "":
		dir = "."
	case strings.HasPrefix(dir, "~/"):
		if home == "" {
			return nil
		}
		dir = filepath.Join(home, dir[2:])
	}
	entries, err := os.ReadDir(filepath.FromSlash(dir))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, base) || (strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".")) || strings.ContainsAny(name, " \t\n") {
			continue
		}
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			if info, err := os.Stat(filepath.Join(dir, name)); err == nil {
				isDir = info.IsDir()
			}
		}
		if isDir {
			name += "/"
		}
		out = append(out, input[:start]+"@"+dirTyped+name)
		if len(out) == maxPathCompletions {
			break
		}
	}
	return out
}
