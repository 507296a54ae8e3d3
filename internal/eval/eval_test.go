package eval

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
)

func TestParseReadsEveryPart(t *testing.T) {
	f, err := Parse("tasks.yaml", []byte(`# the team's own servers
mcpServers:
  notes: {command: notes-server}
system-prompt: Be brief.
approval:
  allow: [notes__*]
  deny: notes__delete
tasks:
  - name: add
    prompt: Add a note saying hi.
    expect:
      tools: [notes__add]
      args: {notes__add: {text: hi, tags: [a], n: 3}}
      answer: (?i)added
    repeat: 3
  - name: list
    prompt: List the notes.
    expect: {args: {notes__list: {all: true}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	if f.Servers == nil || f.SystemPrompt != "Be brief." || f.Approval.Allow[0] != "notes__*" || f.Approval.Deny[0] != "notes__delete" || !f.Starts() {
		t.Errorf("file = %+v", f)
	}
	if len(f.Tasks) != 2 {
		t.Fatalf("%d tasks", len(f.Tasks))
	}
	add, list := f.Tasks[0], f.Tasks[1]
	if add.Name != "add" || add.Repeat != 3 || add.Line != 9 || add.Answer.String() != "(?i)added" || add.Args["notes__add"]["text"] != "hi" {
		t.Errorf("add = %+v", add)
	}
	if list.Repeat != 1 || strings.Join(list.Expected(), ",") != "notes__list" {
		t.Errorf("list = %+v, expected %v", list, list.Expected())
	}
	if g, err := Parse("p.yaml", []byte("tasks:\n  - {name: a, prompt: hi}\n")); err != nil || g.Starts() {
		t.Errorf("a file of prompts only: %v, starts %v", err, g != nil && g.Starts())
	}
}

func TestParseErrorsNameTheLine(t *testing.T) {
	tests := []struct{ file, want string }{
		{"tasks:\n  - name: a\n    prompt: hi\n    exepct: {}\n", `tasks.yaml: line 4: unknown key "exepct" in a task: did you mean "expect"?`},
		{"tasks:\n  - name: a\n    prompt: hi\n    weird: 1\n", `line 4: unknown key "weird" in a task: the keys are "name", "prompt", "expect", "repeat"`},
		{"system_prompt: x\nmcp-servers: {}\ntasks: []\n", `"tasks" must be a list`},
		{"approval: {alow: [x]}\ntasks: [{name: a, prompt: b}]\n", `line 1: unknown key "alow" in "approval": did you mean "allow"?`},
		{"tasks:\n  - name: a\n    prompt: hi\n    expect: {answer: '[a-'}\n", "line 4: expect.answer \"[a-\" is not a regular expression that compiles"},
		{"tasks:\n  - name: a\n    prompt: hi\n    repeat: many\n", `line 4: "repeat" must be a whole number from 1 to 100, got "many"`},
		{"tasks:\n  - prompt: hi\n", `line 2: a task has no "name"`},
		{"", "the file is empty"},
		{"approval: {allow: ['fs__[a']}\ntasks: [{name: a, prompt: b}]\n", `line 1: "approval.allow" has the pattern "fs__[a", which is not a valid glob`},
		{"- a\n", `a task file is a mapping with a "tasks:" list`},
	}
	for _, tc := range tests {
		_, err := Parse("tasks.yaml", []byte(tc.file))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.file, err, tc.want)
		}
	}
}

func TestJudge(t *testing.T) {
	f, err := Parse("t.yaml", []byte(`tasks:
  - name: a
    prompt: p
    expect:
      tools: [s__x, s__y]
      args: {s__x: {n: 3, o: {k: v}}}
      answer: done
`))
	if err != nil {
		t.Fatal(err)
	}
	task := f.Tasks[0]
	ok := []Call{{Name: "s__y"}, {Name: "s__x", Args: map[string]any{"n": 3.0, "o": map[string]any{"k": "v", "extra": 1.0}, "m": "more"}}}
	tests := []struct {
		name string
		run  Run
		want string
	}{
		{"pass", Run{Answer: "all done", Calls: ok}, ""},
		{"missing tool", Run{Answer: "done", Calls: ok[:1]}, "did not call s__x (called s__y)"},
		{"rejected call does not count", Run{Answer: "done", Calls: []Call{ok[0], {Name: "s__x", Args: ok[1].Args, Rejected: true}}}, "did not call s__x (called s__y; rejected s__x)"},
		{"wrong args", Run{Answer: "done", Calls: []Call{ok[0], {Name: "s__x", Args: map[string]any{"n": 4.0}}}}, "called s__x without the arguments {n: 3, o: map[k:v]}"},
		{"answer", Run{Answer: "nope", Calls: ok}, `the answer does not match "done"`},
		{"not run", Run{Answer: "done", Calls: []Call{ok[0], {Name: "s__x", Args: ok[1].Args, Failed: true, NotRun: "s__x needs the user's approval"}}}, "called s__x, which was not run: s__x needs the user's approval"},
		{"error", Run{Err: "stopped after the maximum number of steps", Calls: ok}, "stopped after the maximum number of steps"},
	}
	for _, tc := range tests {
		r := tc.run
		Judge(task, &r)
		if r.Passed != (tc.want == "") || r.Failure != tc.want {
			t.Errorf("%s: passed %v, failure %q; want %q", tc.name, r.Passed, r.Failure, tc.want)
		}
	}
}

func TestEvaluateRunsModelsInTurnAndSummarizes(t *testing.T) {
	tasks := []Task{{Name: "a", Prompt: "p", Tools: []string{"s__x"}, Repeat: 3}, {Name: "b", Prompt: "q", Repeat: 1}}
	var running, most atomic.Int32
	var order []string
	engine := func(ctx context.Context, model string, task Task) Run {
		n := running.Add(1)
		defer running.Add(-1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		switch model {
		case "good":
			return Run{Calls: []Call{{Name: "s__x"}}, Steps: 2, Tokens: 10}
		case "text":
			return Run{Calls: []Call{{Name: "s__x", Recovered: true}}, Steps: 2, Tokens: 10}
		}
		return Run{Steps: 1, Tokens: 5}
	}
	var done []int
	all := Evaluate(context.Background(), []string{"good", "text", "none"}, tasks, engine, Options{Parallel: 2, Done: func(r Run, n, total int) {
		done = append(done, n)
		if total != 12 {
			t.Errorf("total = %d", total)
		}
		order = append(order, r.Model)
	}})
	if len(all) != 3 || len(done) != 12 || done[11] != 12 {
		t.Fatalf("runs %d, done %v", len(all), done)
	}
	if most.Load() > 2 {
		t.Errorf("%d runs at once, want at most 2", most.Load())
	}
	if strings.Join(order, " ") != "good good good good text text text text none none none none" {
		t.Errorf("models did not run one after another: %v", order)
	}
	good := Summarize("good", tasks, all[0])
	if good.Passed != 4 || good.Runs != 4 || good.Native != 4 || good.MeanSteps != 2 || good.Tokens != 40 || good.Verdict != "passes every task, calling tools natively" {
		t.Errorf("good = %+v", good)
	}
	text := Summarize("text", tasks, all[1])
	if text.Recovered != 4 || !strings.Contains(text.Verdict, "writes its calls as text") {
		t.Errorf("text = %+v", text)
	}
	none := Summarize("none", tasks, all[2])
	if none.Passed != 1 || none.Tasks[0].Passed != 0 || none.Tasks[0].Failures[0] != "did not call s__x" ||
		!strings.HasPrefix(none.Verdict, "passes 1 of 4 runs; never called a tool") {
		t.Errorf("none = %+v", none)
	}
}

func TestCheckTools(t *testing.T) {
	tasks := []Task{{Name: "a", Tools: []string{"fs__read_file"}, Line: 3}, {Name: "b", Args: map[string]map[string]any{"fs__lst": {"p": "."}}, Line: 7}}
	if err := CheckTools("t.yaml", tasks[:1], []string{"fs__read_file"}, nil); err != nil {
		t.Error(err)
	}
	err := CheckTools("t.yaml", tasks, []string{"fs__read_file", "fs__list"}, nil)
	if err == nil || err.Error() != `t.yaml: line 7: the task "b" expects the tool fs__lst, which no server has: did you mean fs__list?` {
		t.Errorf("error %v", err)
	}
	err = CheckTools("t.yaml", tasks, nil, []string{"fs"})
	if err == nil || !strings.Contains(err.Error(), "(fs could not start: see mcphost servers)") {
		t.Errorf("error %v", err)
	}
}
