package host

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/mcphost/mcphost/internal/eval"
	"github.com/mcphost/mcphost/internal/termtext"
)

// EvalTask is one task of an evaluation ([Host.Eval]): a prompt, sent as
// the first message of a new conversation, and what the run must show to
// pass. The mcphost command reads them from a task file ("mcphost eval").
type EvalTask struct {
	// Name names the task in the report; each task needs its own.
	Name string
	// Prompt is what the model is asked.
	Prompt string
	// Tools must each be called at least once, in any order, by the name
	// the model sees ("everything__echo").
	Tools []string
	// Args holds, per tool, arguments one of its calls must have: a
	// subset, the call may have more. A tool named here must be called
	// too.
	Args map[string]map[string]any
	// Answer, when not empty, is a regular expression (Go syntax) the final
	// answer must match.
	Answer string
	// Repeat is how many times the task runs on each model; 0 means once.
	Repeat int
}

// EvalOptions say which models an evaluation runs and how.
type EvalOptions struct {
	// Models are the models to evaluate, as -m takes them
	// ("ollama:qwen3:8b", "openai:gpt-4o-mini"). They run one after
	// another: an engine serves one model at a time.
	Models []string
	// Parallel is how many runs of one model go at once; 0 means one.
	Parallel int
	// OnRun, when set, hears of each run as it ends, with how many runs
	// are done and how many there are in all, for a progress display. It
	// is called from one goroutine at a time.
	OnRun func(run EvalRun, done, total int)
}

// EvalRun is one run of a task on a model.
type EvalRun struct {
	Model, Task string
	// Passed tells whether the run did what the task expects; Failure
	// says what it did not, in words.
	Passed  bool
	Failure string
	// Answer is the final answer.
	Answer string
	// Steps counts the model calls, Tokens the prompt and reply tokens.
	Steps, Tokens int
	// Calls, Recovered, Repaired and Rejected count the tool calls made,
	// those found written as text, those whose arguments were repaired,
	// and those never sent to a server.
	Calls, Recovered, Repaired, Rejected int
	Duration                             time.Duration
}

// EvalReport is what [Host.Eval] found, one entry per model, in the order
// of EvalOptions.Models.
type EvalReport struct {
	Models []EvalModel
}

// Passed reports whether every model passed at least minPass (0 to 1) of
// its runs of every task: 1 asks for every run.
func (r EvalReport) Passed(minPass float64) bool {
	for _, m := range r.Models {
		for _, t := range m.Tasks {
			if t.Runs == 0 || float64(t.Passed) < minPass*float64(t.Runs)-1e-9 {
				return false
			}
		}
	}
	return len(r.Models) > 0
}

// EvalModel is one model's figures.
type EvalModel struct {
	// Model is the model as given in EvalOptions.Models.
	Model string
	// Passed and Runs count the runs that passed, and all of them.
	Passed, Runs int
	// Tasks are the per-task figures, in the order of the tasks.
	Tasks []EvalTaskResult
	// Native counts the tool calls sent as tool calls; Recovered those
	// written as text in the reply (that mcphost recovered); Repaired
	// those whose arguments were repaired to fit the schema; Rejected
	// those never sent to a server (unknown tool, bad arguments, loop).
	Native, Recovered, Repaired, Rejected int
	// MeanSteps is the mean number of model calls per run.
	MeanSteps float64
	// Tokens adds up the prompt and reply tokens of every run; Duration
	// the runs' times (more than the time taken when runs went in
	// parallel).
	Tokens   int
	Duration time.Duration
	// Verdict says in one line what the figures mean.
	Verdict string
}

// EvalTaskResult is one task's figures on one model.
type EvalTaskResult struct {
	Name         string
	Passed, Runs int
	// Failures says why runs failed, each reason once.
	Failures []string
}

// Eval runs every task on every model with the Host's servers, each run
// in a new conversation as a one-shot run would, and reports what passed.
// It first waits for the servers still starting, so that their tools are
// known.
// Before anything runs it checks the tasks (names, regular expressions,
// tools the servers have) and the models (each engine has it), returning
// [ErrConfig] or the engine's error naming what is wrong. A run that
// fails (the engine errs, the step limit is reached) counts as failed,
// and Eval goes on; cancelling ctx stops it, returning what ran and the
// context's error.
func (h *Host) Eval(ctx context.Context, tasks []EvalTask, opts EvalOptions) (EvalReport, error) {
	in, err := evalTasks(tasks)
	if err != nil {
		return EvalReport{}, err
	}
	// The tools of servers still starting are not known yet; a start
	// must not count in a run's time either.
	h.WaitStarting(ctx)
	if err := h.checkEvalTools(in); err != nil {
		return EvalReport{}, err
	}
	return h.evaluate(ctx, in, opts)
}

