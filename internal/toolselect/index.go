package toolselect

import (
	"cmp"
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strings"
)

// Doc is one tool as the ranking reads it.
type Doc struct {
	// Name is the name the model sees (server__tool).
	Name string
	// Server is the tool's server; Tool the server's own name for it.
	Server, Tool string
	Description  string
	// Schema is the tool's input schema, for its arguments' names and
	// descriptions; it may be empty or unreadable.
	Schema json.RawMessage
}

// Hit is one tool of a ranking: its position in the list the Index was
// built from, and its score (0: nothing in the request matched it).
type Hit struct {
	Doc   int
	Score float64
}

// BM25 parameters: the usual ones, which also suit short documents.
const (
	k1 = 1.2
	b  = 0.75
)

// The fields of a tool and their weights: a word of its name says more
// about what it does than a word of its description.
const (
	fieldName = iota
	fieldServer
	fieldDescription
	fieldArgName
	fieldArgText
	numFields
)

var fieldWeights = [numFields]float64{
	fieldName:        3,
	fieldServer:      1,
	fieldDescription: 1,
	fieldArgName:     1.5,
	fieldArgText:     0.5,
}

// maxDescription bounds the description read, as the model is sent at
// most about this much of it.
const maxDescription = 1024

type posting struct {
	doc    int32
	weight float32
}

// Index ranks one list of tools. It is built once per list and is safe for
// concurrent use.
type Index struct {
	n        int
	postings map[string][]posting
	// exposed maps the lower-case exposed names to their tool; own the
	// lower-case own names (several servers may have one) and whether
	// each is distinctive enough to count when written bare.
	exposed map[string]int
	own     map[string][]int
	plain   map[string]bool
	texts   []string
	// fuzzy holds the tools' words, for the misspellings of them.
	fuzzy *fuzzySet
	// server is each tool's server, numbered in the order they come, and
	// byServer each server's tools in the list's order; twin is the group
	// of tools of other servers that do the same thing (the same words in
	// their own names: fs__read_file, filesystem__read_file), -1 for none.
	server   []int32
	byServer [][]int
	twin     []int32
	twins    int
}

