package host

import (
	"context"
	"errors"
	"io/fs"
	"iter"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcphost/mcphost/internal/session"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/runner"
)

// Conversation is one conversation with the Host's model: its history, and
// the turns that add to it. It runs one turn at a time; see the package
// doc for what is safe to call concurrently.
type Conversation struct {
	h *Host
	// turn is held for the whole of a turn, so turns run one at a time,
	// and by every method that reads or changes r.
	turn sync.Mutex
	r    *runner.Runner
	// model is r's model, readable during a turn (by an approval
	// question, say).
	model atomic.Pointer[provider.ModelInfo]
	// engine is the backend r calls, switched by SetModel.
	engine *switchable
	// last is the last turn's start, for Undo and Retry; guarded by turn.
	last lastTurn
	// paused counts the turn's events being handled by the program's
	// callback: the turn waits for it, so History may read the history
	// (a callback asking for it must not wait for its own turn). Guarded
	// by pauseMu, which the turn needs to go on.
	pauseMu sync.Mutex
	paused  int
}

// switchable is the backend of a conversation: the runner calls it, and
// SetModel points it at another engine's backend between turns.
type switchable struct {
	p atomic.Pointer[provider.Provider]
}

func newSwitchable(p provider.Provider) *switchable {
	s := &switchable{}
	s.p.Store(&p)
	return s
}

// get is the backend; nil while the conversation has no model (a Host
// made without one, until SetModel).
func (s *switchable) get() provider.Provider  { return *s.p.Load() }
func (s *switchable) set(p provider.Provider) { s.p.Store(&p) }

// Name is the engine's name; "" without a model.
func (s *switchable) Name() string {
	if b := s.get(); b != nil {
		return b.Name()
	}
	return ""
}
func (s *switchable) Show(ctx context.Context, model string) (provider.ModelInfo, error) {
	b := s.get()
	if b == nil {
		return provider.ModelInfo{}, ErrNoModel
	}
	return b.Show(ctx, model)
}
func (s *switchable) Chat(ctx context.Context, req provider.Request, onDelta func(provider.Delta)) (provider.Response, error) {
	// A turn stopped (by its caller, or by Close) calls the model no more,
	// whether or not the engine would notice the context.
	if err := ctx.Err(); err != nil {
		return provider.Response{}, err
	}
	b := s.get()
	if b == nil {
		return provider.Response{}, ErrNoModel
	}
	return b.Chat(ctx, req, onDelta)
}

// HasModel reports whether the conversation has a model to send turns
// to: false on a [Host] made without one until [Conversation.SetModel]
// chooses one. Turns of a conversation without a model return
// [ErrNoModel] and change nothing.
func (c *Conversation) HasModel() bool { return c.engine.get() != nil }

// NewConversation starts a conversation with an empty history (but for the
// system prompt). It shares the Host's servers, policy and audit log.
func (h *Host) NewConversation() *Conversation {
	s := h.settings
	engine := newSwitchable(h.backend)
	c := &Conversation{h: h, engine: engine, r: runner.New(engine, h.approval, runner.Options{
		Model:        h.model,
		SystemPrompt: s.SystemPrompt,
		MaxSteps:     s.MaxSteps,
		NumCtx:       s.NumCtx,
		ResultBudget: s.MaxResultBytes,
		Generation:   h.generationFor(h.model.Name),
		// Zero (settings made in code) means the runner's and the
		// provider's defaults.
		MaxParallelTools: s.MaxParallelTools,
		MaxToolCalls:     s.MaxToolCalls,
		Limits:           provider.Limits{MaxReplyBytes: s.MaxReplyBytes, IdleTimeout: s.ModelIdleTimeout, Timeout: s.ModelTimeout},
		ToolShare:        s.ToolShare,
		Embedder:         h.embedder,
		Think:            s.Think,
	})}
	model := h.model
	c.model.Store(&model)
	return c
}

