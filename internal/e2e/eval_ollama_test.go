//go:build linux

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// createTemplatedModel creates a tiny model whose Modelfile is the
// generator's changed by edit: a template that makes the model behave as
// a kind of real model does.
func (o *realOllama) createTemplatedModel(name string, edit func(modelfile string) string, genFlags ...string) {
	o.t.Helper()
	o.createModel(name+"-src", genFlags...)
	dir := filepath.Join(o.work, name+"-src")
	path := filepath.Join(dir, "Modelfile")
	data, err := os.ReadFile(path)
	if err != nil {
		o.t.Fatal(err)
	}
	changed := edit(string(data))
	if changed == string(data) {
		o.t.Fatalf("the template edit for %s changed nothing: the generator's Modelfile is not as expected:\n%s", name, data)
	}
	if err := os.WriteFile(path, []byte(changed), 0o644); err != nil {
		o.t.Fatal(err)
	}
	o.create(name, dir)
}

// TestRealOllamaEvalTellsTheModelsApart runs the example task file's kind
// of task on four tiny models through the real Ollama: one calls the right
// tool, one the wrong tool, one writes its call as text (its template
// renders calls in a form Ollama does not parse from the reply), one
// never calls (its template always asks for the answer). The report's
// table is what README shows.
func TestRealOllamaEvalTellsTheModelsApart(t *testing.T) {
	t.Parallel()
	echo := `everything__echo={"message":"kiwi"}`
	o := startRealOllama(t, "right", "-call", echo, "-answer", "Echoed kiwi.")
	o.createModel("wrong", "-call", `everything__get-sum={"a":1,"b":2}`, "-answer", "The sum is 3.")
	o.createTemplatedModel("text", func(m string) string {
		return strings.NewReplacer("<tool_call>", "[CALL]", "</tool_call>", "[/CALL]").Replace(m)
	}, "-call", echo, "-answer", "Echoed kiwi.")
	o.createTemplatedModel("silent", func(m string) string {
		return strings.Replace(m, `{{- if .Tools }}{{ $next }}{{ else }}<|plain|>{{ end }}`, `<|plain|>`, 1)
	}, "-answer", "I cannot echo.")

	dir := t.TempDir()
	tasks := writeConfig(t, dir, "tasks.yaml", echoTasks(t, 2))
	args := []string{"eval", tasks, "-m", "ollama:right", "-m", "ollama:wrong", "-m", "ollama:text", "-m", "ollama:silent", "--temperature", "0", "--seed", "1"}
	out := runBinary(t, invocation{args: args, dir: dir, host: o.URL})
	t.Logf("the report:\n%s", out.stdout)
	if out.code != 1 {
		t.Fatalf("exit %d, want 1; stdout %q, stderr %q", out.code, out.stdout, out.stderr)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^echo-kiwi +2/2 +0/2 +2/2 +0/2$`),
		regexp.MustCompile(`(?m)^ollama:right +2/2 +2 +0 +0 +0 +2\.0 `),
		regexp.MustCompile(`(?m)^ollama:text +2/2 +0 +2 +0 +0 +2\.0 `),
		regexp.MustCompile(`(?m)^ollama:silent +0/2 +0 +0 +0 +0 +1\.0 `),
		regexp.MustCompile(`(?m)^ollama:wrong: fails every task; most often: echo-kiwi: did not call everything__echo \(called everything__get-sum\)$`),
	} {
		if !want.MatchString(out.stdout) {
			t.Errorf("the report lacks %s", want)
		}
	}
	// Each model ran its runs one after another, never interleaved.
	var order []string
	for _, c := range o.chats() {
		if len(order) == 0 || order[len(order)-1] != c.Model {
			order = append(order, c.Model)
		}
	}
	if strings.Join(order, " ") != "right wrong text silent" {
		t.Errorf("models ran in the order %v", order)
	}

	out = runBinary(t, invocation{args: append(args, "--output", "json", "--min-pass", "0.5"), dir: dir, host: o.URL})
	var rep evalJSONReport
	if err := json.Unmarshal([]byte(out.stdout), &rep); err != nil {
		t.Fatalf("exit %d: %v\n%s", out.code, err, out.stdout)
	}
	if out.code != 1 || rep.OK || len(rep.Models) != 4 || rep.Models[2].Recovered != 2 || rep.Models[3].Passed != 0 {
		t.Errorf("exit %d, report %+v", out.code, rep)
	}
}
