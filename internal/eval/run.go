package eval

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcphost/mcphost/config"
)

// CheckTools refuses tasks that expect a tool no server has, before
// anything runs: such a task could never pass. tools are the names the
// model sees; path names the task file in the error (empty for tasks made
// in code); down, when not empty, names the servers that could not start,
// whose tools are unknown.
func CheckTools(path string, tasks []Task, tools []string, down []string) error {
	for _, t := range tasks {
		for _, name := range t.Expected() {
			if slices.Contains(tools, name) {
				continue
			}
			msg := fmt.Sprintf("the task %q expects the tool %s, which no server has", t.Name, name)
			if t.Line > 0 {
				msg = fmt.Sprintf("line %d: %s", t.Line, msg)
			}
			if near := Suggest(tools, name); near != "" {
				msg += fmt.Sprintf(": did you mean %s?", near)
			} else if len(down) > 0 {
				msg += fmt.Sprintf(" (%s could not start: see mcphost servers)", strings.Join(down, ", "))
			} else {
				msg += ": " + toolList(tools)
			}
			return &config.Error{File: path, Message: msg}
		}
	}
	return nil
}

// toolList names the tools there are, a few of them, for an error.
func toolList(tools []string) string {
	const shown = 6
	switch {
	case len(tools) == 0:
		return "no server offers any tool"
	case len(tools) <= shown:
		return "the tools are " + strings.Join(tools, ", ")
	}
	return fmt.Sprintf("the tools are %s and %d more", strings.Join(tools[:shown], ", "), len(tools)-shown)
}

// Call is one tool call of a run, as the report counts it.
type Call struct {
	// Name is the name the model sees; Args the arguments as run.
	Name string
	Args map[string]any
	// Recovered: written as text in the reply, not sent as a tool call.
	Recovered bool
	// Repaired: its arguments were repaired to fit the tool's schema.
	Repaired bool
	// Rejected: never sent to the server (unknown tool, bad arguments,
	// loop).
	Rejected bool
	// Failed: the tool reported an error, or the call failed.
	Failed bool
	// NotRun says why mcphost did not run the call although the tool
	// exists (the approval policy refused it, a hook blocked it); empty
	// for a call that ran or was rejected.
	NotRun string
}

// Run is one run of a task on a model.
type Run struct {
	Model, Task string
	// Answer is the final answer; Calls the tool calls in order.
	Answer string
	Calls  []Call
	// Steps counts the model calls; Tokens the prompt and reply tokens.
	Steps, Tokens int
	Duration      time.Duration
	// Err is why the run did not end with an answer ("" when it did).
	Err string
	// Passed and Failure are the verdict: Failure says, in words, the
	// first thing that was not as the task expects.
	Passed  bool
	Failure string
}

// Judge decides whether run did what task expects, filling in Passed and
// Failure.
func Judge(task Task, run *Run) {
	run.Passed, run.Failure = false, ""
	if run.Err != "" {
		run.Failure = run.Err
		return
	}
	ran := func(c Call) bool { return !c.Rejected && c.NotRun == "" }
	called := func(name string) bool {
		return slices.ContainsFunc(run.Calls, func(c Call) bool { return c.Name == name && ran(c) })
	}
	var missing []string
	for _, name := range task.Expected() {
		if !called(name) {
			missing = append(missing, name)
		}
	}
	// A call the model made right that mcphost did not run says more
	// than "did not call": what to change is the policy, not the model.
	for _, name := range missing {
		i := slices.IndexFunc(run.Calls, func(c Call) bool { return c.Name == name && c.NotRun != "" })
		if i >= 0 {
			run.Failure = fmt.Sprintf("called %s, which was not run: %s", name, run.Calls[i].NotRun)
			return
		}
	}
	missing = slices.DeleteFunc(missing, func(name string) bool { return !slices.Contains(task.Tools, name) })
	if len(missing) > 0 {
		run.Failure = "did not call " + strings.Join(missing, ", ")
		if names := callNames(run.Calls); names != "" {
			run.Failure += " (" + names + ")"
		}
		return
	}
	for _, name := range sortedKeys(task.Args) {
		want := task.Args[name]
		ok := slices.ContainsFunc(run.Calls, func(c Call) bool { return c.Name == name && ran(c) && subset(want, c.Args) })
		if !ok {
			if !called(name) {
				run.Failure = "did not call " + name
			} else {
				run.Failure = fmt.Sprintf("called %s without the arguments %s", name, compact(want))
			}
			return
		}
	}
	if task.Answer != nil && !task.Answer.MatchString(run.Answer) {
		run.Failure = fmt.Sprintf("the answer does not match %q", task.Answer.String())
		return
	}
	run.Passed = true
}

