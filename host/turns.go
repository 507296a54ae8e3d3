package host

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mcphost/mcphost/provider"
)

// ErrNothingToCompact is returned by Compact when the conversation has no
// turns older than the ones it keeps.
var ErrNothingToCompact = errors.New("nothing to compact: the conversation has no older turns")

// compactPrompt asks the model for the summary that replaces the older
// turns; it must keep what later turns may refer to.
const compactPrompt = "Summarise our conversation so far for your own later use: the user's goals, the facts, " +
	"file names, values and decisions established, tool results that matter, and what is still open. " +
	"Be concise; write only the summary."

// summaryIntro heads the summary in the history, so the model (and /history)
// can tell it from what the user wrote.
const summaryIntro = "Summary of the conversation so far:\n\n"

// lastTurnStart returns the index of the k-th user message from the end
// of h (k ≥ 1), where a turn starts; -1 when h has fewer.
func lastTurnStart(h []provider.Message, k int) int {
	for i := len(h) - 1; i >= 0; i-- {
		if h[i].Role == provider.RoleUser {
			if k--; k == 0 {
				return i
			}
		}
	}
	return -1
}

// lastTurn is where the last turn began: the messages it was given, as
// given (before hooks added to them), and the history's length before
// them. It is cleared when the history is changed otherwise.
type lastTurn struct {
	in []provider.Message
	at int
}

// Undo drops the conversation's last turn: its user message (all of an
// MCP prompt's messages) and everything after it (the answer, tool calls
// and their results). It returns the messages dropped, oldest first, or
// nil when there is no turn to drop. It waits for a running turn to end.
func (c *Conversation) Undo() []provider.Message {
	dropped, _ := c.undo()
	return dropped
}

// undo is Undo, also returning the messages that began the dropped turn
// as they were given to it, to run it again.
func (c *Conversation) undo() (dropped, in []provider.Message) {
	c.turn.Lock()
	defer c.turn.Unlock()
	h := c.r.History()
	last := c.last
	c.last = lastTurn{}
	if last.in != nil && last.at < len(h) {
		c.r.SetHistory(h[:last.at])
		return h[last.at:], last.in
	}
	// A turn this Conversation did not run (a loaded session), or one
	// before the last: it starts at its user message.
	i := lastTurnStart(h, 1)
	if i < 0 {
		return nil, nil
	}
	c.r.SetHistory(h[:i])
	return h[i:], h[i : i+1]
}

// Retry drops the last turn, as [Conversation.Undo] does, and runs it again
// from the messages that began it, as [Conversation.PromptMessages] does, with
// the turn's events given to on. It returns [ErrNothingToRetry] when there is
// no turn.
func (c *Conversation) Retry(ctx context.Context, on func(Event)) (Result, error) {
	if !c.HasModel() {
		// Before undo: the turn must not be dropped for nothing.
		return Result{}, ErrNoModel
	}
	_, in := c.undo()
	if len(in) == 0 {
		return Result{}, ErrNothingToRetry
	}
	return c.PromptMessages(ctx, in, on)
}

// ErrNothingToRetry is returned by Retry when the conversation has no turn.
var ErrNothingToRetry = errors.New("nothing to retry: the conversation has no turn yet")

// Compacted says what Compact did.
type Compacted struct {
	// Summary is the model's summary that replaced the older turns.
	Summary string
	// Replaced is how many messages the summary replaced.
	Replaced int
	// LeftOut is how many of them, the oldest, did not fit the context
	// window with the request to summarise, and are not in the summary.
	LeftOut int
	// Before and After estimate the history's size in tokens.
	Before, After int
}

// Compact frees context window: it asks the model to summarise the
// conversation but for its last keep turns (at least 1), and replaces
// those older messages with the summary; the system prompt and the last
// turns stay as they were. The model is asked without tools, and the
// request is not part of the conversation. On an error the history is
// left as it was. It waits for a running turn to end.
func (c *Conversation) Compact(ctx context.Context, keep int) (Compacted, error) {
	if !c.HasModel() {
		return Compacted{}, ErrNoModel
	}
	return guard(c.h, ctx, func(ctx context.Context) (Compacted, error) { return c.compact(ctx, keep) })
}

// compact is Compact, as work of the Host (see begin).
func (c *Conversation) compact(ctx context.Context, keep int) (Compacted, error) {
	keep = max(keep, 1)
	c.turn.Lock()
	defer c.turn.Unlock()
	h := c.r.History()
	start := 0
	for start < len(h) && h[start].Role == provider.RoleSystem {
		start++
	}
	cut := lastTurnStart(h, keep)
	if cut <= start {
		return Compacted{}, ErrNothingToCompact
	}
	msgs := append(h[:cut:cut], provider.Message{Role: provider.RoleUser, Content: compactPrompt})
	// Turns too old to fit the window with the request were left out of
	// the model's requests already: the summary is of what the model
	// can read at once, as an engine would cut the rest unsaid.
	msgs, left, err := c.r.FitMessages(msgs)
	if err != nil {
		return Compacted{}, hostError(fmt.Errorf("summarising the conversation: %w", err))
	}
	resp, err := c.engine.Chat(ctx, provider.Request{
		Model:      c.r.Model().Name,
		Messages:   msgs,
		NumCtx:     c.r.Window(),
		Generation: c.r.Generation(),
	}, nil)
	if err != nil {
		return Compacted{}, hostError(fmt.Errorf("summarising the conversation: %w", err))
	}
	summary := strings.TrimSpace(resp.Message.Content)
	if summary == "" {
		return Compacted{}, fmt.Errorf("summarising the conversation: %s answered with no text; the conversation is unchanged", c.r.Model().Name)
	}
	out := Compacted{Summary: summary, Replaced: cut - start, LeftOut: left, Before: c.r.HistoryTokens()}
	next := append([]provider.Message(nil), h[:start]...)
	// A user message and an answer, so that roles still alternate before
	// the kept turns, which start with the user's.
	next = append(next,
		provider.Message{Role: provider.RoleUser, Content: summaryIntro + summary},
		provider.Message{Role: provider.RoleAssistant, Content: "Understood: I will go on from this summary."})
	next = append(next, h[cut:]...)
	c.r.SetHistory(next)
	c.last = lastTurn{}
	out.After = c.r.HistoryTokens()
	return out, nil
}

// ContextWindow is the context window the conversation's model is asked
// for, in tokens; 0 when it is left to the engine. It waits for a running
// turn to end.
func (c *Conversation) ContextWindow() int {
	c.turn.Lock()
	defer c.turn.Unlock()
	return c.r.Window()
}
