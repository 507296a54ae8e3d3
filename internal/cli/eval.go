package cli

// "mcphost eval TASKS.yaml -m MODEL [-m MODEL ...]": runs a task file's
// tasks on each model with the configured servers (or the file's own)
// and reports what passed. The work is host.Eval's; this file reads the
// task file, decides trust, and prints the report.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/pflag"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/configload"
	"github.com/mcphost/mcphost/internal/eval"
	"github.com/mcphost/mcphost/internal/termtext"
	"github.com/mcphost/mcphost/internal/trust"
	"github.com/mcphost/mcphost/internal/ui"
	"github.com/mcphost/mcphost/provider"
)

// The flags only eval takes.
const (
	flagMinPass  = "min-pass"
	flagParallel = "parallel"
)

// maxTaskFileBytes bounds the task file read: a task file is small, and
// a wrong path (a log, a binary) should fail at once.
const maxTaskFileBytes = 4 << 20

// registerEvalFlags adds eval's flags, and makes -m repeatable: each
// value is kept, the last one being the model of every other command.
func registerEvalFlags(fs *pflag.FlagSet) {
	fs.Float64(flagMinPass, 1, "mcphost eval: pass when each model passes at least `SHARE` (0 to 1) of each task's runs")
	fs.Int(flagParallel, 1, "mcphost eval: run up to `N` tasks of one model at once")
	if f := fs.Lookup("model"); f != nil {
		f.Value = &modelList{Value: f.Value}
		f.Usage += " (eval: repeat -m for each model)"
	}
}

// modelList is -m's value, remembering every one given.
type modelList struct {
	pflag.Value
	all []string
}

func (m *modelList) Set(s string) error {
	m.all = append(m.all, s)
	return m.Value.Set(s)
}

// evalFlagsGiven reports whether a flag only eval takes was given.
func evalFlagsGiven(fs *pflag.FlagSet) bool {
	return fs.Changed(flagMinPass) || fs.Changed(flagParallel)
}

// evalModels are the models of every -m, in order.
func evalModels(fs *pflag.FlagSet) []string {
	if f := fs.Lookup("model"); f != nil {
		if m, ok := f.Value.(*modelList); ok {
			return m.all
		}
	}
	return nil
}

// parseEval reads "eval TASKS.yaml".
func parseEval(args []string) (action, error) {
	switch {
	case len(args) < 1:
		return nil, misuse(errors.New("eval needs a task file"))
	case len(args) > 1:
		return nil, misuse(fmt.Errorf("unexpected argument %q after the task file: give each model with -m MODEL", args[1]))
	}
	return func(inv *invocation) int { return inv.runEval(args[0]) }, nil
}

// runEval runs "mcphost eval PATH".
func (inv *invocation) runEval(path string) int {
	con := inv.con
	minPass, _ := inv.fs.GetFloat64(flagMinPass)
	parallel, _ := inv.fs.GetInt(flagParallel)
	switch {
	case minPass < 0 || minPass > 1:
		return inv.usageErr("--min-pass %v must be a share from 0 to 1, e.g. 0.8 for 80%% of the runs", minPass)
	case parallel < 1:
		return inv.usageErr("--parallel %d must be 1 or more", parallel)
	}
	data, err := readTaskFile(path)
	if err != nil {
		return inv.usageErr("%v", err)
	}
	file, err := eval.Parse(path, data)
	if err != nil {
		return inv.usageErr("%v", err)
	}
	if file.Starts() {
		ok, err := inv.trustTaskFile(path, data, file)
		if err != nil {
			return inv.usageErr("%v", err)
		}
		if !ok {
			return exitUsage
		}
	}
	if file.Servers != nil {
		abs, err := filepath.Abs(path)
		if err != nil {
			return inv.usageErr("%s: cannot resolve the task file's path: %v", path, err)
		}
		// ${PROJECT_DIR} is the task file's folder, as for a script.
		specs, err := configload.ServersFromMap(file.Servers, path, filepath.Dir(abs), inv.load.Env)
		if err != nil {
			return inv.usageErr("%v", err)
		}
		inv.load.Servers = append([]config.ServerSpec{}, specs...) // not nil: "no servers" too replaces the config's
	}
	return inv.withSettings(func(settings *config.Settings, logger *slog.Logger) int {
		models := evalModels(inv.fs)
		if len(models) == 0 && settings.Model != "" {
			models = []string{settings.Model}
		}
		if len(models) == 0 {
			return inv.usageErr("eval needs a model: give each one to evaluate with -m MODEL")
		}
		for i, m := range models {
			if slices.Contains(models[:i], m) {
				return inv.usageErr("-m %s is given twice: give each model once (a task's repeat: in the task file runs it more times)", m)
			}
		}
		s := *settings
		s.Model = models[0]
		if file.SystemPrompt != "" {
			s.SystemPrompt = file.SystemPrompt
		}
		// The file's rules, trusted, are the user's own for these runs.
		s.Approval.Allow = append(append([]string{}, s.Approval.Allow...), file.Approval.Allow...)
		s.Approval.Ask = append(append([]string{}, s.Approval.Ask...), file.Approval.Ask...)
		s.Approval.Deny = append(append([]string{}, s.Approval.Deny...), file.Approval.Deny...)
		return runEval(con, &s, logger, file, models, minPass, parallel)
	})
}

