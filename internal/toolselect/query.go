package toolselect

import (
	"strings"
)

// MaxQuery bounds the text of a request that is read: a prompt with a
// large piped file attached says what it wants at its start.
const MaxQuery = 16 << 10

// pathWordWeight is what a word of a file's name or path counts for.
const pathWordWeight = 0.25

// maxTermWeight caps a word's weight however often a request repeats it.
const maxTermWeight = 2

// Query is what a request asks for: the words it uses, weighted.
type Query struct {
	terms map[string]float64
	// loose are its words that no table knows, which may be misspellings:
	// Rank reads one that is no tool's word as the tools' words, and the
	// tables' words, nearest to it.
	loose []looseWord
	// inflected are its words that no table lists but whose stems are
	// those of a table's word (recuerdes: recuerda): Rank reads one that
	// is no tool's word as what the table's word means.
	inflected []inflectedWord
}

// inflectedWord is a word's term, what the table's word it is a form of
// means, and its weight.
type inflectedWord struct {
	term   string
	means  []weighted
	weight float64
}

// looseWord is a word of a request, folded, its term and its weight.
type looseWord struct {
	word, term string
	weight     float64
}

// token is a folded word of a request and its weight; a zero weight
// separates phrases (where a URL was).
type token struct {
	word   string
	weight float64
}

// NewQuery returns the query of text at weight 1.
func NewQuery(text string) *Query {
	q := &Query{terms: map[string]float64{}}
	q.Add(text, 1)
	return q
}

// Empty reports whether the query has no word that could match a tool.
func (q *Query) Empty() bool { return q == nil || len(q.terms) == 0 }

// Add reads text into the query at weight (less than 1 for context that
// matters less than the request itself, such as the previous one). Besides
// its words, a path or file name adds "file", a URL or domain "url" (and
// its own words are left out: they name a place, not a task), and the
// words that point at tools' words (remember: memory, git: command) add
// those at half weight. Words and phrases of words.txt (other languages,
// everyday wording: "keep in mind", "zeig mir") count as what they mean,
// and the words no table knows are kept for Rank to read as misspellings.
func (q *Query) Add(text string, weight float64) {
	if len(text) > MaxQuery {
		text = text[:MaxQuery]
	}
	v := theVocabulary()
	var tokens []token
	for _, field := range strings.Fields(text) {
		field = strings.Trim(field, "\"'`()[]{}<>,;:!?*")
		field = strings.TrimRight(field, ".")
		switch {
		case field == "":
			continue
		case isURL(field):
			q.add("url", weight)
			tokens = append(tokens, token{})
			continue
		case isPath(field):
			q.add("file", weight/2)
			q.add("path", weight/2)
			if strings.HasSuffix(field, "/") {
				q.add(v.term("directory"), weight/2)
			}
			// A file's name says which file, seldom what to do with it
			// (notes.txt, build/, relazione.doc): its words count a
			// little, its extension (bug.png: an image) in full.
			name, ext := field, ""
			if dot := strings.LastIndexByte(field, '.'); dot > 0 && !strings.ContainsAny(field[dot:], "/\\") {
				name, ext = field[:dot], field[dot+1:]
			}
			splitWords(name, func(w string) { tokens = append(tokens, token{fold(w), weight * pathWordWeight}) })
			splitWords(ext, func(w string) { tokens = append(tokens, token{fold(w), weight}) })
			tokens = append(tokens, token{})
			continue
		}
		splitWords(field, func(w string) { tokens = append(tokens, token{fold(w), weight}) })
	}
	words := make([]string, len(tokens))
	for i, t := range tokens {
		words[i] = t.word
	}
	for i := 0; i < len(tokens); i++ {
		tk := tokens[i]
		if tk.weight == 0 {
			continue
		}
		if n, means := v.matchPhrase(words[i:]); n > 0 {
			q.addMeaning(means, tk.weight)
			i += n - 1
			continue
		}
		q.addWord(v, tk.word, tk.weight)
	}
}

// addWord adds one folded word: what the table says it means, or its term
// and the words related to it; a German compound as its parts too; and a
// word that no table knows as a possible misspelling.
func (q *Query) addWord(v *vocabulary, w string, weight float64) {
	if means, ok := v.words[w]; ok {
		q.addMeaning(means, weight)
		return
	}
	t := v.term(w)
	if t == "" {
		return
	}
	q.add(t, weight)
	for _, r := range v.related[t] {
		q.add(r, weight/2)
	}
	if v.known[t] {
		return
	}
	if len(w) > minStem {
		if means, ok := v.stemmed(w); ok {
			q.inflected = append(q.inflected, inflectedWord{t, means, weight * stemWeight})
			return
		}
	}
	if head, tail, ok := v.compound(w); ok {
		q.addWord(v, head, weight)
		q.addWord(v, tail, weight)
		return
	}
	if len(w) >= minFuzzy {
		q.loose = append(q.loose, looseWord{w, t, weight})
	}
}

func (q *Query) add(t string, w float64) {
	if t != "" {
		q.terms[t] = min(q.terms[t]+w, maxTermWeight)
	}
}

func (q *Query) addMeaning(means []weighted, w float64) {
	for _, m := range means {
		q.add(m.term, w*m.w)
	}
}

// webDomains are the top-level domains that make a word a web address
// rather than a file name (README.md is a file, whatever Moldova says).
func webDomain(tld string) bool {
	switch tld {
	case "com", "org", "net", "io", "dev", "app", "ai", "gov", "edu", "co", "uk", "de", "fr", "info", "me", "eu":
		return true
	}
	return false
}

// isURL reports whether a word of a request is a web address: with a
// scheme, www., or a host name under a common top-level domain.
func isURL(w string) bool {
	lw := strings.ToLower(w)
	if strings.HasPrefix(lw, "http://") || strings.HasPrefix(lw, "https://") || strings.HasPrefix(lw, "www.") {
		return true
	}
	host, _, _ := strings.Cut(lw, "/")
	dot := strings.LastIndexByte(host, '.')
	if dot <= 0 || !webDomain(host[dot+1:]) {
		return false
	}
	for i := 0; i < len(host); i++ {
		c := host[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// isPath reports whether a word of a request is a path or a file name:
// it has a slash between names, or ends in an extension (main.go, .env;
// not e.g).
func isPath(w string) bool {
	if strings.ContainsAny(w, "/\\") && strings.IndexFunc(w, isLetter) >= 0 {
		return true
	}
	dot := strings.LastIndexByte(w, '.')
	if dot == 0 && len(w) > 1 && isLetter(rune(w[1])) {
		return true // a dot file: .gitignore, .env
	}
	if dot < 2 || dot == len(w)-1 || len(w)-dot > 6 {
		return false
	}
	for _, r := range w[dot+1:] {
		if !isLetter(r) && (r < '0' || r > '9') {
			return false
		}
	}
	return isLetter(rune(w[dot+1]))
}

func isLetter(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' }
