package toolselect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// loadDocs reads the tool definitions of testdata/servers, named
// server__tool as mcphost names them.
func loadDocs(t testing.TB) []Doc {
	t.Helper()
	files, err := filepath.Glob("testdata/servers/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no server definitions: %v", err)
	}
	var docs []Doc
	for _, f := range files {
		var v struct {
			Tools []struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				InputSchema json.RawMessage `json:"inputSchema"`
			} `json:"tools"`
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		server := strings.TrimSuffix(filepath.Base(f), ".json")
		for _, tl := range v.Tools {
			docs = append(docs, Doc{Name: server + "__" + tl.Name, Server: server, Tool: tl.Name, Description: tl.Description, Schema: tl.InputSchema})
		}
	}
	return docs
}

func TestSplitWords(t *testing.T) {
	for in, want := range map[string]string{
		"read_text_file":            "read text file",
		"getFileInfo":               "get File Info",
		"HTTPServer":                "HTTP Server",
		"gzip-file-as-resource":     "gzip file as resource",
		"mcp-server-everything":     "mcp server everything",
		"base64Encode":              "base64 Encode",
		"list_directory_with_sizes": "list directory with sizes",
		"Größe.txt":                 "Größe txt",
		"  a,b;;c ":                 "a b c",
		"":                          "",
	} {
		var got []string
		splitWords(in, func(w string) { got = append(got, w) })
		if s := strings.Join(got, " "); s != want {
			t.Errorf("splitWords(%q) = %q, want %q", in, s, want)
		}
	}
}

func TestTermsFoldSynonymsAndStems(t *testing.T) {
	v := theVocabulary()
	for _, same := range [][]string{
		{"folder", "folders", "directory", "directories", "dir"},
		{"remove", "delete", "deleting", "erase"},
		{"files", "file"},
		{"rename", "move", "moving"},
		{"website", "URL", "web", "pages"},
	} {
		want := v.term(same[0])
		for _, w := range same[1:] {
			if got := v.term(w); got != want {
				t.Errorf("term(%q) = %q, term(%q) = %q: want the same", w, got, same[0], want)
			}
		}
	}
	for _, w := range []string{"the", "please", "42", "a", "tool"} {
		if got := v.term(w); got != "" {
			t.Errorf("term(%q) = %q, want nothing", w, got)
		}
	}
}

// TestRelatedWordsDoNotCollide guards the tables: two related words that
// fold into one term would silently merge their targets.
func TestRelatedWordsDoNotCollide(t *testing.T) {
	v := theVocabulary()
	seen := map[string]string{}
	for w := range relatedWords() {
		tm := v.term(w)
		if tm == "" {
			t.Errorf("related word %q is a stop word", w)
		}
		if o, ok := seen[tm]; ok {
			t.Errorf("related words %q and %q are both %q", w, o, tm)
		}
		seen[tm] = w
	}
}

func TestQuerySignals(t *testing.T) {
	for _, c := range []struct {
		word      string
		url, path bool
	}{
		{"https://go.dev/blog", true, false},
		{"example.com", true, false},
		{"www.example.org", true, false},
		{"pypi.org", true, false},
		{"README.md", false, true},
		{"go.mod", false, true},
		{"logs/server.log", false, true},
		{".gitignore", false, true},
		{"src/app/components", false, true},
		{"3.5", false, false},
		{"e.g", false, false},
		{"hello", false, false},
	} {
		if got := isURL(c.word); got != c.url {
			t.Errorf("isURL(%q) = %v", c.word, got)
		}
		if got := !c.url && isPath(c.word); got != c.path {
			t.Errorf("isPath(%q) = %v", c.word, got)
		}
	}
	q := NewQuery("Summarise https://api.github.com/repos/golang/go")
	if q.terms["url"] != 1 || q.terms["go"] != 0 || q.terms["github"] != 0 {
		t.Errorf("a URL should add url and none of its words: %v", q.terms)
	}
	if !NewQuery("the of and").Empty() || NewQuery("read").Empty() {
		t.Error("Empty is wrong")
	}
}