// readTaskFile reads the task file, bounded.
func readTaskFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		reason := err
		var pe *os.PathError
		if errors.As(err, &pe) {
			reason = pe.Err
		}
		return nil, fmt.Errorf("%s: cannot read the task file: %v", path, reason)
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.IsDir() {
		return nil, fmt.Errorf("%s is a folder: give the task file (YAML)", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxTaskFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read the task file: %v", path, err)
	}
	if len(data) > maxTaskFileBytes {
		return nil, fmt.Errorf("%s is larger than %d MiB: is it a task file?", path, maxTaskFileBytes>>20)
	}
	return data, nil
}

// trustTaskFile decides whether a task file that starts servers or sets
// approval rules may: as a project config file, it must be trusted (by
// the record of trusted files, or --trust-project for one run). In a
// terminal the user is asked; otherwise the run stops with what to do.
func (inv *invocation) trustTaskFile(path string, data []byte, file *eval.File) (bool, error) {
	pf, trusted, err := configload.TrustedFile(inv.load, path, data)
	if err != nil || trusted {
		return trusted, err
	}
	name := pf.Name()
	what := taskFileChanges(file)
	if !inv.terminal() {
		fmt.Fprintf(inv.con.err, "mcphost: %s is not trusted: it %s; check it, then run this in a terminal to trust it, or trust it for one run with --trust-project\n", name, what)
		return false, nil
	}
	fmt.Fprintf(inv.con.out, "%s %s.\n", name, what)
	if !trust.AskYesNo(inv.con.in, inv.con.out, "Trust "+name+" and run it? [y/N] ") {
		fmt.Fprintf(inv.con.err, "mcphost: %s is not trusted: nothing ran\n", name)
		return false, nil
	}
	store, err := inv.load.TrustStore()
	if err != nil {
		return false, err
	}
	if err := store.Trust(pf); err != nil {
		return false, err
	}
	fmt.Fprintf(inv.con.out, "Trusted %s.\n\n", name)
	return true, nil
}

// taskFileChanges says what a task file would start and allow.
func taskFileChanges(file *eval.File) string {
	var parts []string
	if file.Servers != nil {
		var names []string
		for name := range file.Servers {
			names = append(names, name)
		}
		if len(names) == 0 {
			parts = append(parts, "runs without the configured servers")
		} else {
			slices.Sort(names)
			parts = append(parts, "starts the servers "+andList(names))
		}
	}
	if a := file.Approval; len(a.Allow) > 0 {
		parts = append(parts, "runs the tools "+strings.Join(a.Allow, ", ")+" without asking")
	}
	if a := file.Approval; len(a.Ask)+len(a.Deny) > 0 {
		parts = append(parts, "sets approval rules")
	}
	return strings.Join(parts, " and ")
}

// runEval starts the servers, checks the tasks against their tools, runs
// them and prints the report.
func runEval(con *console, settings *config.Settings, logger *slog.Logger, file *eval.File, models []string, minPass float64, parallel int) int {
	ctx, stop := signal.NotifyContext(con.ctx, stopSignals()...)
	defer stop()
	stderr := con.err
	progress := newEvalProgress(stderr, settings.Quiet)
	shown := warner(stderr)
	// A warning takes the progress line's place; the next run draws it
	// again under the warning.
	warn := func(msg string) { progress.clear(); shown(msg) }
	opts := options(settings, logger, warn)
	opts.Asker = runAsker(stderr.f, warn)
	// Every server starts before the first run: its tools must be known
	// to check the tasks, and a start must not count in a run's time.
	opts.Start, opts.AllowFailedStart = host.StartAll, true
	stopStartup, pullDone := showStart(settings, stderr, &opts)
	defer stopStartup()
	h, err := host.New(ctx, opts)
	stopStartup()
	pullDone()
	if err != nil {
		return reportExit(stderr, ctx, err)
	}
	defer h.Close()
	var tools, down []string
	for _, t := range h.Tools() {
		tools = append(tools, t.Name)
	}
	for _, s := range h.Servers() {
		if s.StartErr != nil {
			down = append(down, s.Name)
		}
	}
	if err := eval.CheckTools(file.Path, file.Tasks, tools, down); err != nil {
		return usageError(con, "%v", err)
	}
	if settings.Pull {
		// --pull: New pulled the first model if missing; the others too.
		if err := pullModels(ctx, h, models[1:], stderr); err != nil {
			return reportExit(stderr, ctx, err)
		}
	}
	var tasks []host.EvalTask
	for _, t := range file.Tasks {
		et := host.EvalTask{Name: t.Name, Prompt: t.Prompt, Tools: t.Tools, Args: t.Args, Repeat: t.Repeat}
		if t.Answer != nil {
			et.Answer = t.Answer.String()
		}
		tasks = append(tasks, et)
	}
	rep, err := h.Eval(ctx, tasks, host.EvalOptions{Models: models, Parallel: parallel, OnRun: progress.update})
	progress.clear()
	// Interrupted, the runs that ended are reported before the exit: a
	// long eval stopped half-way still says what it found.
	if err != nil && (ctx.Err() == nil || len(rep.Models) == 0) {
		return reportExit(stderr, ctx, err)
	}
	if werr := writeEvalReport(con.out, settings, rep, minPass); werr != nil && err == nil {
		err = werr
	}
	if err != nil {
		return reportExit(stderr, ctx, err)
	}
	if !rep.Passed(minPass) {
		return exitError
	}
	return exitOK
}