// Conversation returns the Host's default conversation, the one [Host.Prompt],
// [Host.PromptFunc] and [Host.Stream] of the Host continue.
func (h *Host) Conversation() *Conversation {
	h.defaultOnce.Do(func() { h.defaultConv = h.NewConversation() })
	return h.defaultConv
}

// Prompt runs one turn of the default conversation and returns its result.
func (h *Host) Prompt(ctx context.Context, prompt string) (Result, error) {
	return h.Conversation().Prompt(ctx, prompt)
}

// PromptFunc is [Host.Prompt], with the turn's events given to on as they
// happen.
func (h *Host) PromptFunc(ctx context.Context, prompt string, on func(Event)) (Result, error) {
	return h.Conversation().PromptFunc(ctx, prompt, on)
}

// Stream is [Host.Prompt] as an iterator over the turn's events.
func (h *Host) Stream(ctx context.Context, prompt string) iter.Seq[Event] {
	return h.Conversation().Stream(ctx, prompt)
}

// Prompt adds prompt to the conversation as the user's message and runs
// the turn: model calls and tool calls until the model answers in text.
// On an error the history keeps what happened up to it, so the
// conversation can go on; with [ErrMaxSteps] or [ErrLoop] the [Result] still
// holds the model's final answer.
func (c *Conversation) Prompt(ctx context.Context, prompt string) (Result, error) {
	return c.PromptFunc(ctx, prompt, nil)
}

// PromptFunc is [Conversation.Prompt], with the turn's events given to on
// (which may be nil) one at a time as they happen, [Finished] last. on runs on
// the turn's goroutine: while it runs, the turn waits.
func (c *Conversation) PromptFunc(ctx context.Context, prompt string, on func(Event)) (Result, error) {
	return c.PromptMessages(ctx, []provider.Message{{Role: provider.RoleUser, Content: prompt}}, on)
}

// PromptMessages adds msgs to the conversation as they are (roles,
// images: an MCP prompt's messages, a message with resources attached)
// and runs the turn, as [Conversation.PromptFunc] does for one user message. The
// UserPromptSubmit hooks see the text of the user messages; context they
// add goes into the last one.
func (c *Conversation) PromptMessages(ctx context.Context, msgs []provider.Message, on func(Event)) (Result, error) {
	if !c.HasModel() {
		return Result{}, ErrNoModel
	}
	caller := ctx
	ctx, end, err := c.h.begin(ctx)
	if err != nil {
		if on != nil {
			on(Finished{Err: err})
		}
		return Result{}, err
	}
	defer end()
	c.turn.Lock()
	defer c.turn.Unlock()
	if err := ctx.Err(); err != nil {
		// Stopped while it waited for the conversation's previous turn.
		err = c.h.closedErr(caller, err)
		if on != nil {
			on(Finished{Err: err})
		}
		return Result{}, err
	}
	// As given, before hooks add to them: a retry runs the hooks again.
	given := slices.Clone(msgs)
	// Servers still starting whose tools are not known yet are waited
	// for, a little, so that the model is offered their tools too.
	c.h.waitServers(ctx, c.handler(caller, on))
	if hk := c.h.hooks; hk != nil {
		var texts []string
		last := -1
		for i, m := range msgs {
			if m.Role == provider.RoleUser {
				texts = append(texts, m.Content)
				last = i
			}
		}
		v := hk.UserPromptSubmit(ctx, strings.Join(texts, "\n\n"))
		if v.Blocked {
			return Result{}, &blockedError{v.Reason}
		}
		if v.Context != "" && last >= 0 {
			msgs = slices.Clone(msgs)
			msgs[last].Content += "\n\n" + v.Context
		}
	}
	prev := c.last
	c.last = lastTurn{in: given, at: c.r.Len()}
	res, err := c.r.RunMessages(ctx, msgs, c.events(caller, on))
	if errors.Is(err, runner.ErrPromptTooLarge) && c.r.Len() == c.last.at {
		// Not sent, and taken back out of the history: the last turn is
		// still the one before.
		c.last = prev
	}
	err = hostError(err)
	if hk := c.h.hooks; hk != nil {
		hk.Stop(context.WithoutCancel(ctx), res.Answer, stopReason(err))
	}
	return resultOf(res), c.h.closedErr(caller, err)
}

