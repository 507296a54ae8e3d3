package toolselect

import (
	"fmt"
	"testing"
)

// manyDocs repeats the test catalogue under other server names.
func manyDocs(t testing.TB, copies int) []Doc {
	base := loadDocs(t)
	var docs []Doc
	for c := 1; c <= copies; c++ {
		for _, d := range base {
			if c > 1 {
				d.Server += fmt.Sprint(c)
				d.Name = d.Server + "__" + d.Tool
			}
			docs = append(docs, d)
		}
	}
	return docs
}

func BenchmarkNewIndex(b *testing.B) {
	for _, copies := range []int{1, 7} {
		docs := manyDocs(b, copies)
		b.Run(fmt.Sprintf("%d-tools", len(docs)), func(b *testing.B) {
			for b.Loop() {
				NewIndex(docs)
			}
		})
	}
}

// BenchmarkRank times reading a request and ranking the tools for it: an
// English request, and one in Spanish with typos (its misspelt words
// looked up among the tools' and the tables' words).
func BenchmarkRank(b *testing.B) {
	for _, copies := range []int{1, 7} {
		docs := manyDocs(b, copies)
		ix := NewIndex(docs)
		for _, c := range []struct{ name, request string }{
			{"", "Read main.go, util.go and config.go and compare how they handle errors"},
			{"-typos-es", "Muéstrame el contendio de la carpta assets y borra el fihcero viejo.txt, pofavor"},
		} {
			b.Run(fmt.Sprintf("%d-tools%s", len(docs), c.name), func(b *testing.B) {
				for b.Loop() {
					ix.Rank(NewQuery(c.request))
					ix.Named(c.request)
				}
			})
		}
	}
}

// BenchmarkVocabulary times reading the tables (synonyms, related words,
// words.txt), which a process does once, at its first ranking.
func BenchmarkVocabulary(b *testing.B) {
	for b.Loop() {
		newVocabulary()
	}
}
