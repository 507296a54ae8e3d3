package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcphost/mcphost/internal/budget"
	"github.com/mcphost/mcphost/internal/termtext"
	"github.com/mcphost/mcphost/internal/toolcall"
	"github.com/mcphost/mcphost/internal/toolselect"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/tool"
)

// DefaultMaxSteps bounds the number of tool-calling model calls in one run.
const DefaultMaxSteps = 20

// Defaults of Options.MaxParallelTools and Options.MaxToolCalls: a model
// that asks for hundreds of calls at once must not start hundreds of
// processes or requests.
const (
	DefaultMaxParallelTools = 8
	DefaultMaxToolCalls     = 32
)

// tooManyCalls is the result of the calls of one message past
// MaxToolCalls, which are not run.
const tooManyCalls = "Not run: this message asked for %d tool calls and at most %d run per message. Make fewer calls at once, and call again the ones you still need."

// LoopLimit is how many times in a row the model may make the same call
// with the same arguments; the last of them is not run, and the model is
// asked to answer with what it has.
const LoopLimit = 3

// ErrMaxSteps is returned, wrapped, when a Run had to stop the model from
// calling tools: it was still calling them after MaxSteps model calls, or
// it repeated the same call (ErrLoop, which errors.Is also matches as
// ErrMaxSteps). Either way the model was then asked once more, without
// tools, for a final answer, and the Result returned with the error holds
// that answer.
var ErrMaxSteps = errors.New("stopped after the maximum number of steps")

// ErrLoop is returned, wrapped, when the model made the same call with the
// same arguments LoopLimit times in a row. errors.Is(err, ErrMaxSteps) is
// true for it as well: both mean "stopped, with a final answer".
var ErrLoop error = loopError{}

type loopError struct{}

func (loopError) Error() string        { return "stopped a repeated tool call" }
func (loopError) Is(target error) bool { return target == ErrMaxSteps }

// finalPrompt is sent, after the history, with the last model call of a
// Run that had to stop calling tools. It is not kept in the history.
const finalPrompt = "You cannot call tools any more. Answer the user's request now, using the tool results above; say what is still missing if they are not enough."

// loopResult is what the model gets instead of running a call it repeated.
const loopResult = "Not run: this is the %s time in a row you made this exact call (same tool, same arguments); its result will not change. Stop calling tools and answer with what you have."

// Toolbox is what the runner needs from the MCP side: the tools to offer and
// a way to call one by the name the model sees. The MCP manager implements
// it; tests may hand in anything else.
type Toolbox interface {
	// Tools lists the tools the model may call, with their exposed names.
	// Parameters is each tool's input schema as its server published it;
	// the runner normalises it for the model and validates arguments
	// against the original.
	Tools() []provider.Tool
	// Call runs a tool by its exposed name.
	Call(ctx context.Context, name string, args map[string]any) (*tool.Result, error)
	// Lookup maps an exposed name back to its server and the server's own
	// tool name.
	Lookup(name string) (server, tool string, ok bool)
}

// ApprovalToolbox is a Toolbox that may hold a call for a person's
// approval (mcphost's approval layer is one). The runner calls
// CallApproved instead of Call; approved is called, on the calling
// goroutine, when a held call is allowed and about to run, and the runner
// then sends ToolCallApproved and times the call from there, so that the
// time the person took to answer is not the tool's.
type ApprovalToolbox interface {
	Toolbox
	CallApproved(ctx context.Context, name string, args map[string]any, approved func()) (*tool.Result, error)
}

// ToolCall is a tool call as the runner dispatched it.
type ToolCall = provider.ToolCall

