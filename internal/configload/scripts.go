package configload

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/shellwords"
)

// A trusted project file that starts "sh tools/srv.sh" or runs the hook
// ".mcphost/guard.sh" runs those files too: trusting the config file
// alone would let anything that can write to the folder (a tool call, a
// git pull) change what runs. So the files of the project directory
// that a project file's servers and hooks name are trusted with it, by
// content hash, and mcphost's built-in fs server does not write them.

// maxScriptTokens bounds the words looked at in one project file's
// commands, so that a file of a million arguments costs little.
const maxScriptTokens = 4096

// projectScripts returns the regular files inside the working directory
// that the project file at path (holding data) would run or read: its
// system-prompt file, and each word of a
// stdio server's command and arguments (an argument also split as a shell
// line, for "sh -c 'python3 server.py'") and of each hook's command (split
// as the shell would), taken from the server's directory or the working
// directory when relative. Each is keyed by its absolute path, with the
// hex SHA-256 of its contents. A file that does not parse has none: it
// cannot be used, trusted or not.
func (o *LoadOptions) projectScripts(r fileReader, path string, data []byte) map[string]string {
	var cf *configFile
	var err error
	if isHooksFile(path) {
		cf, err = r.decodeHooksFile(path, data)
	} else {
		cf, err = r.decode(path, o.WorkDir, data)
	}
	if err != nil {
		return nil
	}
	type command struct {
		dir   string
		words []string
	}
	var commands []command
	if hooks, err := o.hooks([]*configFile{cf}); err == nil {
		for _, rules := range hooks {
			for _, rule := range rules {
				for _, c := range rule.Commands {
					commands = append(commands, command{o.WorkDir, shellSplit(c.Command)})
				}
			}
		}
	}
	// The servers are parsed as for a description: variables stay as
	// written (but ${PROJECT_DIR} and ${HOME}), nothing is checked.
	asWritten := func(name string) (string, bool) { return "${" + name + "}", true }
	p := serverParser{source: path, projectDir: cf.projectDir, homeDir: o.HomeDir, workDir: o.WorkDir, env: asWritten, describing: true}
	for _, name := range sortedKeys(cf.servers) {
		spec, err := p.parse(name, cf.servers[name])
		if err != nil || spec.Transport != config.TransportStdio {
			continue
		}
		words := []string{spec.Command}
		for _, a := range spec.Args {
			words = append(words, a)
			if split := shellSplit(a); len(split) > 1 {
				words = append(words, split...)
			}
		}
		commands = append(commands, command{cmpOr(spec.Dir, o.WorkDir), words})
	}

	root, err := filepath.EvalSymlinks(o.WorkDir)
	if err != nil {
		return nil
	}
	scripts := map[string]string{}
	// A system prompt read from a file of the project is what the file
	// tells the model: trusted with it too.
	if v, ok := scalarString(cf.settings[keySystemPrompt]); ok && v != "" {
		if _, fromHome := homeRelative(v, o.HomeDir); !fromHome {
			prompt := v
			if !filepath.IsAbs(prompt) {
				prompt = filepath.Join(filepath.Dir(path), prompt)
			}
			if sum, ok := projectFileHash(prompt, root); ok {
				scripts[filepath.Clean(prompt)] = sum
			}
		}
	}
	seen := 0
	for _, c := range commands {
		for _, w := range c.words {
			if seen++; seen > maxScriptTokens {
				return scripts
			}
			w = strings.TrimSpace(w)
			if w == "" || strings.Contains(w, "${") {
				continue
			}
			for _, candidate := range candidates(w, c.dir, o.WorkDir) {
				if _, done := scripts[candidate]; done {
					break
				}
				if sum, ok := projectFileHash(candidate, root); ok {
					scripts[candidate] = sum
					break
				}
			}
		}
	}
	if len(scripts) == 0 {
		return nil
	}
	return scripts
}

// shellSplit splits a command line as the shell would, or at spaces when
// it does not parse.
func shellSplit(line string) []string {
	words, err := shellwords.Split(line)
	if err != nil {
		return strings.Fields(line)
	}
	return words
}

// cmpOr returns a, or b when a is empty.
func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// candidates are the paths a command word may name: itself when
// absolute, else taken from dir and from the working directory.
func candidates(word, dir, workDir string) []string {
	if filepath.IsAbs(word) {
		return []string{filepath.Clean(word)}
	}
	out := []string{filepath.Join(dir, word)}
	if alt := filepath.Join(workDir, word); alt != out[0] {
		out = append(out, alt)
	}
	return out
}

// projectFileHash returns the hex SHA-256 of the file at path when it is
// a regular file inside root (a resolved directory), also through
// symbolic links.
func projectFileHash(path, root string) (string, bool) {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return "", false
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil || !within(real, root) {
		return "", false
	}
	sum, err := FileHash(path)
	return sum, err == nil
}

// within reports whether path lies in dir (or is dir).
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// FileHash is the hex SHA-256 of the regular file at path, as trust
// records a script a project file runs; read as a stream, so a large file
// costs time, not memory.
func FileHash(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", err
	}
	if !info.Mode().IsRegular() {
		return "", errNotRegular
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// changedScripts names the scripts whose content differs between the
// record (path → hash) and now, or that one of them has and the other
// not, sorted.
func changedScripts(recorded, now map[string]string) []string {
	var out []string
	for p, sum := range now {
		if recorded[p] != sum {
			out = append(out, p)
		}
	}
	for p := range recorded {
		if _, ok := now[p]; !ok {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}
