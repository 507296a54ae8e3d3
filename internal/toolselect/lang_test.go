package toolselect

import (
	"slices"
	"strings"
	"testing"
)

// top returns the names of the first n tools ix ranks for request, those
// that scored.
func top(ix *Index, docs []Doc, request string, n int) []string {
	var out []string
	for _, h := range ix.Rank(NewQuery(request))[:n] {
		if h.Score > 0 {
			out = append(out, docs[h.Doc].Name)
		}
	}
	return out
}

// TestOtherLanguagesFindTheEnglishTools checks that a request in Spanish,
// German, French, Portuguese or Italian (accents or not, inflected,
// German compounds) puts first the tool its English version puts first.
func TestOtherLanguagesFindTheEnglishTools(t *testing.T) {
	docs := loadDocs(t)
	ix := NewIndex(docs)
	for _, c := range []struct {
		english string
		others  []string
	}{
		{"List the files in the folder src", []string{
			"Lista los archivos de la carpeta src", "Liste die Dateien im Ordner src auf",
			"Liste les fichiers du dossier src", "Liste os arquivos da pasta src", "Elenca i file nella cartella src"}},
		{"Create a new directory called reports", []string{
			"Crea una carpeta nueva llamada reports", "Erstelle ein neues Verzeichnis namens reports",
			"Crée un nouveau répertoire appelé reports", "Crie uma pasta nova chamada reports", "Crea una nuova cartella chiamata reports"}},
		{"Delete the entity Zeus from the knowledge graph", []string{
			"Borra la entidad Zeus del grafo de conocimiento", "Lösche die Entität Zeus aus dem Wissensgraphen",
			"Supprime l'entité Zeus du graphe de connaissances", "Apague a entidade Zeus do grafo de conhecimento",
			"Elimina l'entità Zeus dal grafo della conoscenza"}},
		{"Search the knowledge graph for Bob", []string{
			"Busca a Bob en el grafo de conocimiento", "Suche Bob im Wissensgraphen", "Cherche Bob dans le graphe de connaissances",
			"Procure o Bob no grafo de conhecimento", "Cerca Bob nel grafo della conoscenza"}},
		{"Show me the directory listing of assets", []string{
			"Gib mir die Ordnerinhalt von assets", "Zeig mir die Dateiliste von assets"}},
		{"Rename draft.txt to final.txt", []string{
			"Renombra draft.txt a final.txt", "Benenne draft.txt in final.txt um", "Renomme draft.txt en final.txt",
			"Renomeie draft.txt para final.txt", "Rinomina draft.txt in final.txt", "RENOMMÉ draft.txt", "renomme draft.txt"}},
	} {
		want := top(ix, docs, c.english, 1)
		if len(want) == 0 {
			t.Fatalf("%q matches nothing", c.english)
		}
		// The same tool, or its twin on another server (fs__read_file,
		// filesystem__read_file).
		_, own, _ := strings.Cut(want[0], "__")
		for _, other := range c.others {
			if got := top(ix, docs, other, 3); !slices.ContainsFunc(got, func(s string) bool { return strings.HasSuffix(s, "__"+own) }) {
				t.Errorf("%q: first three %q, want %s as for %q", other, got, own, c.english)
			}
		}
	}
}

// TestTyposFindTheTool checks misspelt words of tools and of the tables.
func TestTyposFindTheTool(t *testing.T) {
	docs := loadDocs(t)
	ix := NewIndex(docs)
	for request, want := range map[string]string{
		"crete a direcotry called build":          "create_directory",
		"renmae the fiel a.txt to b.txt":          "move_file",
		"delte the entitiy Zeus":                  "delete_entities",
		"serach the knowlege graph for Bob":       "search_nodes",
		"toggle the simulted loging":              "toggle-simulated-logging",
		"mostar el contendio de la carpta assets": "list_directory",
	} {
		if got := top(ix, docs, request, 3); !slices.ContainsFunc(got, func(s string) bool { return strings.HasSuffix(s, want) }) {
			t.Errorf("%q: first three %q, want %s", request, got, want)
		}
	}
	// A misspelling counts less than the word itself.
	exact := ix.Rank(NewQuery("toggle logging"))[0].Score
	typo := ix.Rank(NewQuery("toggle loggnig"))[0].Score
	if !(typo < exact) {
		t.Errorf("a misspelt word scores %.2f, the word itself %.2f", typo, exact)
	}
}

// TestEverydayPhrases checks that what people say for what tools do finds
// them.
func TestEverydayPhrases(t *testing.T) {
	docs := loadDocs(t)
	ix := NewIndex(docs)
	for request, servers := range map[string]string{
		"Keep in mind that Ann prefers tea":         "memory__",
		"Don't forget: the deploy key rotates soon": "memory__",
		"Save this for later: the door code is 42":  "memory__",
		"No olvides que Ana prefiere té":            "memory__",
		"Vergiss nicht, dass Anna Tee mag":          "memory__",
		"N'oublie pas que Anne aime le thé":         "memory__",
		"Não esqueça que a Ana gosta de chá":        "memory__",
		"Non dimenticare che Anna ama il tè":        "memory__",
		"What's inside the assets folder?":          "list_directory",
		"Look up the Go release notes":              "fetch__fetch",
	} {
		if got := top(ix, docs, request, 3); !slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, servers) }) {
			t.Errorf("%q: first three %q, want %s", request, got, servers)
		}
	}
	// Forgetting is not not forgetting.
	if got := top(ix, docs, "Vergiss alles über Zeus", 1); len(got) == 0 || !strings.HasPrefix(got[0], "memory__delete") {
		t.Errorf("Vergiss alles über Zeus: first %q, want a memory deletion", got)
	}
}