// Options configure a Runner.
type Options struct {
	// Model is what the provider is asked for, and what it reported about
	// itself (capabilities, context length).
	Model provider.ModelInfo
	// SystemPrompt starts every conversation when not empty.
	SystemPrompt string
	// MaxSteps bounds the tool-calling model calls of one Run; 0 means
	// DefaultMaxSteps. One more call, without tools, asks for the final
	// answer when the limit is reached.
	MaxSteps int
	// NumCtx caps the context window asked for: the window is the
	// model's trained length (Model.ContextLength) when that is smaller,
	// so a switch to another model (SetModel) gets its own window. 0 asks
	// for the model's trained length; with that unknown too, the backend
	// default is left and history trimming, which needs it, is off.
	NumCtx int
	// ResultBudget caps the bytes of one tool result sent to the model;
	// a longer result is cut in the middle with a visible marker. 0 means
	// DefaultResultBudget of the window; a negative value means no cap.
	ResultBudget int
	// Generation are the generation parameters sent with every model call.
	Generation provider.GenerationOptions
	// MaxParallelTools is how many tool calls of one model message run at
	// once; the others wait their turn. 0 means DefaultMaxParallelTools.
	MaxParallelTools int
	// MaxToolCalls is how many tool calls of one model message run at
	// all; each call past it gets an error result the model reads. 0
	// means DefaultMaxToolCalls.
	MaxToolCalls int
	// Limits bound every model call: the size of a reply and how long the
	// engine may stay silent (zero fields: the provider's defaults).
	Limits provider.Limits
	// ToolShare is the share of the context window the tools may take
	// (0.25: a quarter). When every tool would take more, each request
	// offers the tools the prompt names, those called earlier in the
	// conversation and the best matches for the prompt, as many as fit
	// in the share, and a search tool (SearchToolName) that finds the
	// others; ToolsSelected says which. 0 offers every tool, always.
	ToolShare float64
	// Embedder, when not nil, ranks tools by the meaning of the request
	// as well as by its words, when only some are offered (see package
	// toolselect). If it fails, the ranking falls back to words alone
	// for the rest of the conversation, with a warning.
	Embedder toolselect.Embedder
	// Think, when not nil, says whether the model should think: false
	// asks it not to (provider.Request.NoThink), true lets a model with
	// the thinking capability think. nil leaves it to the model.
	Think *bool
}

// ContextWindow is the num_ctx to ask for a model: its trained length,
// capped by limit (0: no cap); limit when the length is unknown. A window
// the engine fixed (ModelInfo.FixedContext) is the window, whatever limit
// says: no request can change it.
func ContextWindow(m provider.ModelInfo, limit int) int {
	if m.ContextLength > 0 && (m.FixedContext || limit == 0 || m.ContextLength < limit) {
		return m.ContextLength
	}
	return limit
}

// DefaultResultBudget is the result cap for a context window of numCtx
// tokens: about half the window (two bytes per token of it, at roughly
// four bytes per token), or 32 KB when the window is unknown.
func DefaultResultBudget(numCtx int) int {
	if numCtx <= 0 {
		return 32 << 10
	}
	return max(2*numCtx, 2048)
}

// Runner holds a conversation with one model and the tools it may use.
// A Runner is not safe for concurrent Runs.
type Runner struct {
	provider provider.Provider
	tools    Toolbox
	opts     Options
	history  []provider.Message

	// prepared is the toolbox's list made ready for the model, rebuilt
	// when the list changes.
	prepared *toolSet
	// estimator turns raw token estimates into corrected ones; msgTokens
	// caches the raw estimate of each history message.
	estimator budget.Estimator
	msgTokens []int
	// warnedTools is set once the tools-take-half-the-window warning went
	// out; dropped is how many messages the last request left out.
	warnedTools bool
	dropped     int
	// callSeq numbers calls recovered from text, which have no ID.
	callSeq int
	// markers index the call markers streamed text is held back at.
	markers *[256][]string
	// called holds the tools called in the conversation, read from the
	// history up to calledSeen; embedFailed is set once the embedding
	// model failed.
	called      map[string]bool
	calledSeen  int
	embedFailed bool
	// search is the search tool's name while the current step offers
	// it, empty otherwise.
	search string
	// sent names the tools of the last request, in the order sent: the
	// next request keeps them in place (see offer). cacheable is set once
	// a request was answered in this conversation with this model: the
	// engine's prompt cache then holds it.
	sent      []string
	cacheable bool
}

// New returns a Runner with an empty conversation. tools may be nil.
func New(p provider.Provider, tools Toolbox, opts Options) *Runner {
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = DefaultMaxSteps
	}
	if opts.MaxParallelTools <= 0 {
		opts.MaxParallelTools = DefaultMaxParallelTools
	}
	if opts.MaxToolCalls <= 0 {
		opts.MaxToolCalls = DefaultMaxToolCalls
	}
	r := &Runner{provider: p, tools: tools, opts: opts, markers: markerIndex()}
	r.Reset()
	return r
}

