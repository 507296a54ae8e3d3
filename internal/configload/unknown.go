package configload

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/mcphost/mcphost/internal/spell"
)

// Unknown keys are ignored, as they always were (a file may be shared with
// Claude Code or an older mcphost), but a misspelt key silently ignored
// lets a user believe, say, that a tool is excluded when it is not. So
// each one becomes a warning naming the file, the key and, when one is
// close enough, the key that was probably meant.

// topLevelSections are the keys of a config file other than settings.
func topLevelSections() []string {
	return []string{"mcpServers", keyApproval, "roots", keyModels, keyHooks, keyProviders}
}

// serverFields are the fields a server entry may have, in every format
// ServersFromMap accepts (Claude Desktop/Code, mcphost local/remote,
// builtin).
func serverFields() []string {
	return []string{
		"type", "command", "args", "env", "environment", "cwd",
		"url", "headers", "oauth",
		"name", "options",
		"roots", "allowedTools", "excludedTools", "disabled", "enabled",
		"timeout", "toolTimeout", "toolTotalTimeout", "maxRestarts", "maxResultBytes",
	}
}

// elsewhereHints say where a key that is valid somewhere else belongs, for
// keys that are not read from a config file at all.
func elsewhereHints() map[string]string {
	return map[string]string{
		normKey(keyPrompt):       "a config file does not give the prompt: use -p or stdin",
		normKey(keyConfig):       "a config file cannot name another one: use --config on the command line",
		normKey(keyAllowTool):    `use "approval: {allow: [...]}" in a config file, or --allow-tool`,
		normKey(keyDenyTool):     `use "approval: {deny: [...]}" in a config file, or --deny-tool`,
		normKey(keyTrustProject): "it is a flag only: use --trust-project or mcphost trust",
	}
}

// fileKeyWarnings checks the top-level keys of a config file; file names
// it in the warnings.
func fileKeyWarnings(file string, top map[string]any) []string {
	known := append(fileKeys(), topLevelSections()...)
	var out []string
	for _, k := range sortedKeys(top) {
		msg := unknownKey(k, known, elsewhereHints())
		if msg == "" {
			continue
		}
		// A server's field (toolTimeout, excludedTools) written at the top
		// level is ignored there, misspelt or not.
		if msg == plainUnknown(k) {
			if field, ok := closestKey(normKey(k), serverFields()); ok {
				msg += fmt.Sprintf(": %q belongs in a server's entry under mcpServers", spellLike(field, k))
			}
		}
		out = append(out, fmt.Sprintf("%s: %s", file, msg))
	}
	return out
}

// scriptKeyWarnings checks the front matter keys of a script (file names
// it): the settings, mcpServers and prompt; the other sections of a config
// file are not read from a script.
func scriptKeyWarnings(file string, top map[string]any) []string {
	known := append(fileKeys(), "mcpServers", keyPrompt)
	hints := map[string]string{}
	for _, s := range topLevelSections() {
		hints[normKey(s)] = "a script reads settings and mcpServers only: put it in a config file"
	}
	hints[normKey(keyAllowTool)] = elsewhereHints()[normKey(keyAllowTool)]
	hints[normKey(keyDenyTool)] = elsewhereHints()[normKey(keyDenyTool)]
	var out []string
	for _, k := range sortedKeys(top) {
		if msg := unknownKey(k, known, hints); msg != "" {
			out = append(out, fmt.Sprintf("%s: %s", file, msg))
		}
	}
	return out
}

// serverKeyWarnings checks the fields of every entry of an mcpServers
// object; file names its file in the warnings.
func serverKeyWarnings(file string, servers map[string]any) []string {
	var out []string
	for _, name := range sortedKeys(servers) {
		m, ok := asMap(servers[name])
		if !ok {
			continue // a malformed entry is an error when it is parsed
		}
		for _, k := range sortedKeys(m) {
			if msg := unknownKey(k, serverFields(), nil); msg != "" {
				out = append(out, fmt.Sprintf("%s: server %q: %s", file, name, msg))
			}
		}
	}
	return out
}

