package approval

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/runner"
	"github.com/mcphost/mcphost/tool"
)

// Outcome is how a call was decided, as the audit log records it.
type Outcome string

// The outcomes of a call.
const (
	Allowed  Outcome = "allowed"   // a rule, a default or --yolo allowed it
	AskedYes Outcome = "asked-yes" // a human said yes (now or earlier for the session)
	AskedNo  Outcome = "asked-no"  // a human said no
	Denied   Outcome = "denied"    // a deny rule refused it
	Refused  Outcome = "policy"    // it needed a human and none could be asked
	// HookBlocked: a PreToolUse hook blocked it; HookAllowed: a hook
	// allowed it without asking.
	HookBlocked Outcome = "hook-blocked"
	HookAllowed Outcome = "hook-allowed"
)

// The decisions of PreToolUse hooks.
const (
	HookBlock = "block"
	HookAllow = "allow"
	HookAsk   = "ask"
)

// HookVerdict is what the PreToolUse hooks decided about a call: one of
// HookBlock, HookAllow, HookAsk, or "" to leave it to the policy.
type HookVerdict struct {
	Decision string
	Reason   string
	Runs     []HookRun
}

// Hooks are the user's commands around tool calls (package hooks). They
// run after the policy's deny and before its ask: a denied call runs no
// hook; a hook may block a call, allow it without asking, or have it
// asked; after the call, a hook may replace the result the model sees.
type Hooks interface {
	PreToolUse(ctx context.Context, req ask.CallRequest) HookVerdict
	PostToolUse(ctx context.Context, rec Record, res *tool.Result) (*tool.Result, []HookRun)
}

// Record describes one finished tool call, for an Observer.
type Record struct {
	Time time.Time
	// Name is the tool as the model called it; Server and Tool are empty
	// for a name that matches no tool.
	Name, Server, Tool string
	// Arguments are the model's, unmasked: an observer that writes them
	// down masks them first.
	Arguments map[string]any
	Outcome   Outcome
	// Reason is the human's reason for a no, if they gave one.
	Reason string
	// Duration is how long the tool ran; zero when it did not run.
	Duration time.Duration
	// Result and Err are what the tool returned (after any PostToolUse
	// hook); both nil when it did not run.
	Result *tool.Result
	Err    error
	// Hooks are the hooks that ran for the call.
	Hooks []HookRun
}

// HookRun is one hook that ran for a tool call, as the audit log keeps it.
type HookRun struct {
	Event    string  `json:"event"`
	Command  string  `json:"command"`
	ExitCode int     `json:"exit_code"`
	MS       float64 `json:"duration_ms"`
	// Decision is what the hook decided: block, allow, ask, replace (a
	// new result), or empty for none.
	Decision string `json:"decision,omitempty"`
	Reason   string `json:"reason,omitempty"`
	// Problem is why the hook's answer was not used (it failed, timed out
	// or printed something unreadable).
	Problem string `json:"problem,omitempty"`
}

// Observer hears about every call, refused ones included, after it ends.
// It is called from the calls' goroutines, possibly concurrently.
type Observer interface {
	Observe(Record)
}

// ToolInfoSource gives the MCP definition of a tool by the name the model
// sees; servers.Manager implements it.
type ToolInfoSource interface {
	ToolInfo(name string) (tool.Def, bool)
}

// LiveToolInfoSource is a ToolInfoSource that can give a tool's definition
// as its server lists it now: a server whose tools are known only from the
// cache of an earlier run is started (or waited for), and a list the
// server said changed is listed again, first. A call is decided on it, so
// that a cached or outdated definition never loosens approval.
// servers.Manager implements it; an error means the live list could not be
// had, and the tool counts as not read-only.
type LiveToolInfoSource interface {
	ToolInfoSource
	LiveToolInfo(ctx context.Context, name string) (tool.Def, bool, error)
}