// TestNoFalseMatches checks that the tables and misspellings do not make
// ordinary words, or requests that need no tool, match tools.
func TestNoFalseMatches(t *testing.T) {
	docs := loadDocs(t)
	ix := NewIndex(docs)
	// Real words a letter or two from tools' words are not misspellings
	// of them; nor is any word of three letters.
	for _, w := range []string{"last", "mind", "kind", "lost", "fine", "mile", "translate", "morning", "france", "today", "lst", "fle", "cta"} {
		q := NewQuery(w)
		if m := ix.misspelt(q); len(m) > 0 {
			t.Errorf("%q is read as a misspelling of %v", w, m)
		}
	}
	for _, request := range []string{
		"What's the capital of France?", "Hi, how are you today?", "Translate 'good morning' into Japanese",
		"¿Cómo estás hoy?", "Wie geht es dir?", "Raconte-moi une blague",
		"Qual é a capital do Brasil?", "Come stai oggi?",
		"Explícame la teoría de la relatividad", "Qu'est-ce que la photosynthèse ?", "Erkläre mir die Relativitätstheorie",
		"Spiegami la fotosintesi", "Me explique a fotossíntese", "What range of prices is normal for a used bike?",
	} {
		if got := top(ix, docs, request, 3); len(got) > 0 {
			t.Errorf("%q needs no tool, but ranks %q", request, got)
		}
	}
}

func TestFoldAndEditDistance(t *testing.T) {
	for in, want := range map[string]string{"Größe": "grosse", "RÉPERTOIRE": "repertoire", "conteúdo": "conteudo", "Entità": "entita", "plain": "plain"} {
		if got := fold(in); got != want {
			t.Errorf("fold(%q) = %q, want %q", in, got, want)
		}
	}
	for _, c := range []struct {
		a, b string
		d    int
	}{{"file", "fiel", 1}, {"directory", "direcotry", 1}, {"folder", "fodler", 1}, {"delete", "delte", 1}, {"abc", "abc", 0}, {"search", "serach", 1}, {"kitten", "sitting", 3}} {
		if got := editDistance(c.a, c.b, 2); got != min(c.d, 3) {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, min(c.d, 3))
		}
	}
}

// TestTableIsConsistent guards words.txt: every line is read, and no word
// is given two meanings.
func TestTableIsConsistent(t *testing.T) {
	v := theVocabulary()
	seen := map[string]string{}
	for line := range strings.Lines(wordsTable) {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		head, items, ok := strings.Cut(line, ":")
		if !ok {
			t.Errorf("words.txt: %q has no colon", line)
			continue
		}
		if head == "compound" {
			continue
		}
		for _, target := range strings.Fields(head) {
			if head != "-" && v.term(target) == "" {
				t.Errorf("words.txt: target %q is a stop word", target)
			}
		}
		for _, item := range strings.Split(items, ",") {
			item = strings.Join(strings.Fields(fold(item)), " ")
			if o, ok := seen[item]; ok && o != head {
				t.Errorf("words.txt: %q means both %q and %q", item, o, head)
			}
			seen[item] = head
		}
	}
	if len(v.words) < 500 || len(v.phrases) < 30 {
		t.Errorf("words.txt read %d words and %d phrases: too few", len(v.words), len(v.phrases))
	}
}

// TestInflectionsTheTableDoesNotList checks that a form of a table's word
// that the table does not list (and that is more than a typo away from
// every listed form) is read as that word, by its Spanish or French stem,
// and that a tool's own word is not read as a foreign one.
func TestInflectionsTheTableDoesNotList(t *testing.T) {
	docs := loadDocs(t)
	ix := NewIndex(docs)
	v := theVocabulary()
	for _, c := range []struct{ request, form, want string }{
		{"renombrarlos: a.txt y b.txt a viejo/", "renombrarlos", "move_file"},
		{"téléchargerons la page exemple.fr", "telechargerons", "fetch__fetch"},
		{"sigue eliminándolas del grafo, las entidades Zeus y Hera", "eliminandolas", "delete_entities"},
		{"supprimerons les entités Zeus et Hera", "supprimerons", "delete_entities"},
	} {
		if _, listed := v.words[c.form]; listed {
			t.Fatalf("%q is in the table: the test proves nothing", c.form)
		}
		if got := top(ix, docs, c.request, 1); len(got) == 0 || !strings.Contains(got[0], c.want) {
			t.Errorf("%q: first %q, want %s", c.request, got, c.want)
		}
	}
	// "start" is a word of a tool (trigger-long-running-operation's), not
	// German "starte" (run).
	if got := top(ix, docs, "start the long operation", 1); len(got) == 0 || got[0] == "bash__run" {
		t.Errorf("start the long operation: first %q", got)
	}
}
