package eval

import (
	"fmt"
	"slices"
	"time"
)

// Summary adds up the runs of one model.
type Summary struct {
	Model        string
	Passed, Runs int
	// Tasks are the per-task figures, in the order of the tasks.
	Tasks []TaskSummary
	// Native and Recovered count the calls sent as tool calls and those
	// written as text and recovered; Repaired and Rejected, the calls
	// whose arguments were repaired and those never sent to a server.
	Native, Recovered, Repaired, Rejected int
	// MeanSteps is the mean number of model calls per run.
	MeanSteps float64
	// Tokens adds up the runs' prompt and reply tokens; Duration their
	// times.
	Tokens   int
	Duration time.Duration
	// Verdict says in one line what the figures mean for the user.
	Verdict string
}

// TaskSummary is one task's figures on one model.
type TaskSummary struct {
	Name         string
	Passed, Runs int
	// Failures says why runs failed, each reason once, in order.
	Failures []string
}

// Summarize adds up the runs of model (judged) for tasks.
func Summarize(model string, tasks []Task, runs []Run) Summary {
	s := Summary{Model: model}
	index := map[string]int{}
	for _, t := range tasks {
		index[t.Name] = len(s.Tasks)
		s.Tasks = append(s.Tasks, TaskSummary{Name: t.Name})
	}
	steps := 0
	for _, r := range runs {
		ts := &s.Tasks[index[r.Task]]
		ts.Runs++
		s.Runs++
		if r.Passed {
			ts.Passed++
			s.Passed++
		} else if !slices.Contains(ts.Failures, r.Failure) {
			ts.Failures = append(ts.Failures, r.Failure)
		}
		for _, c := range r.Calls {
			switch {
			case c.Recovered:
				s.Recovered++
			default:
				s.Native++
			}
			if c.Repaired {
				s.Repaired++
			}
			if c.Rejected {
				s.Rejected++
			}
		}
		steps += r.Steps
		s.Tokens += r.Tokens
		s.Duration += r.Duration
	}
	if s.Runs > 0 {
		s.MeanSteps = float64(steps) / float64(s.Runs)
	}
	s.Verdict = verdict(s, tasks)
	return s
}

// verdict words what a model's figures mean: whether it can be used with
// these tools, and what held it back.
func verdict(s Summary, tasks []Task) string {
	calls := s.Native + s.Recovered
	wantsTools := false
	for _, t := range tasks {
		wantsTools = wantsTools || len(t.Expected()) > 0
	}
	var how string
	switch {
	case calls == 0 && wantsTools:
		how = "never called a tool: use another model, or check that its template supports tools (mcphost models)"
	case s.Recovered > 0 && s.Native == 0:
		how = "writes its calls as text; mcphost recovered them, but other hosts may not"
	case s.Recovered > 0:
		how = fmt.Sprintf("wrote %d of %d calls as text (recovered)", s.Recovered, calls)
	}
	var extra string
	if s.Rejected > 0 {
		extra = fmt.Sprintf("%d of %d calls rejected (unknown tool, bad arguments or a repeat)", s.Rejected, calls)
	}
	if s.Repaired > 0 {
		extra = join(extra, fmt.Sprintf("%d repaired", s.Repaired))
	}
	var head string
	switch {
	case s.Runs == 0:
		return "no run ended: the evaluation was stopped"
	case s.Passed == s.Runs:
		head = "passes every task"
		if how == "" && extra == "" && calls > 0 {
			return head + ", calling tools natively"
		}
	case s.Passed == 0:
		head = "fails every task"
		if how == "" {
			how = "most often: " + commonFailure(s)
		}
	default:
		head = fmt.Sprintf("passes %d of %d runs", s.Passed, s.Runs)
		if how == "" {
			how = "most often failing: " + commonFailure(s)
		}
	}
	return join(join(head, how), extra)
}

// commonFailure is the failure reason of the task that failed most.
func commonFailure(s Summary) string {
	best, most := "", -1
	for _, t := range s.Tasks {
		if failed := t.Runs - t.Passed; failed > most && len(t.Failures) > 0 {
			best, most = t.Name+": "+t.Failures[0], failed
		}
	}
	return best
}

func join(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}