// Reset starts a new conversation (keeping the system prompt).
func (r *Runner) Reset() {
	r.history = r.history[:0]
	if r.opts.SystemPrompt != "" {
		r.history = append(r.history, provider.Message{Role: provider.RoleSystem, Content: r.opts.SystemPrompt})
	}
	r.msgTokens, r.dropped = r.msgTokens[:0], 0
	r.cacheable = false
	r.forgetCalls()
}

// History returns a copy of the conversation so far, including turns left
// out of requests to fit the context window.
func (r *Runner) History() []provider.Message {
	return append([]provider.Message(nil), r.history...)
}

// SetHistory replaces the conversation, for sessions loaded from a file.
func (r *Runner) SetHistory(msgs []provider.Message) {
	r.history = append(r.history[:0], msgs...)
	r.msgTokens, r.dropped = r.msgTokens[:0], 0
	r.cacheable = false
	r.forgetCalls()
}

// Model returns what the runner knows about its model.
func (r *Runner) Model() provider.ModelInfo { return r.opts.Model }

// SetModel switches the model for the following turns; the history stays.
// The token estimate's correction is dropped: it was learnt from the old
// model's tokenizer.
func (r *Runner) SetModel(m provider.ModelInfo) {
	r.opts.Model = m
	r.estimator = budget.Estimator{}
	r.cacheable = false
}

// SetGeneration changes the generation parameters of the following calls
// (another model may have its own).
func (r *Runner) SetGeneration(s provider.GenerationOptions) { r.opts.Generation = s }

// SetThink changes whether the following calls ask the model to think
// (see Options.Think).
func (r *Runner) SetThink(think *bool) { r.opts.Think = think }

// Think returns whether the calls ask the model to think; nil: the model
// decides.
func (r *Runner) Think() *bool { return r.opts.Think }

// Generation returns the generation parameters sent with each call.
func (r *Runner) Generation() provider.GenerationOptions { return r.opts.Generation }

// window is the context window asked of the current model.
func (r *Runner) window() int { return ContextWindow(r.opts.Model, r.opts.NumCtx) }

// resultBudget is the cap on one tool result for the current model.
func (r *Runner) resultBudget() int {
	if r.opts.ResultBudget != 0 {
		return r.opts.ResultBudget
	}
	return DefaultResultBudget(r.window())
}

// Result summarises one Run.
type Result struct {
	// Answer is the model's final text.
	Answer string
	// Steps is the number of model calls made.
	Steps int
	// ToolCalls lists every call made, in order, refused ones included.
	ToolCalls []ToolCallFinished
	// Usage adds up the token counts of all model calls.
	Usage provider.Usage
	// Recovered, Repaired and Rejected count the calls found written as
	// text, the calls whose arguments were repaired, and the calls not sent
	// to a server (unknown tool, invalid arguments, loop).
	Recovered, Repaired, Rejected int
	// Empty is true when the model's final answer had no text (a Warning
	// starting with EmptyAnswer said so, and why when that is known).
	Empty bool
}

// EmptyAnswer starts the Warning sent when the model's final answer has
// no text.
const EmptyAnswer = "the model returned an empty answer"

// emptyWarning says that the model answered nothing, and why when the
// reply tells: it stopped at its length limit, it only thought, or it
// wrote tokens the engine did not pass on (a tool call the engine's parser
// dropped, typically of a tool that was not offered).
func emptyWarning(resp provider.Response, toolsOffered bool) string {
	switch {
	case resp.DoneReason == "length":
		return EmptyAnswer + ": it reached its length limit before writing any (raise --max-tokens, or ask it not to think)"
	case strings.TrimSpace(resp.Message.Thinking) != "":
		return EmptyAnswer + ": it only thought, and wrote no answer; ask again, or try --think=false"
	case resp.Usage.CompletionTokens > 1 && toolsOffered:
		return fmt.Sprintf("%s: it wrote %d tokens the engine did not pass on, most likely a call to a tool that was not offered", EmptyAnswer, resp.Usage.CompletionTokens)
	case resp.Usage.CompletionTokens > 1:
		return fmt.Sprintf("%s: it wrote %d tokens the engine did not pass on, most likely a tool call while no tools were offered", EmptyAnswer, resp.Usage.CompletionTokens)
	}
	return EmptyAnswer
}

// cutWarning says that the engine counted a prompt of the window's full
// size: it cut the prompt to fit, losing its start.
func cutWarning(counted int, estimated string) string {
	return fmt.Sprintf("the engine cut the prompt: it counted %s tokens, its whole window (mcphost estimated %s), so the start was lost (the system prompt, the tools, perhaps the question): raise --num-ctx or send less",
		thousands(counted), estimated)
}

