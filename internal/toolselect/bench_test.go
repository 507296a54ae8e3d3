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

func BenchmarkRank(b *testing.B) {
	for _, copies := range []int{1, 7} {
		docs := manyDocs(b, copies)
		ix := NewIndex(docs)
		b.Run(fmt.Sprintf("%d-tools", len(docs)), func(b *testing.B) {
			for b.Loop() {
				q := NewQuery("Read main.go, util.go and config.go and compare how they handle errors")
				ix.Rank(q)
				ix.Named("Read main.go, util.go and config.go and compare how they handle errors")
			}
		})
	}
}
