// Package spell measures how far a name a person wrote is from the names
// that exist, so that a slip of the fingers (a config key, a model, a
// tool) gets "did you mean" instead of a bare "unknown".
package spell

import (
	"slices"
	"strings"
)

// Distance is the optimal string alignment distance between a and b, in
// runes: an insertion, a deletion, a substitution or a swap of two
// neighbours each count one, so "modle" is one edit from "model" (plain
// Levenshtein counts the swap as two).
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// Three rows suffice: a swap looks two rows back.
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// Nearest returns up to n of names, nearest first (ties in their given
// order), by a distance score gives; a name for which score reports false
// is too far to suggest.
func Nearest(names []string, n int, score func(name string) (int, bool)) []string {
	type scored struct {
		name string
		d    int
	}
	var near []scored
	for _, name := range names {
		if d, ok := score(name); ok {
			near = append(near, scored{name, d})
		}
	}
	slices.SortStableFunc(near, func(a, b scored) int { return a.d - b.d })
	out := make([]string, 0, min(n, len(near)))
	for _, s := range near[:min(n, len(near))] {
		out = append(out, s.name)
	}
	return out
}

// FoldKey folds the spellings of a key (camelCase, snake_case,
// kebab-case) into one, so that mcpServers and mcp-servers, or
// allowed_directories and allowedDirectories, are the same key wherever
// mcphost reads one.
func FoldKey(k string) string {
	return strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(k))
}