// Run adds prompt to the conversation as a user message and runs the loop
// until the model answers without calling tools. emit receives the events
// of the run, one at a time, Finished last; it may be nil.
//
// When the model has to be stopped (MaxSteps, or the same call LoopLimit
// times in a row), it is asked once more without tools for a final answer;
// Run then returns that answer in the Result together with an error that
// matches ErrMaxSteps.
//
// On error the history keeps what happened up to the failure, so a chat can
// go on after a cancelled turn.
//
// Each model request starts as the one before it did, so that a local
// engine, which reuses its prompt cache only for the unchanged start of a
// request, evaluates only what is new: the same system prompt, the tools
// in the same order with new ones (named, found by the search tool,
// called) appended, and the same earlier messages. A turn breaks this
// only when the window forces it (HistoryTrimmed at a Step past 1); the
// next turn keeps the tools while they fit beside its own picks, and
// drops the least relevant of them when they do not.
func (r *Runner) Run(ctx context.Context, prompt string, emit func(Event)) (Result, error) {
	return r.RunMessages(ctx, []provider.Message{{Role: provider.RoleUser, Content: prompt}}, emit)
}

// RunMessages is Run with messages instead of a prompt: they are added to
// the conversation as they are (the user and assistant messages of an MCP
// prompt, a user message with images attached), then the model is called.
func (r *Runner) RunMessages(ctx context.Context, msgs []provider.Message, emit func(Event)) (Result, error) {
	if emit == nil {
		emit = func(Event) {}
	}
	res, err := r.run(ctx, msgs, emit)
	emit(Finished{Result: res, Err: err})
	return res, err
}