// TestRankPutsTheFittingToolFirst checks, on the real definitions, what
// each part of the ranking is for.
func TestRankPutsTheFittingToolFirst(t *testing.T) {
	docs := loadDocs(t)
	ix := NewIndex(docs)
	for _, c := range []struct{ request, want string }{
		{"rename draft.txt to final.txt", "move_file"},         // synonyms: rename is move
		{"make a new folder called build", "create_directory"}, // folder is directory, make is create
		{"summarise example.com for me", "fetch__fetch"},       // a domain means a web page
		{"what does git status say?", "bash__run"},             // a shell program means a command
		{"what is 1234 plus 5678?", "everything__get-sum"},     // plus is sum
		{"toggle the simulated logging", "everything__toggle-simulated-logging"},
		{"search the knowledge graph for Bob", "memory__search_nodes"},
	} {
		hits := ix.Rank(NewQuery(c.request))
		if top := docs[hits[0].Doc].Name; !strings.HasSuffix(top, c.want) || hits[0].Score <= 0 {
			t.Errorf("%q: first is %s (%.2f), want %s", c.request, top, hits[0].Score, c.want)
		}
	}
}

// TestToolsThatMatchNothingComeByServer checks the order of the tools a
// request does not match: with nothing matched, every server's first
// tool, then every server's second, and so on, each in the list's order;
// after matches, the other tools of the servers that matched first.
func TestToolsThatMatchNothingComeByServer(t *testing.T) {
	docs := loadDocs(t)
	ix := NewIndex(docs)
	var servers []string
	for _, d := range docs {
		if !slices.Contains(servers, d.Server) {
			servers = append(servers, d.Server)
		}
	}
	hits := ix.Rank(NewQuery("zzz qqq"))
	var want []int
	for round := 0; len(want) < len(docs); round++ {
		for _, s := range servers {
			n := 0
			for i, d := range docs {
				if d.Server == s {
					if n == round {
						want = append(want, i)
					}
					n++
				}
			}
		}
	}
	for k, h := range hits {
		if h.Score != 0 || h.Doc != want[k] {
			t.Fatalf("a request that matches nothing: at %d, %s (%.2f), want %s with no score", k, docs[h.Doc].Name, h.Score, docs[want[k]].Name)
		}
	}
	// Only some memory tools match "observations"; the others of its
	// server come before any other server's tools that match nothing.
	request := "the observations of Bea"
	hits = ix.Rank(NewQuery(request))
	matched, k := 0, 0
	for ; k < len(hits) && hits[k].Score > 0; k++ {
		if docs[hits[k].Doc].Server == "memory" {
			matched++
		}
	}
	if matched == 0 || matched >= 9 {
		t.Fatalf("%d memory tools match %q: the test proves nothing", matched, request)
	}
	for end := k + 9 - matched; k < end; k++ {
		if s := docs[hits[k].Doc].Server; s != "memory" {
			t.Errorf("%q: at %d, %s: want the memory server's other tools first", request, k, docs[hits[k].Doc].Name)
		}
	}
}

// TestTwinsMakeRoomForOtherTools checks that of two servers' tools that do
// the same thing, the second ranks below the other tools that match.
func TestTwinsMakeRoomForOtherTools(t *testing.T) {
	docs := loadDocs(t)
	ix := NewIndex(docs)
	for _, request := range []string{"move the file a.txt into the folder old", "list the directory src", "search for files named config"} {
		hits := ix.Rank(NewQuery(request))
		first, second := docs[hits[0].Doc], docs[hits[1].Doc]
		if first.Tool == second.Tool {
			t.Errorf("%q: first %s, second its twin %s", request, first.Name, second.Name)
		}
	}
}

// TestFileNamesSayWhichFile checks that the words of a file's name count
// less than what the request asks to do with it.
func TestFileNamesSayWhichFile(t *testing.T) {
	docs := loadDocs(t)
	ix := NewIndex(docs)
	for request, want := range map[string]string{
		"rename notes.txt to final.txt":           "move_file",
		"read relations/observations.md":          "read",
		"move build/logs.txt into the old folder": "move_file",
		"look at screenshots/bug.png":             "read_media_file",
	} {
		if got := docs[ix.Rank(NewQuery(request))[0].Doc].Name; !strings.Contains(got, want) {
			t.Errorf("%q: first %s, want %s", request, got, want)
		}
	}
}