// events is the path of a turn's events to on: the Host's pipeline, with
// the turn paused (see History) while on runs, and a turn stopped by
// Close finished with its error as the turn returns it.
func (c *Conversation) events(caller context.Context, on func(Event)) func(runner.Event) {
	return c.h.pipeline(c.handler(caller, on))
}

// handler is on as the turn's events reach it (see events); nil when on is.
func (c *Conversation) handler(caller context.Context, on func(Event)) func(Event) {
	if on == nil {
		return nil
	}
	return func(ev Event) {
		if f, ok := ev.(Finished); ok {
			f.Err = c.h.closedErr(caller, f.Err)
			ev = f
		}
		c.pauseMu.Lock()
		c.paused++
		c.pauseMu.Unlock()
		defer func() {
			c.pauseMu.Lock()
			c.paused--
			c.pauseMu.Unlock()
		}()
		on(ev)
	}
}

// Stream runs one turn and yields its events as they happen, [Finished]
// last. Stopping the iteration early cancels the turn.
func (c *Conversation) Stream(ctx context.Context, prompt string) iter.Seq[Event] {
	return func(yield func(Event) bool) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		events := make(chan Event)
		// handled says the loop's body is done with an event: the turn
		// waits for it, as for PromptFunc's callback, so that the body
		// may call History.
		handled := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, _ = c.PromptFunc(ctx, prompt, func(ev Event) {
				select {
				case events <- ev:
					<-handled
				case <-ctx.Done():
				}
			})
		}()
		stopped := false
		for {
			select {
			case ev := <-events:
				if !stopped && !yield(ev) {
					// The caller is gone: end the turn, and drain what it
					// still sends until it returns.
					stopped = true
					cancel()
				}
				handled <- struct{}{}
			case <-done:
				return
			}
		}
	}
}

// History returns a copy of the conversation so far, including turns left
// out of requests to fit the context window. It waits for a running turn
// to end, but while the turn waits for its event callback (History called
// from that callback, say) it returns the history so far at once.
func (c *Conversation) History() []provider.Message {
	c.pauseMu.Lock()
	if c.paused > 0 {
		// The turn cannot go on (and change the history) until pauseMu
		// is released.
		defer c.pauseMu.Unlock()
		return c.r.History()
	}
	c.pauseMu.Unlock()
	c.turn.Lock()
	defer c.turn.Unlock()
	return c.r.History()
}

// SetHistory replaces the conversation; the next turn continues from it.
// It waits for a running turn to end.
func (c *Conversation) SetHistory(msgs []provider.Message) {
	c.turn.Lock()
	defer c.turn.Unlock()
	c.r.SetHistory(msgs)
	c.last = lastTurn{}
}

// Reset starts the conversation over, keeping the system prompt. It waits
// for a running turn to end.
func (c *Conversation) Reset() {
	c.turn.Lock()
	defer c.turn.Unlock()
	c.r.Reset()
	c.last = lastTurn{}
}

// Engine names the engine of the conversation's current model, as model
// references name it ("ollama", "llamacpp", a configured name).
func (c *Conversation) Engine() string { return c.engine.Name() }

// Model describes the conversation's current model.
func (c *Conversation) Model() provider.ModelInfo { return *c.model.Load() }

// SetModel switches the conversation to another model, after checking
// with its engine that it has it; the history stays. name is a model
// reference as -m takes it, so "llamacpp:qwen3" or "gpu-box:MODEL" (an
// engine a config file names) switches engines too. On a Host made
// without a model it gives the conversation its first one. It waits for a
// running turn to end.
func (c *Conversation) SetModel(ctx context.Context, name string) (provider.ModelInfo, error) {
	var backend provider.Provider
	info, err := guard(c.h, ctx, func(ctx context.Context) (provider.ModelInfo, error) {
		var (
			info provider.ModelInfo
			err  error
		)
		backend, info, err = c.h.engines.resolve(ctx, name)
		return info, err
	})
	if err != nil {
		return info, hostError(err)
	}
	c.turn.Lock()
	defer c.turn.Unlock()
	c.engine.set(backend)
	c.r.SetModel(info)
	c.r.SetGeneration(c.h.generationFor(info.Name))
	c.model.Store(&info)
	// Servers' sampling requests go to the model last chosen.
	c.h.current.Store(&modelChoice{backend: backend, info: info})
	return info, nil
}