// run is RunMessages without its Finished event.
func (r *Runner) run(ctx context.Context, in []provider.Message, emit func(Event)) (Result, error) {
	before := len(r.history)
	r.history = append(r.history, in...)
	// Tools are selected for what the user's messages ask.
	var asked []string
	for _, m := range in {
		if m.Role == provider.RoleUser {
			asked = append(asked, m.Content)
		}
	}
	prompt := strings.Join(asked, "\n")
	var (
		res   Result
		stop  error // set once the model must answer without tools
		guard loopGuard
		turn  = r.newTurnSelection(prompt)
	)
	for step := 1; ; step++ {
		ts := r.toolSet()
		if stop == nil && step > r.opts.MaxSteps {
			stop = fmt.Errorf("%w (%d): the model kept calling tools and was asked to answer with what it had; raise --max-steps to allow more", ErrMaxSteps, r.opts.MaxSteps)
			emit(FinalAnswerRequested{Reason: fmt.Sprintf("the step limit (%d) was reached", r.opts.MaxSteps)})
		}
		var (
			tools      []provider.Tool
			toolTokens int
		)
		r.search = ""
		prevSent := r.sent
		if stop == nil && r.tools != nil && r.opts.Model.Has(provider.CapabilityTools) {
			tools, toolTokens, r.search = r.offer(ctx, ts, turn, step, emit)
		}
		r.warnTools(tools, toolTokens, ts, emit)
		// The engine's prompt cache holds the previous request: while
		// this one starts with the same tools, it keeps out the messages
		// that one kept out too.
		keep := r.cacheable && (tools != nil || len(prevSent) == 0) && startsWith(tools, prevSent)
		msgs, raw, err := r.fit(tools, toolTokens, step, keep, emit)
		if err != nil {
			var tl *PromptTooLargeError
			if errors.As(err, &tl) {
				tl.Step = step
			}
			if step == 1 {
				// Nothing was sent: the conversation is as it was, and
				// the user may send the prompt again, shorter.
				r.history = r.history[:before]
				r.msgTokens = r.msgTokens[:min(len(r.msgTokens), before)]
			}
			res.Steps = step - 1
			return res, err
		}
		if stop != nil {
			msgs = append(msgs[:len(msgs):len(msgs)], provider.Message{Role: provider.RoleUser, Content: finalPrompt})
			raw += budget.Message(msgs[len(msgs)-1])
		}
		started := ModelCallStarted{Step: step, Tools: len(tools), EstimatedTokens: r.estimator.Tokens(raw), ContextWindow: r.window()}
		if tools != nil {
			started.Offered = toolNames(tools)
			if r.search != "" {
				started.Ranker = turn.ranker
			}
		}
		emit(started)
		// partial keeps the text the user was shown, so that an answer
		// cut short stays in the conversation (see keepInterrupted); text
		// held back as a possible tool call was not shown and is not kept.
		var partial strings.Builder
		hold := newHoldback(func(ev Event) {
			if d, ok := ev.(TextDelta); ok {
				partial.WriteString(d.Text)
			}
			emit(ev)
		}, tools != nil, r.markers)
		resp, err := r.provider.Chat(ctx, provider.Request{
			Model:      r.opts.Model.Name,
			Messages:   msgs,
			Tools:      tools,
			NumCtx:     r.window(),
			Think:      r.opts.Model.Has(provider.CapabilityThinking) && (r.opts.Think == nil || *r.opts.Think),
			NoThink:    r.opts.Think != nil && !*r.opts.Think,
			Limits:     r.opts.Limits,
			Generation: r.opts.Generation,
		}, hold.delta)
		res.Steps = step
		if err != nil {
			if ctx.Err() != nil {
				r.keepInterrupted(partial.String())
			}
			return res, err
		}
		r.cacheable = true
		r.estimator.Observe(raw, resp.Usage.PromptTokens, r.window())
		cut := budget.Truncated(resp.Usage.PromptTokens, r.window())
		if cut {
			emit(Warning{Message: cutWarning(resp.Usage.PromptTokens, thousands(r.estimator.Tokens(raw)))})
		}
		res.Usage = res.Usage.Add(resp.Usage)
		msg := resp.Message
		msg.Role = provider.RoleAssistant

		if stop != nil {
			// Asked without tools, a model cannot call any; calls it
			// makes anyway would stand unanswered in the history.
			msg.ToolCalls = nil
		}
		recovered, format := false, ""
		if len(msg.ToolCalls) == 0 && tools != nil {
			msg, format = r.recoverCalls(msg, ts)
			recovered = format != ""
		}
		hold.finish(msg.Content, recovered)
		var plan []dispatch
		if len(msg.ToolCalls) > 0 {
			plan = r.plan(msg.ToolCalls, ts, recovered, &guard)
			for i, d := range plan {
				if d.rejected == "" {
					// The history shows the call as it ran, so the model
					// sees a correct call next to its result.
					msg.ToolCalls[i] = d.call
				}
			}
		}
		r.history = append(r.history, msg)
		finished := ModelCallFinished{Step: step, Message: msg, Usage: resp.Usage, ToolCalls: len(msg.ToolCalls), PromptCut: cut}
		if recovered {
			finished.Recovered, finished.Format = len(msg.ToolCalls), format
			res.Recovered += len(msg.ToolCalls)
		}
		emit(finished)

		if len(msg.ToolCalls) == 0 {
			res.Answer = msg.Content
			if strings.TrimSpace(msg.Content) == "" {
				res.Empty = true
				emit(Warning{Message: emptyWarning(resp, tools != nil)})
			}
			return res, stop
		}
		for _, f := range r.callTools(ctx, plan, emit, &res, func(query string) ToolOutput {
			return r.searchTools(ctx, ts, turn, query, emit)
		}) {
			res.ToolCalls = append(res.ToolCalls, f.event)
			r.history = append(r.history, f.message)
		}
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if guard.tripped != "" {
			stop = fmt.Errorf("%w: the model called %s %d times in a row with the same arguments and was asked to answer with what it had", ErrLoop, guard.tripped, LoopLimit)
			emit(FinalAnswerRequested{Reason: fmt.Sprintf("%s was called %d times in a row with the same arguments", guard.tripped, LoopLimit)})
		}
	}
}

// startsWith reports whether tools start with the tools named prev, in
// that order.
func startsWith(tools []provider.Tool, prev []string) bool {
	if len(tools) < len(prev) {
		return false
	}
	for i, name := range prev {
		if tools[i].Name != name {
			return false
		}
	}
	return true
}