// NewIndex builds the index of docs.
func NewIndex(docs []Doc) *Index {
	v := theVocabulary()
	ix := &Index{
		n:        len(docs),
		postings: map[string][]posting{},
		exposed:  make(map[string]int, len(docs)),
		own:      make(map[string][]int, len(docs)),
		plain:    map[string]bool{},
		texts:    make([]string, len(docs)),
		fuzzy:    newFuzzySet(),
		server:   make([]int32, len(docs)),
		twin:     make([]int32, len(docs)),
	}
	servers := map[string]int32{}
	// The tools by the words of their own names, to find twins.
	byName := map[string][]int{}
	nameKeys := make([]string, len(docs))
	// Words repeat across tools: each is analysed once.
	memo := map[string]string{}
	var seen []string // memo's words in the order first seen
	term := func(w string) string {
		t, ok := memo[w]
		if !ok {
			t = v.term(w)
			memo[w] = t
			seen = append(seen, w)
		}
		return t
	}
	// One map per tool, of each term's count in each field.
	type counts struct {
		tf  map[string]*[numFields]int32
		len [numFields]int
	}
	all := make([]counts, len(docs))
	var total [numFields]int
	for i, d := range docs {
		c := &all[i]
		c.tf = make(map[string]*[numFields]int32, 32)
		add := func(f int, text string) {
			splitWords(text, func(w string) {
				t := term(w)
				if t == "" {
					return
				}
				n := c.tf[t]
				if n == nil {
					n = new([numFields]int32)
					c.tf[t] = n
				}
				n[f]++
				c.len[f]++
			})
		}
		desc := d.Description
		if len(desc) > maxDescription {
			desc = desc[:maxDescription]
		}
		add(fieldName, d.Tool)
		nameKeys[i] = nameKey(c.tf)
		add(fieldServer, d.Server)
		add(fieldDescription, desc)
		argNames, argText := schemaWords(d.Schema)
		add(fieldArgName, argNames)
		add(fieldArgText, argText)
		for f := range numFields {
			total[f] += c.len[f]
		}
		ix.exposed[strings.ToLower(d.Name)] = i
		own := strings.ToLower(d.Tool)
		ix.own[own] = append(ix.own[own], i)
		ix.plain[own] = isPlainWord(d.Tool)
		ix.texts[i] = embedText(d, desc, argNames)
		sv, ok := servers[d.Server]
		if !ok {
			sv = int32(len(servers))
			servers[d.Server] = sv
			ix.byServer = append(ix.byServer, nil)
		}
		ix.server[i] = sv
		ix.byServer[sv] = append(ix.byServer[sv], i)
		if nameKeys[i] != "" {
			byName[nameKeys[i]] = append(byName[nameKeys[i]], i)
		}
	}
	for i := range ix.twin {
		ix.twin[i] = -1
	}
	// In the order of the list, so that groups are numbered the same on
	// every build.
	for i := range docs {
		group := byName[nameKeys[i]]
		if len(group) < 2 || ix.twin[i] >= 0 {
			continue
		}
		for _, j := range group {
			ix.twin[j] = int32(ix.twins)
		}
		ix.twins++
	}
	// The tools' words, in the order they come so that an index is the
	// same on every build.
	for _, w := range seen {
		f := fold(w)
		if _, inTables := v.fuzzy.index[f]; memo[w] != "" && !inTables {
			ix.fuzzy.add(f, []weighted{{memo[w], 1}})
		}
	}
	ix.fuzzy.freeze()
	var avg [numFields]float64
	for f := range numFields {
		if len(docs) > 0 {
			avg[f] = float64(total[f]) / float64(len(docs))
		}
	}
	df := map[string]int{}
	for i := range all {
		for t := range all[i].tf {
			df[t]++
		}
	}
	// BM25F: each field's counts normalised by its length, weighted, added
	// up, then saturated once per term.
	for i := range all {
		var norm [numFields]float64
		for f := range numFields {
			if all[i].len[f] > 0 {
				norm[f] = fieldWeights[f] / (1 - b + b*float64(all[i].len[f])/avg[f])
			}
		}
		for t, n := range all[i].tf {
			tf := 0.0
			for f := range numFields {
				tf += float64(n[f]) * norm[f]
			}
			idf := math.Log(1 + (float64(ix.n)-float64(df[t])+0.5)/(float64(df[t])+0.5))
			ix.postings[t] = append(ix.postings[t], posting{doc: int32(i), weight: float32(idf * tf * (k1 + 1) / (tf + k1))})
		}
	}
	return ix
}

// nameKey is the terms of a tool's own name, sorted, from its counts
// while they hold its name's words alone: the same for two tools that do
// the same thing on two servers.
func nameKey[T any](tf map[string]T) string {
	return strings.Join(slices.Sorted(maps.Keys(tf)), " ")
}

// Len is the number of tools.
func (ix *Index) Len() int { return ix.n }

