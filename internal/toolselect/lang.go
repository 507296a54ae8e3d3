package toolselect

import (
	_ "embed"
	"maps"
	"slices"
	"strings"
	"unicode"
)

// wordsTable is the table of what the words of other languages and of
// everyday English mean to the ranking: its format is described at its
// top.
//
//go:embed words.txt
var wordsTable string

// weighted is a term and the weight it is added at, relative to the word
// that means it.
type weighted struct {
	term string
	w    float64
}

// phrase is a sequence of folded words and what it means.
type phrase struct {
	words []string
	means []weighted
}

// readTable reads words.txt into v: each item's meaning is its targets'
// terms at full weight and the words they are related to at half.
func (v *vocabulary) readTable(table string) {
	for line := range strings.Lines(table) {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		head, items, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		if head == "compound" {
			for _, item := range strings.Split(items, ",") {
				if w := strings.TrimSpace(fold(item)); w != "" {
					v.parts[w] = true
				}
			}
			continue
		}
		means := []weighted{}
		if head != "-" {
			for _, target := range strings.Fields(head) {
				t := v.term(target)
				if t == "" {
					continue
				}
				means = addMeaning(means, t, 1)
				for _, r := range v.related[t] {
					means = addMeaning(means, r, 0.5)
				}
			}
		}
		for _, item := range strings.Split(items, ",") {
			var words []string
			splitWords(item, func(w string) { words = append(words, fold(w)) })
			switch len(words) {
			case 0:
			case 1:
				v.words[words[0]] = means
			default:
				v.phrases[words[0]] = append(v.phrases[words[0]], phrase{words: words, means: means})
			}
		}
	}
	// The longest phrase first: "what is inside" before "what is in".
	for _, ps := range v.phrases {
		slices.SortStableFunc(ps, func(a, b phrase) int { return len(b.words) - len(a.words) })
	}
}

// stemWeight is what a word counts for when it is another form of a word
// of the table (recuerdes: recuerda) rather than the word itself.
const stemWeight = 0.8

// minStem is the length of the shortest stem that counts: shorter ones
// are shared by too many words.
const minStem = 5

// clitics are the pronouns Spanish, Portuguese and Italian attach to a
// verb (borralo, recuérdamelo, leggimelo); endings are the endings of
// verbs and nouns in the five languages (infinitives, persons, tenses,
// participles, plurals), longest first where one ends another.
var (
	clitics = []string{"melo", "mela", "melos", "melas", "selo", "sela", "selos", "selas", "telo", "tela", "glielo", "gliela",
		"los", "las", "les", "nos", "me", "te", "se", "lo", "la", "le", "mi", "ti", "ci", "vi", "gli"}
	endings = []string{
		"iendo", "ando", "endo", "aron", "ieron", "ados", "adas", "idos", "idas", "amos", "emos", "imos", "iamo", "aient",
		"erons", "erez", "eront", "ions", "iez", "ons", "ent", "ait", "ais", "eis", "aba", "ava", "ado", "ada", "ido", "ida",
		"ato", "ata", "ati", "ate", "ito", "ita", "uto", "uta", "are", "ere", "ire", "est", "ar", "er", "ir", "re", "ez",
		"as", "es", "os", "an", "en", "em", "st", "et", "ee", "a", "e", "o", "i", "s", "t", "n",
	}
)

// forStems calls fn with each stem of a folded word: the word without
// one of the endings of a verb or noun or an attached pronoun, leaving at
// least minStem letters; with both, the word without a pronoun and then an
// ending too (recuérdamelo: recuerd). A word and another form of it
// (recuerdes, recuerda; supprimerons, supprimer) share one when the
// table's word is stripped once and the request's twice: stripping both
// twice would make stems of four letters that unrelated words share
// (comprar, to buy; comprime, compress).
func forStems(w string, both bool, fn func(string)) {
	strip := func(w string) {
		for _, e := range endings {
			if len(w)-len(e) >= minStem && strings.HasSuffix(w, e) {
				fn(w[:len(w)-len(e)])
			}
		}
	}
	strip(w)
	for _, c := range clitics {
		// A pronoun follows an infinitive, a gerund or an imperative,
		// which end in r or a vowel.
		rest := w[:max(len(w)-len(c), 0)]
		if len(rest) >= minStem && strings.HasSuffix(w, c) && strings.IndexByte("raeiou", rest[len(rest)-1]) >= 0 {
			fn(rest)
			if both {
				strip(rest)
			}
		}
	}
}