// writeEvalReport prints the report as --output asks.
func writeEvalReport(w io.Writer, settings *config.Settings, rep host.EvalReport, minPass float64) error {
	if settings.Output == config.OutputJSON {
		return ui.WriteJSON(w, evalJSON(rep, minPass))
	}
	return ui.EvalReport(w, rep)
}

// pullModels pulls the models the engine does not have yet, with the
// pull's progress on a terminal.
func pullModels(ctx context.Context, h *host.Host, models []string, stderr *pipeGuard) error {
	for _, m := range models {
		_, err := h.ShowModel(ctx, m)
		if !errors.Is(err, host.ErrModelNotFound) || !h.CanPull(m) {
			continue // found, or an error that Eval reports
		}
		var progress func(provider.PullProgress)
		done := func() {}
		if ui.IsTerminal(stderr.f) {
			progress, done = ui.PullProgress(stderr, m)
		}
		err = h.Pull(ctx, m, progress)
		done()
		if err != nil {
			return err
		}
	}
	return nil
}

// evalProgress is the progress line on stderr, on a terminal only (and
// not with --quiet).
type evalProgress struct {
	mu    sync.Mutex
	w     io.Writer
	tty   bool
	width int
	shown bool
}

func newEvalProgress(stderr *pipeGuard, quiet bool) *evalProgress {
	tty := ui.IsTerminal(stderr.f) && !quiet
	p := &evalProgress{w: stderr, tty: tty}
	if tty {
		p.width = ui.Width(stderr.f)
	}
	return p
}

// update redraws the line for a run that ended.
func (p *evalProgress) update(r host.EvalRun, done, total int) {
	if !p.tty {
		return
	}
	mark := "✓"
	if !r.Passed {
		mark = "✗"
	}
	line := termtext.Line(fmt.Sprintf("eval %d/%d  %s  %s %s", done, total, r.Model, mark, r.Task))
	if p.width > 1 {
		// One column spare, as the spinner's: a full row leaves the
		// cursor waiting to wrap on some terminals.
		line = ui.Fit(line, p.width-1)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "\r\x1b[K%s", line)
	p.shown = true
}

// clear takes the line away before the report.
func (p *evalProgress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}

// evalRecord is a model's report in --output json.
type evalRecord struct {
	Model      string           `json:"model"`
	Passed     int              `json:"passed"`
	Runs       int              `json:"runs"`
	Tasks      []evalTaskRecord `json:"tasks"`
	Native     int              `json:"native_calls"`
	Recovered  int              `json:"recovered_calls"`
	Repaired   int              `json:"repaired_calls"`
	Rejected   int              `json:"rejected_calls"`
	MeanSteps  float64          `json:"mean_steps"`
	Tokens     int              `json:"tokens"`
	DurationMS int64            `json:"duration_ms"`
	Verdict    string           `json:"verdict"`
}

type evalTaskRecord struct {
	Name     string   `json:"name"`
	Passed   int      `json:"passed"`
	Runs     int      `json:"runs"`
	Failures []string `json:"failures,omitempty"`
}

// evalJSON is the report as --output json prints it.
func evalJSON(rep host.EvalReport, minPass float64) map[string]any {
	models := []evalRecord{}
	for _, m := range rep.Models {
		r := evalRecord{Model: m.Model, Passed: m.Passed, Runs: m.Runs, Native: m.Native, Recovered: m.Recovered,
			Repaired: m.Repaired, Rejected: m.Rejected, MeanSteps: m.MeanSteps, Tokens: m.Tokens,
			DurationMS: m.Duration.Milliseconds(), Verdict: m.Verdict, Tasks: []evalTaskRecord{}}
		for _, t := range m.Tasks {
			r.Tasks = append(r.Tasks, evalTaskRecord{Name: t.Name, Passed: t.Passed, Runs: t.Runs, Failures: t.Failures})
		}
		models = append(models, r)
	}
	return map[string]any{"models": models, "min_pass": minPass, "ok": rep.Passed(minPass)}
}
