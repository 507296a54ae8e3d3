package toolselect

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
)

// Embedder turns texts into vectors whose cosine similarity says how close
// their meanings are, one vector per text, in order: an embedding model
// (Ollama's /api/embed).
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// EmbedFunc is an Embedder in a function.
type EmbedFunc func(ctx context.Context, texts []string) ([][]float32, error)

// Embed calls f.
func (f EmbedFunc) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return f(ctx, texts)
}

// maxCached bounds a Cache; past it, it starts over.
const maxCached = 4096

// Cache is an Embedder that remembers the vector of every text it
// embedded, so that a tool list is embedded once however many
// conversations rank it. It is safe for concurrent use.
type Cache struct {
	e    Embedder
	mu   sync.Mutex
	vecs map[string][]float32
}

// NewCache returns a Cache in front of e.
func NewCache(e Embedder) *Cache { return &Cache{e: e, vecs: map[string][]float32{}} }

// Embed returns the vectors of texts, asking the embedder only for those it
// has not seen, in one request.
func (c *Cache) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var missing []string
	var at []int
	c.mu.Lock()
	for i, t := range texts {
		if v, ok := c.vecs[t]; ok {
			out[i] = v
		} else {
			missing, at = append(missing, t), append(at, i)
		}
	}
	c.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	vecs, err := c.e.Embed(ctx, missing)
	if err != nil {
		return nil, err
	}
	if len(vecs) != len(missing) {
		return nil, fmt.Errorf("asked for %d embeddings, got %d", len(missing), len(vecs))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.vecs)+len(missing) > maxCached {
		clear(c.vecs)
	}
	for j, i := range at {
		if len(vecs[j]) == 0 {
			return nil, fmt.Errorf("got an empty embedding for text %d", i+1)
		}
		out[i] = vecs[j]
		c.vecs[missing[j]] = vecs[j]
	}
	return out, nil
}

// Texts returns what an embedding model is given of each tool: its name in
// words, its server, its description and its arguments' names.
func (ix *Index) Texts() []string { return ix.texts }

// Similarities returns the cosine similarity of query to each of vecs (0
// for a vector of another length or of no length).
func Similarities(query []float32, vecs [][]float32) []float64 {
	out := make([]float64, len(vecs))
	qn := norm(query)
	for i, v := range vecs {
		if len(v) != len(query) || qn == 0 {
			continue
		}
		var dot float64
		for j := range v {
			dot += float64(v[j]) * float64(query[j])
		}
		if n := norm(v); n > 0 {
			out[i] = dot / (qn * n)
		}
	}
	return out
}

func norm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

// rrfK is reciprocal rank fusion's constant: ranks far down either list
// add little.
const rrfK = 60

// Fuse merges a lexical ranking with the embedding similarities of the same
// tools (by position in the list) by reciprocal rank fusion: each tool
// scores 1/(60+rank) in each order it is ranked in, tools that matched no
// word of the request being ranked by their meaning alone. Fusion is more
// robust than either order alone, and needs no tuning of how the two
// kinds of scores compare.
func Fuse(lexical []Hit, sims []float64) []Hit {
	fused := make([]Hit, len(lexical))
	byDoc := make(map[int]int, len(lexical))
	for rank, h := range lexical {
		fused[rank] = Hit{Doc: h.Doc}
		byDoc[h.Doc] = rank
		if h.Score > 0 {
			fused[rank].Score = 1 / float64(rrfK+rank+1)
		}
	}
	order := make([]int, len(sims))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case sims[a] > sims[b]:
			return -1
		case sims[a] < sims[b]:
			return 1
		}
		return 0
	})
	for rank, doc := range order {
		if r, ok := byDoc[doc]; ok {
			fused[r].Score += 1 / float64(rrfK+rank+1)
		}
	}
	sortByScore(fused)
	return fused
}