func TestNamed(t *testing.T) {
	docs := loadDocs(t)
	ix := NewIndex(docs)
	names := func(text string) []string {
		var out []string
		for _, d := range ix.Named(text) {
			out = append(out, docs[d].Name)
		}
		slices.Sort(out)
		return out
	}
	for text, want := range map[string][]string{
		"use memory__read_graph, then answer":    {"memory__read_graph"},
		"call Everything__Get-Sum with 2 and 3.": {"everything__get-sum"},
		"run read_text_file on go.mod":           {"filesystem__read_text_file"},
		"read_file please":                       {"filesystem__read_file", "fs__read_file"},
		"echo hello":                             nil, // a plain word is not a name
		"call `echo` with hello":                 {"everything__echo"},
		"get-sum":                                {"everything__get-sum"},
		"":                                       nil,
	} {
		if got := names(text); !slices.Equal(got, want) {
			t.Errorf("Named(%q) = %q, want %q", text, got, want)
		}
	}
}

type countingEmbedder struct {
	calls [][]string
	fail  error
}

func (e *countingEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	e.calls = append(e.calls, texts)
	if e.fail != nil {
		return nil, e.fail
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = []float32{float32(len(t)), 1}
	}
	return out, nil
}

func TestCacheEmbedsEachTextOnce(t *testing.T) {
	e := &countingEmbedder{}
	c := NewCache(e)
	ctx := context.Background()
	if _, err := c.Embed(ctx, []string{"a", "bb"}); err != nil {
		t.Fatal(err)
	}
	vecs, err := c.Embed(ctx, []string{"bb", "ccc", "a"})
	if err != nil {
		t.Fatal(err)
	}
	if len(e.calls) != 2 || !slices.Equal(e.calls[1], []string{"ccc"}) {
		t.Errorf("embedder asked %q, want the new text alone the second time", e.calls)
	}
	if vecs[0][0] != 2 || vecs[1][0] != 3 || vecs[2][0] != 1 {
		t.Errorf("vectors out of order: %v", vecs)
	}
	e.fail = errors.New("model not found")
	if _, err := c.Embed(ctx, []string{"dddd"}); err == nil {
		t.Error("an embedder's error must come back")
	}
	short := EmbedFunc(func(context.Context, []string) ([][]float32, error) { return [][]float32{{1}}, nil })
	if _, err := NewCache(short).Embed(ctx, []string{"x", "y"}); err == nil {
		t.Error("too few vectors must be an error")
	}
}

func TestFuseRanksByMeaningWhenWordsMiss(t *testing.T) {
	lexical := []Hit{{Doc: 2, Score: 3}, {Doc: 0, Score: 0}, {Doc: 1, Score: 0}}
	sims := Similarities([]float32{1, 0}, [][]float32{{0, 1}, {1, 0.1}, {0.5, 0.5}})
	if !(sims[1] > sims[2] && sims[2] > sims[0]) {
		t.Fatalf("similarities %v", sims)
	}
	fused := Fuse(lexical, sims)
	var order []int
	for _, h := range fused {
		order = append(order, h.Doc)
	}
	// Doc 2 is first in words and second in meaning; doc 1 first in
	// meaning alone; doc 0 last in both.
	if !slices.Equal(order, []int{2, 1, 0}) {
		t.Errorf("fused order %v", order)
	}
	if got := Similarities([]float32{1, 0}, [][]float32{{1}, nil}); got[0] != 0 || got[1] != 0 {
		t.Errorf("vectors of the wrong length must score 0: %v", got)
	}
}

func ExampleIndex_Rank() {
	ix := NewIndex([]Doc{
		{Name: "files__move_file", Server: "files", Tool: "move_file", Description: "Move a file or directory."},
		{Name: "files__read_file", Server: "files", Tool: "read_file", Description: "Read a text file."},
		{Name: "web__fetch", Server: "web", Tool: "fetch", Description: "Fetch a URL."},
	})
	for _, h := range ix.Rank(NewQuery("rename notes.txt to todo.txt")) {
		fmt.Printf("%d %.2f\n", h.Doc, h.Score)
	}
	// Output:
	// 0 2.43
	// 1 0.82
	// 2 0.00
}