// recoverCalls looks for tool calls written as text in a reply without
// native ones. They count only when every name names real tools: one, or
// several (ambiguous, which the model is then told); a name that matches
// no tool, or arguments that are a tool's definition, leave the whole
// reply as text. A reply with no text at all may hold its call at the end
// of its thinking: reasoning models write it there and stop. The format
// returned names how the calls were written; "" when none were recovered.
func (r *Runner) recoverCalls(msg provider.Message, ts *toolSet) (provider.Message, string) {
	cands, rest := toolcall.Extract(msg.Content)
	if len(cands) == 0 {
		if strings.TrimSpace(msg.Content) != "" || msg.Thinking == "" {
			return msg, ""
		}
		if cands, _ = toolcall.Extract(msg.Thinking); len(cands) == 0 {
			return msg, ""
		}
		rest = ""
	}
	calls := make([]provider.ToolCall, len(cands))
	for i, c := range cands {
		args := c.Arguments
		name, err := ts.catalog.Resolve(c.Name)
		switch {
		case r.search != "" && err != nil && isSearchCall(c.Name, r.search):
		case err != nil:
			var ne *toolcall.NameError
			if !errors.As(err, &ne) || len(ne.Matches) == 0 {
				return msg, ""
			}
		default:
			schema := ts.byName[name].schema
			if c.Text {
				args = schema.TypeText(args)
			}
			if schema.IsDefinition(args) {
				return msg, ""
			}
		}
		r.callSeq++
		calls[i] = provider.ToolCall{ID: "recovered_" + strconv.Itoa(r.callSeq), Name: c.Name, Arguments: args}
	}
	msg.Content = rest
	msg.ToolCalls = calls
	return msg, cands[0].Format
}

// dispatch is one call of a model turn, checked and ready to run.
type dispatch struct {
	call      provider.ToolCall // as it runs: exposed name, repaired arguments
	asked     provider.ToolCall // as the model wrote it
	server    string
	tool      string
	recovered bool
	repairs   []string
	// rejected, when not empty, is the result the model gets instead of
	// running the call.
	rejected string
	// search is set for a call of the search tool, which the runner
	// answers itself.
	search string
}

// loopGuard notices the same call made LoopLimit times in a row.
type loopGuard struct {
	lastName, lastArgs string
	count              int
	tripped            string // the tool's name once tripped
}

// see records a call and returns how many times in a row it has now been
// made, when that is LoopLimit or more: such a call must not run, and
// neither must further copies of it in the same turn.
func (g *loopGuard) see(name string, args map[string]any) int {
	if name != g.lastName {
		g.lastName, g.lastArgs, g.count = name, "", 0
	}
	b, _ := json.Marshal(args) // map keys marshal sorted: a canonical form
	if g.count > 0 && string(b) == g.lastArgs {
		g.count++
	} else {
		g.lastArgs, g.count = string(b), 1
	}
	if g.count < LoopLimit {
		return 0
	}
	if g.tripped == "" {
		g.tripped = name
	}
	return g.count
}

// plan resolves names, checks arguments and applies the loop guard to the
// calls of one turn, in order, without running anything.
func (r *Runner) plan(calls []provider.ToolCall, ts *toolSet, recovered bool, guard *loopGuard) []dispatch {
	out := make([]dispatch, len(calls))
	for i, c := range calls {
		d := dispatch{call: c, asked: c, recovered: recovered}
		if d.call.Arguments == nil {
			d.call.Arguments = map[string]any{}
		}
		if i >= r.opts.MaxToolCalls {
			d.rejected = fmt.Sprintf(tooManyCalls, len(calls), r.opts.MaxToolCalls)
			out[i] = d
			continue
		}
		name, err := ts.catalog.Resolve(c.Name)
		switch {
		case r.search != "" && err != nil && isSearchCall(c.Name, r.search):
			// Answered by the runner, never sent to the toolbox (or its
			// approval): it only reads the tool list.
			d.call.Name, d.server, d.tool = r.search, "mcphost", "search_tools"
			if q, ok := searchQuery(d.call.Arguments); ok {
				d.search = q
			} else {
				d.rejected = fmt.Sprintf(`%s needs the argument "query": what you need to do, in a few words, e.g. {"query": "read a file"}`, r.search)
			}
		case err != nil:
			d.rejected = err.Error()
		default:
			e := ts.byName[name]
			d.call.Name, d.server, d.tool = name, e.server, e.tool
			fixed, repairs, err := e.schema.Check(name, c.Arguments)
			if err != nil {
				d.rejected = err.Error()
			} else {
				d.call.Arguments, d.repairs = fixed, repairs
			}
		}
		if n := guard.see(d.call.Name, d.call.Arguments); n > 0 {
			d.rejected = fmt.Sprintf(loopResult, ordinal(n))
		}
		out[i] = d
	}
	return out
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "first"
	case 2:
		return "second"
	case 3:
		return "third"
	}
	return strconv.Itoa(n) + "th"
}