// unknownKey returns the warning for key when it is not one of known (in
// any spelling: camelCase, snake_case, kebab-case), or "" when it is.
func unknownKey(key string, known []string, hints map[string]string) string {
	nk := normKey(key)
	for _, k := range known {
		if normKey(k) == nk {
			return ""
		}
	}
	msg := plainUnknown(key)
	if hint, ok := hints[nk]; ok {
		return msg + ": " + hint
	}
	if best, ok := closestKey(nk, known); ok {
		return fmt.Sprintf("%s: did you mean %q?", msg, spellLike(best, key))
	}
	return msg
}

// plainUnknown is the warning for key without a suggestion.
func plainUnknown(key string) string { return fmt.Sprintf("unknown key %q is ignored", key) }

// closestKey returns the key of known nearest to nk (a normKey'd key) by
// edit distance, when it is near enough to be a slip of the fingers: one
// edit for short keys, one per four letters for long ones.
func closestKey(nk string, known []string) (string, bool) {
	best, bestDist := "", -1
	for _, k := range known {
		d := spell.Distance(nk, normKey(k))
		if bestDist < 0 || d < bestDist {
			best, bestDist = k, d
		}
	}
	limit := max(1, min(len(nk), len(normKey(best)))/4)
	return best, bestDist >= 0 && bestDist <= limit
}

// spellLike writes the known key in the style the user wrote theirs:
// kebab-case, snake_case or camelCase, so the suggestion can be pasted.
func spellLike(known, written string) string {
	words := splitWords(known)
	switch {
	case strings.Contains(written, "-"):
		return strings.Join(words, "-")
	case strings.Contains(written, "_"):
		return strings.Join(words, "_")
	case strings.IndexFunc(written, unicode.IsUpper) > 0:
		for i := 1; i < len(words); i++ {
			words[i] = strings.ToUpper(words[i][:1]) + words[i][1:]
		}
		return strings.Join(words, "")
	}
	return known
}

// splitWords splits a kebab-case or camelCase key into lower-case words.
func splitWords(k string) []string {
	var words []string
	var cur []rune
	for _, r := range k {
		switch {
		case r == '-' || r == '_':
			if len(cur) > 0 {
				words, cur = append(words, string(cur)), nil
			}
		case unicode.IsUpper(r):
			if len(cur) > 0 {
				words = append(words, string(cur))
			}
			cur = []rune{unicode.ToLower(r)}
		default:
			cur = append(cur, r)
		}
	}
	if len(cur) > 0 {
		words = append(words, string(cur))
	}
	return words
}

// hookKeyWarnings checks the rules of a hooks section ({matcher, hooks}) and
// their commands ({type, command, timeout}): a misspelt matcher would make
// a hook run for every tool. Malformed sections are errors when read.
func hookKeyWarnings(file string, raw any) []string {
	events, ok := asMap(raw)
	if !ok {
		return nil
	}
	var out []string
	for _, event := range sortedKeys(events) {
		rules, _ := events[event].([]any)
		for i, r := range rules {
			rule, ok := asMap(r)
			if !ok {
				continue
			}
			for _, k := range sortedKeys(rule) {
				if msg := unknownKey(k, []string{"matcher", "hooks"}, nil); msg != "" {
					out = append(out, fmt.Sprintf("%s: hooks: %s entry %d: %s", file, event, i+1, msg))
				}
			}
			cmds, _ := entry{m: rule}.get("hooks")
			list, _ := cmds.([]any)
			for j, c := range list {
				cmd, ok := asMap(c)
				if !ok {
					continue
				}
				for _, k := range sortedKeys(cmd) {
					if msg := unknownKey(k, []string{"type", "command", "timeout"}, nil); msg != "" {
						out = append(out, fmt.Sprintf("%s: hooks: %s entry %d, hook %d: %s", file, event, i+1, j+1, msg))
					}
				}
			}
		}
	}
	return out
}