// Options configure a Toolbox.
type Options struct {
	Policy Policy
	// Info supplies the annotations the defaults depend on; nil means
	// none are known, so every tool without a rule is asked. When it is a
	// LiveToolInfoSource, calls are decided on the live definitions.
	Info ToolInfoSource
	// Subject, when set, tells which server's data a call of one of
	// mcphost's own tools reaches (the resource tools): such a call is
	// decided by Policy.DecideSubject. ok is false for a call that
	// reaches no one server.
	Subject func(name string, args map[string]any) (sub Subject, ok bool)
	// Builtin reports whether a server is compiled into mcphost; nil
	// means none is.
	Builtin func(server string) bool
	// Asker asks a human; nil means no one can be asked (one-shot and
	// piped runs), so calls that need a human are refused.
	Asker Asker
	// Notice tells the user, once per tool, that a call was refused for
	// lack of someone to ask and how to allow it; nil drops the notice.
	Notice func(string)
	// Observer, if set, hears about every call.
	Observer Observer
	// Hooks, if set, run around every call that is not denied.
	Hooks Hooks
}

// Toolbox applies the approval policy to the calls made through inner.
// It is safe for concurrent use.
type Toolbox struct {
	inner runner.Toolbox
	opts  Options

	// askMu keeps to one question on screen at a time.
	askMu sync.Mutex

	mu       sync.Mutex
	asker    Asker
	session  map[string]bool // tools the user allowed for the session (see sessionKey)
	notified map[string]bool // tools whose refusal the user was told about
}

var _ runner.Toolbox = (*Toolbox)(nil)

// New returns a Toolbox that applies opts to inner.
func New(inner runner.Toolbox, opts Options) *Toolbox {
	if opts.Builtin == nil {
		opts.Builtin = func(string) bool { return false }
	}
	return &Toolbox{
		inner: inner, opts: opts, asker: opts.Asker,
		session: map[string]bool{}, notified: map[string]bool{},
	}
}

// SetAsker sets (or, with nil, removes) who is asked; a chat sets itself
// once it is on screen.
func (t *Toolbox) SetAsker(a Asker) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.asker = a
}

// ForgetSession drops every "yes for this tool this session".
func (t *Toolbox) ForgetSession() {
	t.mu.Lock()
	defer t.mu.Unlock()
	clear(t.session)
}

// Tools lists the inner tools less the denied ones, which the model is
// not told about at all. Only a rule denies, so the runner's call before
// each step matches rules alone, without looking up annotations.
func (t *Toolbox) Tools() []provider.Tool {
	all := t.inner.Tools()
	out := make([]provider.Tool, 0, len(all))
	for _, tool := range all {
		names, _, _ := t.ruleNames(tool.Name)
		if d, _, ok := t.opts.Policy.Match(names...); !ok || d != Deny {
			out = append(out, tool)
		}
	}
	return out
}

// Lookup is the inner Toolbox's.
func (t *Toolbox) Lookup(name string) (server, tool string, ok bool) {
	return t.inner.Lookup(name)
}

// Decide returns the verdict for the tool the model calls name, before
// any session memory.
func (t *Toolbox) Decide(name string) Verdict {
	names, server, ok := t.ruleNames(name)
	var info *tool.Def
	if t.opts.Info != nil {
		if def, ok := t.opts.Info.ToolInfo(name); ok {
			info = &def
		}
	}
	return t.opts.Policy.Decide(info, ok && t.opts.Builtin(server), names...)
}

// ruleNames returns the names rules are matched against for the tool the
// model calls name: name itself and, when it differs, the server's own
// "server__tool"; and the tool's server, when the name is known.
func (t *Toolbox) ruleNames(name string) (names []string, server string, known bool) {
	names = []string{name}
	server, tool, known := t.inner.Lookup(name)
	if own := server + "__" + tool; known && own != name {
		names = append(names, own)
	}
	return names, server, known
}

// Call runs the tool if the policy (or a human) allows it. A refused call
// is not an error: it is a tool result with IsError set, worded for the
// model, so that the loop continues.
func (t *Toolbox) Call(ctx context.Context, name string, args map[string]any) (*tool.Result, error) {
	return t.CallApproved(ctx, name, args, nil)
}

