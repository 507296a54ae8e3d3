package toolselect

import "slices"

// fuzzyWeight is what a word counts for when it is a misspelling of a
// known word rather than the word itself.
const fuzzyWeight = 0.6

// fuzzySet finds the words of a set within a small edit distance of a
// word (a typo: direcotry, fodler, raed), by the pairs of letters they
// share: a word of a set of a thousand is compared letter by letter with
// the few that share enough of its pairs.
type fuzzySet struct {
	words []string
	means [][]weighted
	index map[string]int32
	// pairs holds, while words are added, each word's first letter and
	// pairs of bytes (its start and end marked) with the word:
	// key<<32 | word. freeze sorts them into keys, the distinct keys, and
	// for the i-th key, ids[starts[i]:starts[i+1]], the words that start
	// with that letter and hold that pair: a misspelling keeps its first
	// letter (see lookup), so only the words that start with it are
	// counted. Sorted arrays cost less to build than a map of lists.
	pairs  []uint64
	keys   []uint32
	starts []int32
	ids    []int32
}

func newFuzzySet() *fuzzySet {
	return &fuzzySet{index: map[string]int32{}}
}

// freeze makes the set ready for lookups, once every word is added.
func (s *fuzzySet) freeze() {
	slices.Sort(s.pairs)
	s.keys, s.starts, s.ids = s.keys[:0], s.starts[:0], make([]int32, 0, len(s.pairs))
	for j, p := range s.pairs {
		key, id := uint32(p>>32), int32(uint32(p))
		if j == 0 || key != s.keys[len(s.keys)-1] {
			s.keys = append(s.keys, key)
			s.starts = append(s.starts, int32(len(s.ids)))
		}
		s.ids = append(s.ids, id)
	}
	s.starts = append(s.starts, int32(len(s.ids)))
	s.pairs = nil
}

// holding returns the words that start with first and hold g.
func (s *fuzzySet) holding(first byte, g [2]byte) []int32 {
	i, ok := slices.BinarySearch(s.keys, gramKey(first, g))
	if !ok {
		return nil
	}
	return s.ids[s.starts[i]:s.starts[i+1]]
}

// minFuzzy is the length of the shortest word that may be a typo of
// another: shorter ones are too often real words a letter apart (cat,
// car; list, last).
const minFuzzy = 4

// maxFuzzy is the longest word compared.
const maxFuzzy = 32

// add puts a folded word into the set with what it means; a word added
// twice keeps both meanings.
func (s *fuzzySet) add(w string, means []weighted) {
	if len(w) < minFuzzy || len(w) > maxFuzzy || len(means) == 0 {
		return
	}
	if i, ok := s.index[w]; ok {
		for _, m := range means {
			s.means[i] = addMeaning(s.means[i], m.term, m.w)
		}
		return
	}
	i := int32(len(s.words))
	s.index[w] = i
	s.words = append(s.words, w)
	s.means = append(s.means, means)
	forGrams(w, func(g [2]byte) {
		s.pairs = append(s.pairs, uint64(gramKey(w[0], g))<<32|uint64(i))
	})
}

// gramKey is the key of a first letter and a pair of bytes.
func gramKey(first byte, g [2]byte) uint32 {
	return uint32(first)<<16 | uint32(g[0])<<8 | uint32(g[1])
}

// forGrams calls fn with each pair of bytes of ^w$, once per pair.
func forGrams(w string, fn func([2]byte)) {
	var seen [maxFuzzy + 1][2]byte
	n := 0
	prev := byte('^')
	for i := 0; i <= len(w); i++ {
		c := byte('$')
		if i < len(w) {
			c = w[i]
		}
		g := [2]byte{prev, c}
		dup := false
		for _, o := range seen[:n] {
			if o == g {
				dup = true
				break
			}
		}
		if !dup && n < len(seen) {
			seen[n] = g
			n++
			fn(g)
		}
		prev = c
	}
}

// maxEdits is how many edits a word of n bytes may be from the word it
// stands for: one for 4 to 7 letters, two for longer ones.
func maxEdits(n int) int {
	switch {
	case n < minFuzzy:
		return 0
	case n < 8:
		return 1
	}
	return 2
}

// lookup calls fn with the meaning of each word of the set nearest to w
// (a folded word not in the set), when one is within maxEdits of it and
// starts with the same letter (or the first two swapped). A four-letter
// word may only have two letters swapped (fiel, flie: file; but not last:
// list, nor fine: finde).
//
// shared is a scratch slice of zeros, one per word of the set, which it
// leaves zeroed; nil makes one.
func (s *fuzzySet) lookup(w string, shared []uint8, fn func([]weighted)) {
	k := maxEdits(len(w))
	if k == 0 || len(w) > maxFuzzy || len(s.words) == 0 {
		return
	}
	if len(shared) < len(s.words) {
		shared = make([]uint8, len(s.words))
	}
	var buf [64]int32
	touched := buf[:0]
	defer func() {
		for _, i := range touched {
			shared[i] = 0
		}
	}()
	grams := 0
	forGrams(w, func(g [2]byte) {
		grams++
		for _, first := range [2]byte{w[0], w[1]} {
			if first == w[1] && w[1] == w[0] {
				break
			}
			for _, i := range s.holding(first, g) {
				if shared[i] == 0 {
					touched = append(touched, i)
				}
				shared[i]++
			}
		}
	})
	// An edit breaks at most three of a word's pairs (a swap: ab in xaby
	// breaks xa, ab and by).
	need := grams - 3*k
	best, bestD := []int32(nil), k+1
	for _, i := range touched {
		c := s.words[i]
		if int(shared[i]) < need || abs(len(c)-len(w)) > k {
			continue
		}
		// People rarely miss a word's first letter but for swapping it
		// with the second; without this rule long words two edits apart
		// (translate, truncate) would match.
		if c[0] != w[0] && !(c[0] == w[1] && c[1] == w[0]) {
			continue
		}
		if len(w) == minFuzzy && !(len(c) == len(w) && isSwap(w, c)) {
			continue
		}
		d := editDistance(w, c, k)
		switch {
		case d > k:
		case d < bestD:
			best, bestD = append(best[:0], i), d
		case d == bestD:
			best = append(best, i)
		}
	}
	// A word as near to many words as to one says nothing.
	if len(best) == 0 || len(best) > 3 {
		return
	}
	for _, i := range best {
		fn(s.means[i])
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// isSwap reports whether b is a with two neighbouring letters swapped.
func isSwap(a, b string) bool {
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
}

// editDistance is the optimal string alignment distance of a and b (each
// insertion, deletion, substitution or swap of neighbours is one edit), or
// k+1 when it is more than k.
func editDistance(a, b string, k int) int {
	if abs(len(a)-len(b)) > k {
		return k + 1
	}
	// Three rows of the table: two back for a swap.
	var buf [3][maxFuzzy + 1]int
	prev2, prev, cur := &buf[0], &buf[1], &buf[2]
	for j := 0; j <= len(b); j++ {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d = min(d, prev2[j-2]+1)
			}
			cur[j] = d
			rowMin = min(rowMin, d)
		}
		if rowMin > k {
			return k + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(b)], k+1)
}
