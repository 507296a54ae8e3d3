// Package doctor answers "does this model work with my tools?" for
// "mcphost doctor": it checks, in order, the engine (reachable where, from
// which setting, which version), the model (present, capabilities, trained
// context against the window mcphost asks for), tool calling (probed with
// two tools of its own, never the user's), thinking and speed, and each
// configured server (start, tools, token cost, schema problems, whether the
// tools fit their share of the window); then it recommends what follows
// from what it found.
//
// It runs everything through the public host package, as a one-shot run
// does, so that what it measures is what a run gets. The user's servers are
// only started and listed: the probes run on a Host with no servers, no
// hooks, no audit log and no session.
package doctor

import (
	"context"
	"log/slog"
	"strings"
	"sync"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/provider"
)

// Status is how a check came out.
type Status string

// The statuses of a check, as the text output marks them.
const (
	// StatusOK: works (✓).
	StatusOK Status = "ok"
	// StatusWarn: works, with a caveat a recommendation addresses (!).
	StatusWarn Status = "warn"
	// StatusFail: does not work; Fix says what to do (✗).
	StatusFail Status = "fail"
	// StatusUnknown: the engine cannot answer, or an earlier check
	// failed so this one could not run (?). Not a failure.
	StatusUnknown Status = "unknown"
)

// Check is one line of the report.
type Check struct {
	// Name says what was checked: "engine", "model", "capabilities",
	// "context", "tool call", "arguments", "stops", "thinking", "speed",
	// "server NAME", "tool share".
	Name string `json:"name"`
	// OK is false only for a failure (StatusFail).
	OK     bool   `json:"ok"`
	Status Status `json:"status"`
	// Detail is what was found, in words.
	Detail string `json:"detail"`
	// Fix is what to do, for a failure or a caveat.
	Fix string `json:"fix,omitempty"`
	// Model marks the checks of the engine and the model, whose
	// failures exit 3; the others' exit 1.
	Model bool `json:"-"`
}

// Report is what Run found.
type Report struct {
	// Model is the model reference checked; empty when none was given.
	Model string `json:"model"`
	// Checks are the checks, in the order they ran.
	Checks []Check `json:"checks"`
	// Recommendations are what to change, most useful first.
	Recommendations []string `json:"recommendations"`
}

// The exit codes of "mcphost doctor".
const (
	ExitOK    = 0 // nothing is wrong
	ExitOther = 1 // a server, schema or other problem
	ExitModel = 3 // an engine or model problem
)

// ExitCode is the command's exit code for the report: 3 when a check of
// the engine or the model failed, 1 when another failed, 0 otherwise.
func (r Report) ExitCode() int {
	code := ExitOK
	for _, c := range r.Checks {
		switch {
		case c.Status != StatusFail:
		case c.Model:
			return ExitModel
		default:
			code = ExitOther
		}
	}
	return code
}

// Options configure Run.
type Options struct {
	// Settings are the command's, as loaded: the model, its engine, the
	// servers and the generation parameters to check with.
	Settings *config.Settings
	// CacheDir is the tool-list cache's folder, for the servers' Host.
	CacheDir string
	// Logger receives debug logs; nil discards them.
	Logger *slog.Logger
	// ClientVersion is sent to servers as clientInfo.
	ClientVersion string
	// Warn hears the Hosts' warnings that the checks do not say (a
	// project file that redirects an engine), each once; nil drops them.
	Warn func(string)
	// OnCheck hears each check as it is done, for output that shows
	// progress; nil hears nothing.
	OnCheck func(Check)
	// Compare is how many other models of the engine to probe when the
	// model fails the tool-calling probe; 0 means DefaultCompare, a
	// negative value none.
	Compare int
}

// DefaultCompare bounds the other models probed when the model fails the
// tool-calling probe: each probe is a few model calls and, on Ollama, a
// model load.
const DefaultCompare = 3