type finishedCall struct {
	event   ToolCallFinished
	message provider.Message
}

// callTools runs the planned calls of one model turn concurrently, at
// most MaxParallelTools at a time, and returns their results in call
// order, which is the order the model expects them back. Refused calls
// get their refusal as the result; search calls, search's answer.
func (r *Runner) callTools(ctx context.Context, plan []dispatch, emit func(Event), res *Result, search func(query string) ToolOutput) []finishedCall {
	slots := make(chan struct{}, r.opts.MaxParallelTools)
	var emitMu sync.Mutex
	send := func(e Event) {
		emitMu.Lock()
		defer emitMu.Unlock()
		emit(e)
	}
	out := make([]finishedCall, len(plan))
	var wg sync.WaitGroup
	for i, d := range plan {
		requested := ""
		if d.asked.Name != d.call.Name {
			requested = d.asked.Name
		}
		if len(d.repairs) > 0 && d.rejected == "" {
			res.Repaired++
			send(ToolCallRepaired{Call: d.call, Repairs: d.repairs, Total: res.Repaired})
		}
		if d.rejected != "" {
			res.Rejected++
			send(ToolCallRejected{Call: d.asked, Reason: d.rejected, Total: res.Rejected})
		}
		send(ToolCallStarted{Call: d.call, Server: d.server, Tool: d.tool, Requested: requested, Recovered: d.recovered, Repairs: d.repairs})
		// A search runs here, not beside the other calls: it changes what
		// the turn offers next, which only the run's goroutine touches.
		var searched *ToolOutput
		var searchTime time.Duration
		if d.search != "" && d.rejected == "" {
			start := time.Now()
			out := search(d.search)
			searched, searchTime = &out, time.Since(start)
		}
		wg.Go(func() {
			var content ToolOutput
			start := time.Now()
			switch {
			case d.rejected != "":
				content = ToolOutput{Text: d.rejected, IsError: true}
			case searched != nil:
				content = *searched
			default:
				select {
				case slots <- struct{}{}:
					start = time.Now() // the wait for a slot is not the call's
					// The servers report progress on the call's context,
					// never after it returns.
					pctx := tool.WithProgress(ctx, func(p tool.Progress) {
						send(ToolProgress{Call: d.call, Server: d.server, Tool: d.tool, Progress: p.Progress, Total: p.Total,
							Message: termtext.Line(p.Message), Status: p.Status})
					})
					// Nor is the wait for the user's approval: the call
					// is timed from the answer. The approval layer calls
					// this on this goroutine, inside callOne.
					content = r.callOne(pctx, d.call, func() {
						start = time.Now()
						send(ToolCallApproved{Call: d.call, Server: d.server, Tool: d.tool})
					})
					<-slots
				case <-ctx.Done():
					content = ToolOutput{Text: "the call was cancelled by the user", IsError: true}
				}
			}
			fin := ToolCallFinished{
				Call: d.call, Server: d.server, Tool: d.tool,
				Requested: requested, Recovered: d.recovered, Repairs: d.repairs,
				Duration: time.Since(start) + searchTime,
				IsError:  content.IsError,
				Rejected: d.rejected != "",
				Output:   content.Text,
			}
			send(fin)
			out[i] = finishedCall{event: fin, message: provider.Message{
				Role:       provider.RoleTool,
				Content:    content.Text,
				ToolName:   d.call.Name,
				ToolCallID: d.call.ID,
				IsError:    content.IsError,
				Images:     content.Images,
			}}
		})
	}
	wg.Wait()
	return out
}

func (r *Runner) callOne(ctx context.Context, call provider.ToolCall, approved func()) ToolOutput {
	var result *tool.Result
	var err error
	if at, ok := r.tools.(ApprovalToolbox); ok {
		result, err = at.CallApproved(ctx, call.Name, call.Arguments, approved)
	} else {
		result, err = r.tools.Call(ctx, call.Name, call.Arguments)
	}
	if err != nil {
		if ctx.Err() != nil {
			return ToolOutput{Text: "the call was cancelled by the user", IsError: true}
		}
		return ToolOutput{Text: budget.Cut(termtext.Clean(err.Error()), r.resultBudget()), IsError: true}
	}
	out := ConvertResult(result, r.opts.Model.Has(provider.CapabilityVision))
	out.Text = budget.Cut(termtext.Clean(out.Text), r.resultBudget())
	return out
}