// Rank returns every tool, the best match for q first. Of tools of
// several servers that do the same thing (twins: fs__read_file and
// filesystem__read_file), the best one counts in full and the others at
// twinWeight, so that a short list holds different tools rather than
// copies. The tools that match nothing come after, those of the servers
// whose tools matched best first (a request about one server's work may
// need any of its tools), the others one from each server in turn, in
// each server's order: with nothing to go on, every server has its first
// tools offered. Tools that tie keep the order of the list.
func (ix *Index) Rank(q *Query) []Hit {
	hits := make([]Hit, ix.n)
	for i := range hits {
		hits[i].Doc = i
	}
	if q != nil {
		for t, w := range q.terms {
			ix.score(hits, t, w)
		}
		for t, w := range ix.misspelt(q) {
			ix.score(hits, t, w)
		}
		for _, iw := range q.inflected {
			if _, own := ix.postings[iw.term]; own {
				continue // a tool's own word (start) means itself
			}
			for _, m := range iw.means {
				if _, exact := q.terms[m.term]; !exact {
					ix.score(hits, m.term, iw.weight*m.w)
				}
			}
		}
	}
	if ix.twins > 0 {
		best := make([]int32, ix.twins)
		for i := range best {
			best[i] = -1
		}
		for i, h := range hits {
			if g := ix.twin[i]; g >= 0 && h.Score > 0 && (best[g] < 0 || h.Score > hits[best[g]].Score) {
				best[g] = int32(i)
			}
		}
		for i := range hits {
			if g := ix.twin[i]; g >= 0 && best[g] >= 0 && best[g] != int32(i) {
				hits[i].Score *= twinWeight
			}
		}
	}
	// The tools that scored first, best first: as a stable sort by score,
	// but quicker, as most tools score nothing and a sort of plain
	// numbers needs no calls. A key is the score's bits inverted (for a
	// positive float32, its bits order as it does), then the tool's
	// position, for ties.
	keys := make([]uint64, 0, len(hits))
	for _, h := range hits {
		if h.Score > 0 {
			keys = append(keys, uint64(^math.Float32bits(float32(h.Score)))<<32|uint64(h.Doc))
		}
	}
	slices.Sort(keys)
	out := make([]Hit, 0, len(hits))
	for _, k := range keys {
		out = append(out, hits[uint32(k)])
	}
	// Then the servers that matched, best first, each with its tools
	// that did not, in its order; then the others' tools, a round at a
	// time.
	best := make([]float64, len(ix.byServer))
	for _, h := range out {
		best[ix.server[h.Doc]] = max(best[ix.server[h.Doc]], h.Score)
	}
	var matched, others []int
	for s := range ix.byServer {
		if best[s] > 0 {
			matched = append(matched, s)
		} else {
			others = append(others, s)
		}
	}
	slices.SortStableFunc(matched, func(a, b int) int { return cmp.Compare(best[b], best[a]) })
	for _, s := range matched {
		for _, d := range ix.byServer[s] {
			if hits[d].Score <= 0 {
				out = append(out, hits[d])
			}
		}
	}
	for round := 0; len(others) > 0; round++ {
		left := others[:0]
		for _, s := range others {
			if tools := ix.byServer[s]; round < len(tools) {
				out = append(out, hits[tools[round]])
				if round+1 < len(tools) {
					left = append(left, s)
				}
			}
		}
		others = left
	}
	return out
}

// twinWeight is what a tool counts for when a tool of another server that
// does the same thing matches better.
const twinWeight = 0.5

func (ix *Index) score(hits []Hit, t string, w float64) {
	for _, p := range ix.postings[t] {
		hits[p.doc].Score += w * float64(p.weight)
	}
}

// misspelt returns the terms that q's words that match no tool are
// misspellings of, weighted below the words themselves: those of the
// tools' words and of the tables' words (fodler: folder, carpta: carpeta)
// nearest to each.
func (ix *Index) misspelt(q *Query) map[string]float64 {
	var out map[string]float64
	v := theVocabulary()
	var ixShared, vShared []uint8
	for _, lw := range q.loose {
		if _, ok := ix.postings[lw.term]; ok {
			continue
		}
		add := func(means []weighted) {
			for _, m := range means {
				if _, exact := q.terms[m.term]; exact {
					continue
				}
				if out == nil {
					out = map[string]float64{}
				}
				out[m.term] = min(out[m.term]+lw.weight*m.w*fuzzyWeight, maxTermWeight*fuzzyWeight)
			}
		}
		if ixShared == nil {
			ixShared, vShared = make([]uint8, len(ix.fuzzy.words)), make([]uint8, len(v.fuzzy.words))
		}
		ix.fuzzy.lookup(lw.word, ixShared, add)
		v.fuzzy.lookup(lw.word, vShared, add)
	}
	return out
}

