package toolselect

import (
	"maps"
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

// splitWords calls fn with each word of s: runs of letters and digits,
// split again where an identifier changes case (readFile: read, File;
// HTTPServer: HTTP, Server). Underscores, dashes, dots and everything
// else separate words.
func splitWords(s string, fn func(string)) {
	start := -1
	// prev and prev2 are the two runes before r in the current word (0
	// before its start); prevAt is where prev is.
	var prev, prev2 rune
	prevAt := 0
	for i, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			if start >= 0 {
				fn(s[start:i])
				start = -1
			}
			continue
		}
		switch {
		case start < 0:
			start, prev = i, 0
		case unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)):
			fn(s[start:i])
			start, prev = i, 0
		case unicode.IsLower(r) && unicode.IsUpper(prev) && unicode.IsUpper(prev2):
			// The last capital of an acronym starts the next word.
			fn(s[start:prevAt])
			start = prevAt
		}
		prev2, prev, prevAt = prev, r, i
	}
	if start >= 0 {
		fn(s[start:])
	}
}

// extraStopWords are words of requests and tool descriptions that say
// nothing about which tool fits, besides Snowball's English stop words.
func extraStopWords(w string) bool {
	switch w {
	case "please", "could", "would", "can", "let", "want", "need", "like", "also", "tool", "tools",
		"use", "used", "using", "e", "g", "eg", "ie", "etc", "us", "via", "tell", "give", "show":
		return true
	}
	return false
}

// synonyms are groups of words that tools and users use for the same
// thing; each word is read as the first of its group. They fold words of
// both the tools and the requests.
func synonymGroups() [][]string {
	return [][]string{
		{"directory", "directories", "folder", "folders", "dir", "dirs"},
		{"delete", "remove", "erase", "rm", "del", "drop"},
		{"create", "make", "mkdir"},
		{"move", "rename", "mv"},
		{"search", "find", "locate", "lookup"},
		{"run", "execute", "exec", "launch"},
		{"command", "shell", "terminal", "cli", "cmd", "commands"},
		{"fetch", "download", "wget", "curl"},
		{"url", "urls", "uri", "website", "webpage", "site", "web", "online", "internet", "http", "https", "www", "page", "pages"},
		{"image", "images", "picture", "photo", "screenshot", "png", "jpg", "jpeg", "gif", "svg"},
		{"audio", "sound", "mp3", "wav"},
		{"compress", "compression", "gzip", "zip", "gzipped", "compressed"},
		{"environment", "env"},
		{"task", "tasks", "todo", "todos"},
		{"edit", "edits", "modify", "change", "alter", "changes"},
		{"sum", "plus", "total", "addition"},
		{"metadata", "info", "information", "details", "stat", "stats"},
		{"size", "sizes", "big", "bigger", "biggest", "large", "larger", "largest"},
		{"toggle", "toggles", "enable", "disable", "switch", "turn"},
		{"entity", "entities"},
		{"observation", "observations", "note", "notes", "fact", "facts"},
		{"relation", "relations", "relationship", "relationships"},
		{"log", "logs", "logging"},
		{"research", "investigate", "investigation"},
	}
}

// related are words of requests that point at other words of tools; they
// add those words to a request, at half weight.
func relatedWords() map[string][]string {
	shell := []string{"command", "run"}
	return map[string][]string{
		"replace": {"edit"}, "update": {"edit"}, "fix": {"edit"},
		"add": {"sum", "create"}, "new": {"create"}, "write": {"create"}, "save": {"write"},
		"remember": {"memory", "knowledge", "entity", "observation"}, "memorise": {"memory", "knowledge"},
		"memorize": {"memory", "knowledge"}, "recall": {"memory", "knowledge", "search"},
		"forget": {"delete", "memory", "knowledge", "entity"}, "know": {"knowledge", "search"}, "knowledge": {"memory"},
		"memory": {"knowledge"}, "person": {"entity"}, "people": {"entity"},
		"view": {"read"}, "cat": {"read", "file"}, "open": {"read"}, "display": {"read"}, "contents": {"read"},
		"look": {"read", "list", "search"}, "browse": {"list", "directory"}, "explore": {"list", "directory"},
		"inspect": {"read", "metadata"}, "ls": {"list", "directory"}, "tree": {"directory", "recursive"}, "recursive": {"tree"},
		"permissions": {"metadata"}, "record": {"memory", "knowledge", "observation"},
		"repeat": {"echo"}, "say": {"echo"}, "calculate": {"sum"}, "compute": {"sum"},
		"news": {"url", "fetch"}, "documentation": {"url", "fetch"}, "api": {"url", "fetch"},
		"status": {"edit"}, "done": {"status", "task"}, "progress": {"status"}, "finished": {"status", "task"}, "complete": {"status"},
		"plan": {"task"}, "steps": {"task"}, "track": {"task", "list"}, "reminder": {"task"},
		"logo": {"image"}, "resource": {"resources"}, "listen": {"audio"}, "watch": {"video"},
		// The names of common shell programs, and what is done with them,
		// mean a command.
		"git": shell, "pip": shell, "npm": shell, "yarn": shell, "go": shell, "cargo": shell, "docker": shell,
		"kubectl": shell, "grep": shell, "sed": shell, "awk": shell, "python": shell, "node": shell,
		"ps": shell, "kill": shell, "df": shell, "du": shell, "top": shell, "ssh": shell, "tar": shell,
		"chmod": shell, "chown": shell, "systemctl": shell, "brew": shell, "apt": shell, "pytest": shell,
		"cp": shell, "compile": shell, "install": shell, "build": shell, "test": shell,
		"deploy": shell, "process": shell, "port": shell, "disk": shell, "branch": shell, "commit": shell,
		"script": shell, "bash": shell, "sh": shell, "zsh": shell, "powershell": shell,
	}
}

