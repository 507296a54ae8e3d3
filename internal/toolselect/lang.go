package toolselect

import (
	_ "embed"
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