// Named returns the tools that text names outright, in the order it names
// them: by the name the model sees (server__tool), or by the tool's own
// name (every server's tool of that name) when that cannot be an ordinary
// word (it holds _, - or . or a capital after its first letter:
// read_text_file, get-sum, getUser) or is written in backticks (`echo`).
func (ix *Index) Named(text string) []int {
	var out []int
	seen := map[int]bool{}
	add := func(docs ...int) {
		for _, d := range docs {
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
			}
		}
	}
	start := -1
	for i := 0; i <= len(text); i++ {
		c := byte(' ')
		if i < len(text) {
			c = text[i]
		}
		if isNameByte(c) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			word := strings.TrimRight(text[start:i], ".-")
			quoted := c == '`' && start > 0 && text[start-1] == '`'
			lower := strings.ToLower(word)
			if d, ok := ix.exposed[lower]; ok {
				add(d)
			} else if docs, ok := ix.own[lower]; ok && (quoted || !ix.plain[lower]) {
				add(docs...)
			}
			start = -1
		}
	}
	return out
}

// isNameByte reports whether c may be part of a tool's name.
func isNameByte(c byte) bool {
	return c >= 0x80 || c == '_' || c == '-' || c == '.' ||
		('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// isPlainWord reports whether a tool's own name could be an ordinary word
// of a request: letters only, capitalised at most at the start.
func isPlainWord(name string) bool {
	for i, r := range name {
		switch {
		case 'a' <= r && r <= 'z':
		case 'A' <= r && r <= 'Z' && i == 0:
		default:
			return false
		}
	}
	return name != ""
}

// schemaWords returns the argument names of a schema, and the words that
// describe them (descriptions, allowed values), looking into nested
// objects and arrays a few levels down.
func schemaWords(raw json.RawMessage) (names, text string) {
	if len(raw) == 0 {
		return "", ""
	}
	var schema map[string]any
	if json.Unmarshal(raw, &schema) != nil {
		return "", ""
	}
	var nb, tb strings.Builder
	var walk func(s map[string]any, depth int)
	walk = func(s map[string]any, depth int) {
		if depth > 3 {
			return
		}
		if props, ok := s["properties"].(map[string]any); ok {
			// Sorted, so that a tool's text is the same on every build.
			for _, name := range slices.Sorted(maps.Keys(props)) {
				p := props[name]
				nb.WriteString(name)
				nb.WriteByte(' ')
				ps, ok := p.(map[string]any)
				if !ok {
					continue
				}
				if d, ok := ps["description"].(string); ok {
					tb.WriteString(d)
					tb.WriteByte(' ')
				}
				if enum, ok := ps["enum"].([]any); ok {
					for _, e := range enum {
						if s, ok := e.(string); ok {
							tb.WriteString(s)
							tb.WriteByte(' ')
						}
					}
				}
				walk(ps, depth+1)
			}
		}
		if items, ok := s["items"].(map[string]any); ok {
			walk(items, depth+1)
		}
	}
	walk(schema, 0)
	return nb.String(), tb.String()
}

// embedText is what an embedding model is given of a tool: its names in
// words, its description and its arguments.
func embedText(d Doc, desc, argNames string) string {
	var sb strings.Builder
	splitWords(d.Tool, func(w string) { sb.WriteString(w); sb.WriteByte(' ') })
	sb.WriteString("(")
	sb.WriteString(d.Server)
	sb.WriteString("): ")
	sb.WriteString(desc)
	if argNames != "" {
		sb.WriteString(" Arguments: ")
		sb.WriteString(argNames)
	}
	return sb.String()
}

// sortByScore orders hits best first, keeping the order of equal scores.
func sortByScore(hits []Hit) {
	slices.SortStableFunc(hits, func(a, b Hit) int { return cmp.Compare(b.Score, a.Score) })
}