// CallApproved is Call that tells approved (when not nil), on this
// goroutine, that a call held for a question to the user is allowed and
// about to run: the runner times the call from there and shows it
// running again (runner.ApprovalToolbox).
func (t *Toolbox) CallApproved(ctx context.Context, name string, args map[string]any, approved func()) (*tool.Result, error) {
	if approved == nil {
		approved = func() {}
	}
	server, tool, _ := t.inner.Lookup(name)
	rec := Record{Time: time.Now(), Name: name, Server: server, Tool: tool, Arguments: args}
	c := t.decideCall(ctx, name, args)
	v := c.verdict
	if v.Decision != Deny && t.opts.Hooks != nil {
		hv := t.opts.Hooks.PreToolUse(ctx, ask.CallRequest{Name: name, Server: server, Tool: tool, Arguments: args, Why: v.Why})
		rec.Hooks = hv.Runs
		switch hv.Decision {
		case HookBlock:
			rec.Outcome, rec.Reason = HookBlocked, hv.Reason
			return t.refuse(rec, fmt.Sprintf("Not run: a hook of the user's blocked this call to %s: %s", name, hv.Reason))
		case HookAllow:
			rec.Outcome = HookAllowed
			return t.run(ctx, rec)
		case HookAsk:
			v.Decision, v.Why = Ask, "a hook asks for it: "+hv.Reason
		}
	}
	switch v.Decision {
	case Allow:
		rec.Outcome = Allowed
		return t.run(ctx, rec)
	case Deny:
		rec.Outcome = Denied
		return t.refuse(rec, fmt.Sprintf("Not run: %s is denied by the user's approval policy (%s). Do not call it again; continue without it.", name, v.Why))
	}

	t.mu.Lock()
	remembered, asker := t.session[c.key], t.asker
	t.mu.Unlock()
	if remembered {
		rec.Outcome = AskedYes
		return t.run(ctx, rec)
	}
	if asker == nil {
		return t.noOne(rec)
	}
	return t.ask(ctx, asker, rec, c, v, approved)
}

// callDecision is how a call was decided before any hook or person: the
// verdict, the definition it was decided on (nil when unknown) and the
// key of a "yes for this tool" that covers it.
type callDecision struct {
	verdict Verdict
	info    *tool.Def
	key     string
}

// decideCall decides a call on the tool's live definition when no rule
// settles it (see LiveToolInfoSource), and for a resource tool as a call
// to the server it reaches (see Options.Subject).
func (t *Toolbox) decideCall(ctx context.Context, name string, args map[string]any) callDecision {
	names, server, known := t.ruleNames(name)
	c := callDecision{key: name}
	if t.opts.Subject != nil {
		if sub, ok := t.opts.Subject(name, args); ok {
			// A yes to reading one server's resources is not a yes to
			// reading another's.
			c.key = name + "\x00" + sub.Server
			c.verdict = t.opts.Policy.DecideSubject(name, sub)
			c.info = t.info(ctx, name, false)
			return c
		}
	}
	c.verdict = t.opts.Policy.Decide(nil, false, names...)
	settled := t.opts.Policy.rule(names).Decision != ""
	// The definition is wanted for the question too, but only a call that
	// no rule settles waits for a server to list it live.
	c.info = t.info(ctx, name, !settled)
	if !settled {
		c.verdict = t.opts.Policy.Decide(c.info, known && t.opts.Builtin(server), names...)
	}
	c.key = sessionKey(name, c.info)
	return c
}

// info returns the definition of the tool the model calls name; live asks
// for its server's live list (see LiveToolInfoSource). Nil when unknown.
func (t *Toolbox) info(ctx context.Context, name string, live bool) *tool.Def {
	if t.opts.Info == nil {
		return nil
	}
	if src, ok := t.opts.Info.(LiveToolInfoSource); ok && live {
		def, ok, err := src.LiveToolInfo(ctx, name)
		if err != nil || !ok {
			return nil
		}
		return &def
	}
	if def, ok := t.opts.Info.ToolInfo(name); ok {
		return &def
	}
	return nil
}

// sessionKey is what a "yes for this tool this session" is remembered
// under: the tool's name and its definition, so that a tool whose server
// changed its description, annotations or schema since is asked about
// again.
func sessionKey(name string, info *tool.Def) string {
	if info == nil {
		return name
	}
	def := info.Raw
	if len(def) == 0 {
		def, _ = json.Marshal(struct {
			Title, Description string
			Annotations        *tool.Annotations
			Schema             json.RawMessage
		}{info.Title, info.Description, info.Annotations, info.InputSchema})
	}
	sum := sha256.Sum256(def)
	return name + "\x00" + hex.EncodeToString(sum[:8])
}