// vocabulary is the stemmed form of the synonym and related-word tables,
// and the table of words.txt.
type vocabulary struct {
	same    map[string]string   // a word's stem → its group's stem
	related map[string][]string // a word's stem → the stems it points at
	// words maps a folded word of words.txt to what it means (nothing,
	// for a word that says nothing); phrases its phrases by their first
	// word; parts are the words compounds are made of.
	words   map[string][]weighted
	phrases map[string][]phrase
	parts   map[string]bool
	// stems maps the Spanish and French stems of the table's words to
	// their meaning.
	stems map[string][]weighted
	// known holds the terms of the tables: a request's word that is one
	// is read as itself, never as a misspelling of another.
	known map[string]bool
	// fuzzy holds the words of the tables, for misspellings of them.
	fuzzy *fuzzySet
}

// theVocabulary is built once: the tables never change.
var theVocabulary = sync.OnceValue(newVocabulary)

// newVocabulary reads the tables.
func newVocabulary() *vocabulary {
	v := &vocabulary{same: map[string]string{}, related: map[string][]string{},
		words: map[string][]weighted{}, phrases: map[string][]phrase{}, parts: map[string]bool{},
		known: map[string]bool{}, stems: map[string][]weighted{}, fuzzy: newFuzzySet()}
	for _, group := range synonymGroups() {
		head := stem(group[0])
		for _, w := range group {
			v.same[stem(w)] = head
		}
	}
	for w, targets := range relatedWords() {
		s := v.term(w)
		for _, t := range targets {
			if tt := v.term(t); tt != "" && tt != s && !contains(v.related[s], tt) {
				v.related[s] = append(v.related[s], tt)
			}
		}
	}
	v.readTable(wordsTable)
	v.addStems()
	// The English tables' words are known, and a misspelling of one means
	// what it means.
	done := map[string]bool{}
	english := func(w string) {
		if done[w] {
			return
		}
		done[w] = true
		t := v.term(w)
		if t == "" {
			return
		}
		v.known[t] = true
		means := []weighted{{t, 1}}
		for _, r := range v.related[t] {
			means = addMeaning(means, r, 0.5)
		}
		v.fuzzy.add(fold(w), means)
	}
	for _, group := range synonymGroups() {
		for _, w := range group {
			english(w)
		}
	}
	related := relatedWords()
	for _, w := range slices.Sorted(maps.Keys(related)) {
		english(w)
		for _, t := range related[w] {
			english(t)
		}
	}
	for _, w := range slices.Sorted(maps.Keys(v.words)) {
		for _, m := range v.words[w] {
			v.known[m.term] = true
		}
		v.fuzzy.add(w, v.words[w])
	}
	v.fuzzy.freeze()
	return v
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// stem is a lower-case word's Snowball stem.
func stem(w string) string { return english.Stem(w, true) }

// term is what a word counts as: its stem folded with its synonyms, or ""
// for a word that says nothing (a stop word, a number, one letter).
func (v *vocabulary) term(word string) string {
	w := fold(word)
	if len(w) < 2 || allDigits(w) || english.IsStopWord(w) || extraStopWords(w) {
		return ""
	}
	s := stem(w)
	if g, ok := v.same[s]; ok {
		return g
	}
	return s
}

func isLower(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || ('A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