// callNames says what a run called, each tool once, in order: the calls
// that ran, then those rejected.
func callNames(calls []Call) string {
	var ran, rejected []string
	for _, c := range calls {
		list := &ran
		if c.Rejected {
			list = &rejected
		}
		if !slices.Contains(*list, c.Name) {
			*list = append(*list, c.Name)
		}
	}
	out := ""
	if len(ran) > 0 {
		out = "called " + strings.Join(ran, ", ")
	}
	if len(rejected) > 0 {
		out = join(out, "rejected "+strings.Join(rejected, ", "))
	}
	return out
}

// subset reports whether every argument of want is in got with an equal
// value. Numbers compare by value (YAML's 3 is JSON's 3.0); objects are
// subsets in turn.
func subset(want, got map[string]any) bool {
	for k, w := range want {
		g, ok := got[k]
		if !ok || !same(w, g) {
			return false
		}
	}
	return true
}

func same(w, g any) bool {
	if wf, ok := number(w); ok {
		gf, ok := number(g)
		return ok && wf == gf
	}
	switch wv := w.(type) {
	case map[string]any:
		gv, ok := g.(map[string]any)
		return ok && subset(wv, gv)
	case []any:
		gv, ok := g.([]any)
		if !ok || len(gv) != len(wv) {
			return false
		}
		for i := range wv {
			if !same(wv[i], gv[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(w, g)
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case uint64:
		return float64(n), true
	case float64:
		return n, true
	case float32:
		return float64(n), true
	}
	return 0, false
}

// compact writes arguments as one short line for a failure.
func compact(args map[string]any) string {
	var parts []string
	for _, k := range sortedKeys(args) {
		parts = append(parts, fmt.Sprintf("%s: %v", k, args[k]))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// Engine runs one task on one model and returns the run, unjudged: a
// failure to run goes in Run.Err. It is called concurrently for the tasks
// of one model when Options.Parallel allows.
type Engine func(ctx context.Context, model string, task Task) Run

// Options say how Evaluate runs.
type Options struct {
	// Parallel is how many runs of one model may go at once; below 1
	// means 1. Models always run one after another: an engine serves one
	// model at a time, and two would measure each other.
	Parallel int
	// Done, when set, hears of each run once judged, with how many runs
	// are done and how many there are in all; it is called from one
	// goroutine at a time.
	Done func(run Run, done, total int)
}

// Evaluate runs every task its Repeat times on each model and returns the
// runs of each model, in the order of models, then tasks. It stops early
// when ctx ends; runs not made are left out.
func Evaluate(ctx context.Context, models []string, tasks []Task, engine Engine, opts Options) [][]Run {
	total := 0
	for _, t := range tasks {
		total += t.Repeat
	}
	total *= len(models)
	var mu sync.Mutex
	done := 0
	out := make([][]Run, len(models))
	for m, model := range models {
		type job struct{ task, slot int }
		var jobs []job
		for i, t := range tasks {
			for range t.Repeat {
				jobs = append(jobs, job{i, len(jobs)})
			}
		}
		runs := make([]Run, len(jobs))
		made := make([]bool, len(jobs))
		work := make(chan job)
		var wg sync.WaitGroup
		for range max(1, opts.Parallel) {
			wg.Go(func() {
				for j := range work {
					t := tasks[j.task]
					r := engine(ctx, model, t)
					r.Model, r.Task = model, t.Name
					Judge(t, &r)
					mu.Lock()
					runs[j.slot], made[j.slot] = r, ctx.Err() == nil
					done++
					if opts.Done != nil {
						opts.Done(r, done, total)
					}
					mu.Unlock()
				}
			})
		}
	feed:
		for _, j := range jobs {
			select {
			case work <- j:
			case <-ctx.Done():
				break feed
			}
		}
		close(work)
		wg.Wait()
		for i, r := range runs {
			if made[i] {
				out[m] = append(out[m], r)
			}
		}
		if ctx.Err() != nil {
			return out[:m+1]
		}
	}
	return out
}