// doctor is one run.
type doctor struct {
	opts Options
	s    *config.Settings
	rep  Report
	// engine and model are the parts of the model reference (engine
	// "ollama" without a model).
	engine, model string
	// listed are the models the engine listed; nil when it could not.
	listed []provider.ModelInfo
	// info is what the engine said about the model, once found.
	info provider.ModelInfo
	// window is the context window mcphost asks for; 0 when unknown.
	window int
	// temperature is the one the model runs with; nil when left to the
	// engine.
	temperature *float64
	// probe is the tool-calling probe's outcome, nil when it did not run.
	probe *probeResult
	// thinkOff is how asking the model not to think came out.
	thinkOff Status
	// toolTokens is what all the servers' tools cost; toolsFit whether
	// that is within the share.
	toolTokens int
	toolsFit   Status

	warnMu sync.Mutex
	warned map[string]bool
	// mask hides the config's secrets (keys, headers) in what engines
	// and servers said; set by the first Host made.
	mask func(string) string
}

// Run runs the checks. It returns ctx's error when interrupted, with the
// checks done so far.
func Run(ctx context.Context, opts Options) (Report, error) {
	d := &doctor{opts: opts, s: opts.Settings}
	if d.opts.Compare == 0 {
		d.opts.Compare = DefaultCompare
	}
	d.rep.Model = strings.TrimSpace(d.s.Model)
	if d.checkEngine(ctx) && d.checkModel(ctx) && ctx.Err() == nil {
		if d.info.Has(provider.CapabilityTools) {
			d.checkToolCalling(ctx)
		} else {
			d.add(Check{Name: "tool call", Status: StatusFail, Model: true, Detail: "not probed: the engine says the model has no tools capability, so it is never given tools",
				Fix: "pick a model with tools: see the recommendations"})
		}
		if ctx.Err() == nil {
			d.checkThinking(ctx)
		}
	}
	if ctx.Err() == nil {
		d.checkServers(ctx)
	}
	if ctx.Err() == nil {
		d.recommend(ctx)
	}
	if d.rep.Recommendations == nil {
		d.rep.Recommendations = []string{}
	}
	return d.rep, ctx.Err()
}

// add records a check and tells OnCheck.
func (d *doctor) add(c Check) {
	c.OK = c.Status != StatusFail
	if d.mask != nil {
		c.Detail, c.Fix = d.mask(c.Detail), d.mask(c.Fix)
	}
	d.rep.Checks = append(d.rep.Checks, c)
	if d.opts.OnCheck != nil {
		d.opts.OnCheck(c)
	}
}

// advise adds a recommendation.
func (d *doctor) advise(text string) {
	d.rep.Recommendations = append(d.rep.Recommendations, text)
}

// quiet swallows the servers' Host's warnings: a server that could not
// start is a check of its own.
func quiet(string) {}

// warn passes a Host's warning on (a project file that redirects an
// engine, a model without tools), once however many Hosts say it.
func (d *doctor) warn(msg string) {
	d.warnMu.Lock()
	defer d.warnMu.Unlock()
	if d.warned[msg] || d.opts.Warn == nil {
		return
	}
	if d.warned == nil {
		d.warned = map[string]bool{}
	}
	d.warned[msg] = true
	d.opts.Warn(msg)
}

// hostOptions are the options of every Host but the servers': warnings
// passed on, the Host's secrets noted for masking.
func (d *doctor) hostOptions(c *config.Settings) host.Options {
	return host.Options{Config: c, Logger: d.opts.Logger, Warn: d.warn, ClientVersion: d.opts.ClientVersion}
}

// probeSettings are the settings of a Host that probes the model: the
// user's model, engine and generation parameters, and nothing that could
// reach the user's tools or leave a trace (servers, hooks, audit log,
// session), with every tool offered.
func probeSettings(s *config.Settings, model string) *config.Settings {
	c := *s
	c.Model = model
	c.Servers, c.Adhoc = nil, nil
	c.Hooks, c.NoHooks = config.Hooks{}, true
	c.Audit, c.Session = "", ""
	c.Approval, c.Yolo = config.Approval{}, false
	c.EmbedModel, c.ToolShare = "", 0
	c.Prompt, c.MCPPrompt, c.PromptArgs = "", "", nil
	c.MaxSteps = probeSteps
	// The model was pulled, if at all, by the model check.
	c.Pull = false
	return &c
}

// probeSteps bounds a probe's model calls: one call, one answer, and room
// to see that a model does not stop.
const probeSteps = 4