// SetThink says whether the following turns ask the model to think: false
// asks it not to, for the engines that can be asked; nil leaves it to the
// model. It waits for a running turn to end.
func (c *Conversation) SetThink(think *bool) {
	c.turn.Lock()
	defer c.turn.Unlock()
	c.r.SetThink(think)
}

// Think returns what [Conversation.SetThink] (or Settings.Think) last said.
func (c *Conversation) Think() *bool {
	c.turn.Lock()
	defer c.turn.Unlock()
	return c.r.Think()
}

// Generation returns the generation parameters the conversation's model
// calls are sent with (its model's own over the general ones). It waits
// for a running turn to end.
func (c *Conversation) Generation() provider.GenerationOptions {
	c.turn.Lock()
	defer c.turn.Unlock()
	return c.r.Generation()
}

// ToolTokens estimates what each tool's declaration costs in every request
// of this conversation, by the name the model sees, corrected by the
// engine's own counts once a turn has run. It waits for a running turn to
// end.
func (c *Conversation) ToolTokens() map[string]int {
	c.turn.Lock()
	defer c.turn.Unlock()
	return c.r.ToolTokens()
}

// Save writes the conversation to path as JSON (the format of "mcphost
// --session" and the chat's /save), with the name of its model, for
// [Conversation.Load]. The file is replaced durably (a crash leaves the
// old file or the new one, never a part of either), and it is locked
// while it is written, so runs that share it take turns. Save waits for
// a running turn to end.
func (c *Conversation) Save(path string) error {
	c.turn.Lock()
	defer c.turn.Unlock()
	return session.Save(path, c.r.Model().Name, c.r.History())
}

// SavedConversation is what a file written by [Conversation.Save] holds,
// as [Conversation.Load] returns it.
type SavedConversation struct {
	// Model is the name of the model the conversation was saved with,
	// which may not be the one that continues it (see
	// [Conversation.SetModel]).
	Model string
	// Messages are the conversation's messages, the system prompt first,
	// as [Conversation.History] returned them.
	Messages []provider.Message
}

// Load replaces the conversation with the one [Conversation.Save] wrote
// to path, holding the file's lock while it reads, and returns what the
// file holds. A file that does not exist is an error matching
// [fs.ErrNotExist]; a file that is not a saved conversation (or one
// written by a newer mcphost) is an error matching [ErrConfig], and the
// file is left as it is.
func (c *Conversation) Load(path string) (SavedConversation, error) {
	f, err := session.Load(path)
	switch {
	case errors.Is(err, session.ErrNotExist):
		return SavedConversation{}, notExistError{err}
	case errors.Is(err, session.ErrInvalid):
		return SavedConversation{}, configError(err)
	case err != nil:
		return SavedConversation{}, err
	}
	c.SetHistory(f.Messages)
	return SavedConversation{Model: f.Model, Messages: f.Messages}, nil
}

// notExistError is Load's error for a missing file: its message and chain
// are err's, and it matches fs.ErrNotExist, as the standard library's
// errors for a missing file do.
type notExistError struct{ err error }

func (e notExistError) Error() string        { return e.err.Error() }
func (e notExistError) Unwrap() error        { return e.err }
func (e notExistError) Is(target error) bool { return target == fs.ErrNotExist }

// stopReason names how a turn ended, for the Stop hooks.
func stopReason(err error) string {
	switch {
	case err == nil:
		return "completed"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	case errors.Is(err, ErrMaxSteps):
		return "max_steps"
	}
	return "error"
}