// addStems indexes the stems of the table's words, so that a form the
// table does not list finds the word it is a form of; a stem that words
// of different meanings share is dropped.
func (v *vocabulary) addStems() {
	ambiguous := map[string]bool{}
	for _, w := range slices.Sorted(maps.Keys(v.words)) {
		means := v.words[w]
		forStems(w, false, func(s string) {
			if ambiguous[s] {
				return
			}
			if m, ok := v.stems[s]; ok && !slices.Equal(m, means) {
				delete(v.stems, s)
				ambiguous[s] = true
				return
			}
			v.stems[s] = means
		})
	}
}

// stemmed returns the meaning of the table's words that w is an
// inflection of, by their stems.
func (v *vocabulary) stemmed(w string) (means []weighted, ok bool) {
	forStems(w, true, func(s string) {
		if m, found := v.stems[s]; found && !ok {
			means, ok = m, true
		}
	})
	return means, ok
}

// addMeaning adds t at weight w to means, keeping the larger weight of a
// term already there.
func addMeaning(means []weighted, t string, w float64) []weighted {
	for i := range means {
		if means[i].term == t {
			means[i].w = max(means[i].w, w)
			return means
		}
	}
	return append(means, weighted{t, w})
}

// matchPhrase returns the length and meaning of the longest phrase of the
// table that words start with.
func (v *vocabulary) matchPhrase(words []string) (int, []weighted) {
	for _, p := range v.phrases[words[0]] {
		if len(p.words) <= len(words) && slices.Equal(p.words, words[:len(p.words)]) {
			return len(p.words), p.means
		}
	}
	return 0, nil
}

// compound splits a German compound (Dateiliste, Ordnerinhalt,
// Wissensgraph) that ends with a known part, and starts with one too or
// with four letters or more, into its two parts; ok is false for any other
// word.
func (v *vocabulary) compound(w string) (head, tail string, ok bool) {
	if len(w) < 8 {
		return "", "", false
	}
	for i := 4; i <= len(w)-4; i++ {
		tail = w[i:]
		if !v.parts[tail] {
			continue
		}
		head = w[:i]
		if !v.parts[head] && strings.HasSuffix(head, "s") && v.parts[head[:len(head)-1]] {
			head = head[:len(head)-1] // the linking s: Wissensgraph
		}
		return head, tail, true
	}
	return "", "", false
}

// fold returns w in lower case with its accents removed (é: e, ß: ss,
// œ: oe), so that a word written with or without them is the same.
func fold(w string) string {
	if isLower(w) {
		return w
	}
	var sb strings.Builder
	sb.Grow(len(w))
	for _, r := range w {
		r = unicode.ToLower(r)
		switch r {
		case 'à', 'á', 'â', 'ã', 'ä', 'å', 'ā':
			r = 'a'
		case 'ç', 'č':
			r = 'c'
		case 'è', 'é', 'ê', 'ë', 'ē', 'ę':
			r = 'e'
		case 'ì', 'í', 'î', 'ï':
			r = 'i'
		case 'ñ':
			r = 'n'
		case 'ò', 'ó', 'ô', 'õ', 'ö', 'ø':
			r = 'o'
		case 'ù', 'ú', 'û', 'ü':
			r = 'u'
		case 'ý', 'ÿ':
			r = 'y'
		case 'ß':
			sb.WriteString("ss")
			continue
		case 'œ':
			sb.WriteString("oe")
			continue
		case 'æ':
			sb.WriteString("ae")
			continue
		}
		sb.WriteRune(r)
	}
	return sb.String()
}