// noOne refuses a call that needs a person when no one can be asked, and
// tells the user, once per tool, how to allow it.
func (t *Toolbox) noOne(rec Record) (*tool.Result, error) {
	t.notify(rec.Name, rec.Server)
	rec.Outcome = Refused
	return t.refuse(rec, fmt.Sprintf("Not run: %s needs the user's approval, and no one can be asked in this non-interactive run. The user has been told how to allow it. Do not call it again in this run; continue without it.", rec.Name))
}

// ask puts the call to a human, one question at a time.
func (t *Toolbox) ask(ctx context.Context, asker Asker, rec Record, c callDecision, v Verdict, approved func()) (*tool.Result, error) {
	t.askMu.Lock()
	// While this call waited its turn, the user may have said "yes for
	// this tool" to another call of it.
	t.mu.Lock()
	remembered := t.session[c.key]
	t.mu.Unlock()
	if remembered {
		t.askMu.Unlock()
		rec.Outcome = AskedYes
		// The call waited for another question: that wait is not its own.
		approved()
		return t.run(ctx, rec)
	}
	if err := ctx.Err(); err != nil {
		t.askMu.Unlock()
		return nil, err
	}
	info := c.info
	ans, err := asker.Ask(ctx, ask.CallRequest{
		Name: rec.Name, Server: rec.Server, Tool: rec.Tool,
		Arguments: rec.Arguments, Info: info, Why: v.Why,
	})
	if err == nil && ans.Choice == ask.YesSession {
		t.mu.Lock()
		t.session[c.key] = true
		t.mu.Unlock()
	}
	t.askMu.Unlock()
	if errors.Is(err, ask.ErrNoOne) {
		return t.noOne(rec)
	}
	if err != nil {
		rec.Outcome, rec.Err = AskedNo, err
		t.observe(rec)
		return nil, err
	}
	switch ans.Choice {
	case ask.YesOnce, ask.YesSession:
		rec.Outcome = AskedYes
		approved()
		return t.run(ctx, rec)
	}
	rec.Outcome, rec.Reason = AskedNo, ans.Reason
	msg := fmt.Sprintf("Not run: the user refused this call to %s.", rec.Name)
	if ans.Reason != "" {
		msg = fmt.Sprintf("Not run: the user refused this call to %s and said: %s", rec.Name, ans.Reason)
	}
	return t.refuse(rec, msg)
}

// run calls the inner tool and reports the call.
func (t *Toolbox) run(ctx context.Context, rec Record) (*tool.Result, error) {
	start := time.Now()
	res, err := t.inner.Call(ctx, rec.Name, rec.Arguments)
	rec.Duration = time.Since(start)
	if err == nil && t.opts.Hooks != nil {
		var runs []HookRun
		res, runs = t.opts.Hooks.PostToolUse(ctx, rec, res)
		rec.Hooks = append(rec.Hooks, runs...)
	}
	rec.Result, rec.Err = res, err
	t.observe(rec)
	return res, err
}

// refuse reports a call that did not run and returns the model's message.
func (t *Toolbox) refuse(rec Record, msg string) (*tool.Result, error) {
	t.observe(rec)
	return &tool.Result{IsError: true, Content: []tool.Content{{Kind: tool.Text, Text: msg}}}, nil
}

func (t *Toolbox) observe(rec Record) {
	if t.opts.Observer != nil {
		t.opts.Observer.Observe(rec)
	}
}

// notify tells the user, once per tool, how to allow a refused call.
func (t *Toolbox) notify(name, server string) {
	t.mu.Lock()
	first := !t.notified[name]
	t.notified[name] = true
	t.mu.Unlock()
	if first && t.opts.Notice != nil {
		t.opts.Notice(AllowHint(name, server))
	}
}

// AllowHint words how to allow a tool that needed approval in a run that
// could not ask.
func AllowHint(name, server string) string {
	hint := fmt.Sprintf("--allow-tool '%s'", name)
	if server != "" {
		hint += fmt.Sprintf(" (or '%s__*' for every tool of %q)", server, server)
	}
	return fmt.Sprintf("refused %s: it needs approval and this run cannot ask; to allow it, run with %s, or add %q under \"approval: allow:\" in the config file",
		name, hint, name)
}