// evalTasks checks tasks made in code and converts them.
func evalTasks(tasks []EvalTask) ([]eval.Task, error) {
	if len(tasks) == 0 {
		return nil, configError(errors.New("the evaluation has no tasks: give at least one"))
	}
	seen := map[string]bool{}
	var out []eval.Task
	for i, t := range tasks {
		name := strings.TrimSpace(t.Name)
		switch {
		case name == "":
			return nil, configError(fmt.Errorf("evaluation task %d has no name: give each task one", i+1))
		case seen[name]:
			return nil, configError(fmt.Errorf("two evaluation tasks are named %q: give each task its own name", name))
		case strings.TrimSpace(t.Prompt) == "":
			return nil, configError(fmt.Errorf("the evaluation task %q has no prompt", name))
		case t.Repeat < 0:
			return nil, configError(fmt.Errorf("the evaluation task %q repeats %d times: give 1 or more (0 means once)", name, t.Repeat))
		}
		seen[name] = true
		et := eval.Task{Name: name, Prompt: t.Prompt, Tools: t.Tools, Args: t.Args, Repeat: max(1, t.Repeat)}
		if t.Answer != "" {
			re, err := regexp.Compile(t.Answer)
			if err != nil {
				return nil, configError(fmt.Errorf("the answer of the evaluation task %q, %q, is not a regular expression that compiles: %v", name, t.Answer, err))
			}
			et.Answer = re
		}
		out = append(out, et)
	}
	return out, nil
}

// checkEvalTools refuses tasks that expect a tool the Host's servers do
// not have.
func (h *Host) checkEvalTools(tasks []eval.Task) error {
	var names, down []string
	for _, t := range h.Tools() {
		names = append(names, t.Name)
	}
	for _, s := range h.Servers() {
		if s.StartErr != nil {
			down = append(down, s.Name)
		}
	}
	if err := eval.CheckTools("", tasks, names, down); err != nil {
		return configError(err)
	}
	return nil
}

// evaluate checks the models, then runs the tasks.
func (h *Host) evaluate(ctx context.Context, tasks []eval.Task, opts EvalOptions) (EvalReport, error) {
	if len(opts.Models) == 0 {
		return EvalReport{}, configError(errors.New("the evaluation has no model: give at least one"))
	}
	// Every model is looked up first: a missing one is found before the
	// others have run for minutes.
	for _, m := range opts.Models {
		if _, err := h.ShowModel(ctx, m); err != nil {
			return EvalReport{}, err
		}
	}
	engine := func(ctx context.Context, model string, task eval.Task) eval.Run {
		return h.evalRun(ctx, model, task)
	}
	var done func(eval.Run, int, int)
	if opts.OnRun != nil {
		done = func(r eval.Run, n, total int) { opts.OnRun(evalRun(r), n, total) }
	}
	all := eval.Evaluate(ctx, opts.Models, tasks, engine, eval.Options{Parallel: opts.Parallel, Done: done})
	var rep EvalReport
	for i, runs := range all {
		s := eval.Summarize(opts.Models[i], tasks, runs)
		m := EvalModel{Model: s.Model, Passed: s.Passed, Runs: s.Runs, Native: s.Native, Recovered: s.Recovered,
			Repaired: s.Repaired, Rejected: s.Rejected, MeanSteps: s.MeanSteps, Tokens: s.Tokens, Duration: s.Duration, Verdict: s.Verdict}
		for _, t := range s.Tasks {
			m.Tasks = append(m.Tasks, EvalTaskResult{Name: t.Name, Passed: t.Passed, Runs: t.Runs, Failures: t.Failures})
		}
		rep.Models = append(rep.Models, m)
	}
	return rep, ctx.Err()
}

// evalRun runs task once on model, in a conversation of its own.
func (h *Host) evalRun(ctx context.Context, model string, task eval.Task) eval.Run {
	start := time.Now()
	conv := h.NewConversation()
	if _, err := conv.SetModel(ctx, model); err != nil {
		return eval.Run{Err: h.Mask(termtext.Line(err.Error())), Duration: time.Since(start)}
	}
	res, err := conv.PromptFunc(ctx, task.Prompt, nil)
	r := eval.Run{Answer: res.Answer, Steps: res.Steps, Tokens: res.Usage.PromptTokens + res.Usage.CompletionTokens,
		Duration: time.Since(start)}
	for _, c := range res.ToolCalls {
		call := eval.Call{Name: c.Call.Name, Args: c.Call.Arguments, Recovered: c.Recovered,
			Repaired: len(c.Repairs) > 0, Rejected: c.Rejected, Failed: c.IsError}
		if !c.Rejected && c.IsError {
			call.NotRun = notRun(c.Output)
		}
		r.Calls = append(r.Calls, call)
	}
	if err != nil {
		r.Err = h.Mask(termtext.Line(err.Error()))
	}
	return r
}

// notRunPrefix starts the result the model gets for a call mcphost did
// not run: refused by the approval policy or by the person asked, blocked
// by a hook (and the runner's own refusals, which are Rejected).
const notRunPrefix = "Not run: "

// notRun is why a call whose result is output was not run, in the words
// of its first sentence, "" for a call that ran.
func notRun(output string) string {
	rest, ok := strings.CutPrefix(output, notRunPrefix)
	if !ok {
		return ""
	}
	if i := strings.Index(rest, ". "); i >= 0 {
		rest = rest[:i]
	}
	return strings.TrimSuffix(rest, ".")
}

// evalRun converts a judged run.
func evalRun(r eval.Run) EvalRun {
	out := EvalRun{Model: r.Model, Task: r.Task, Passed: r.Passed, Failure: r.Failure, Answer: r.Answer,
		Steps: r.Steps, Tokens: r.Tokens, Calls: len(r.Calls), Duration: r.Duration}
	for _, c := range r.Calls {
		if c.Recovered {
			out.Recovered++
		}
		if c.Repaired {
			out.Repaired++
		}
		if c.Rejected {
			out.Rejected++
		}
	}
	return out
}
