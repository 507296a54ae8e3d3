package host

import (
	"time"

	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/runner"
)

// Event is something that happened while a turn ran: one of the types
// below. Events are delivered one at a time, in the order they happen,
// never concurrently; a program switches on the concrete type and ignores
// the ones it does not need.
type Event interface{ hostEvent() }

// TextDelta is a piece of the model's answer, as it streams. When tools
// are offered, text that may turn out to be a tool call written as text is
// held back until the reply is complete, and never sent if it was one.
type TextDelta struct{ Text string }

// ThinkingDelta is a piece of a reasoning model's thinking, as it streams.
type ThinkingDelta struct{ Text string }

// ModelCallStarted comes before each model call.
type ModelCallStarted struct {
	// Step counts the model calls of the turn, from 1.
	Step int
	// Tools is how many tools the model is offered.
	Tools int
	// EstimatedTokens is the estimated prompt size: system prompt, tools
	// and the history sent.
	EstimatedTokens int
	// ContextWindow is the context window asked for; 0 when left to the
	// engine.
	ContextWindow int
	// Offered names the tools offered, in the order sent (nil when none
	// are); Ranker says how they were chosen when only some are
	// ("lexical", "embedding+lexical"; see [ToolsSelected]), and is
	// empty when all are.
	Offered []string
	Ranker  string
}

// ModelCallFinished comes after each model call, with its token usage.
type ModelCallFinished struct {
	Step    int
	Message provider.Message
	Usage   provider.Usage
	// ToolCalls counts the calls the model made.
	ToolCalls int
	// Recovered counts the tool calls found written in the text of the
	// reply rather than sent as tool calls; they are among ToolCalls and
	// in Message.ToolCalls, and their text is no longer in Message.Content.
	Recovered int
	// Format names how the recovered calls were written ("<tool_call>",
	// "[TOOL_CALLS]", "fenced block", ...); empty when none were
	// recovered.
	Format string
	// PromptCut is true when the engine counted a prompt of the whole
	// context window: it cut the prompt to fit (a [Warning] said so), and
	// the window is full.
	PromptCut bool
}

// ToolCallStarted comes when a tool call is dispatched, and also for a
// call that is refused (unknown tool, invalid arguments, loop), which is
// then followed at once by its [ToolCallFinished].
type ToolCallStarted struct {
	// Call is the call as it runs: the exposed tool name and the
	// arguments after repairs. For a call refused for its name, the call
	// as the model wrote it.
	Call provider.ToolCall
	// Server and Tool are the server's name and its own name of the tool;
	// empty when the name matches no tool.
	Server, Tool string
	// Requested is the name the model wrote, when it was not the exposed
	// name (a shortened or decorated name that was resolved).
	Requested string
	// Recovered is true for a call written as text in the reply.
	Recovered bool
	// Repairs lists what was changed in the arguments to make them valid.
	Repairs []string
}

// ToolCallFinished comes when a tool call returns, fails or is refused.
type ToolCallFinished struct {
	Call         provider.ToolCall
	Server, Tool string
	Requested    string
	Recovered    bool
	Repairs      []string
	// Duration is how long the call ran, from its [ToolCallApproved] for
	// a call that waited for the user's approval.
	Duration time.Duration
	// IsError is true when the call failed or the tool reported an error.
	IsError bool
	// Rejected is true when the call was not sent to the server at all:
	// unknown or ambiguous tool, arguments that do not fit the schema, or
	// a repeated call stopped by the loop guard. Output says why.
	Rejected bool
	// Output is the text the model gets back.
	Output string
}

// ToolProgress is news of a tool call that is still running: a progress
// notification from its server, or a change of status of the task it
// runs as (MCP tasks). It comes between the call's [ToolCallStarted] and
// [ToolCallFinished], never after.
type ToolProgress struct {
	Call         provider.ToolCall
	Server, Tool string
	// Progress grows with each notification; Total is what it will
	// reach, 0 when unknown.
	Progress, Total float64
	// Message is the server's own words, cleaned of escape sequences and
	// control characters.
	Message string
	// Status is the task's status ("working", "input_required",
	// "completed", "failed", "cancelled") for a call that runs as a task;
	// empty otherwise.
	Status string
}

// ToolCallApproved comes when a call that waited for the user's answer to
// an approval question (see [ask.Asker]) is allowed and sent to its
// server, between its [ToolCallStarted] and [ToolCallFinished]. The
// call's Duration counts from here: the time the user took to answer is
// not the tool's.
type ToolCallApproved struct {
	Call         provider.ToolCall
	Server, Tool string
}

// ToolCallRepaired comes before [ToolCallStarted] when a call's arguments
// were repaired to fit the tool's schema.
type ToolCallRepaired struct {
	// Call is the call after the repairs.
	Call    provider.ToolCall
	Repairs []string
	// Total counts the repaired calls of this turn so far, this one
	// included.
	Total int
}

// ToolCallRejected comes before [ToolCallStarted] when a call is not sent
// to its server.
type ToolCallRejected struct {
	// Call is the call as the model wrote it.
	Call   provider.ToolCall
	Reason string
	// Total counts the rejected calls of this turn so far, this one
	// included.
	Total int
}

// HistoryTrimmed comes when the oldest turns of the conversation are left
// out of the next request so that it fits the context window, and again
// whenever how many are left out changes. [Conversation.History] keeps
// them all.
type HistoryTrimmed struct {
	// Dropped is how many messages are left out; Kept how many are sent.
	Dropped, Kept int
	// EstimatedTokens is the estimated prompt size after trimming, and
	// ContextWindow the window it must fit, less room for the answer.
	EstimatedTokens, ContextWindow int
	// Fits is false when even the shortest history allowed does not fit.
	// The model is then not called (the turn ends with
	// [ErrPromptTooLarge]), so a HistoryTrimmed event always has it true.
	Fits bool
	// Step is the model call of the turn it comes before: past 1, the
	// window forced messages out between the steps of one turn, and the
	// engine reads the prompt again from the first one left out (its
	// prompt cache holds only the unchanged start of a request).
	Step int
}

// FinalAnswerRequested comes before the last model call of a turn that
// had to stop calling tools: the model is asked, without tools, to answer
// with what it has (the turn then ends with [ErrMaxSteps]).
type FinalAnswerRequested struct {
	// Reason is why: the step limit, or a call repeated by the model.
	Reason string
}

// ToolsSelected comes before a model call that is offered only some of
// the tools, because all of them would take more than their share of the
// context window ([Options].ToolShare), and again within a turn whenever
// the offered set changes (a search found more).
type ToolsSelected struct {
	Step int
	// Offered names the tools offered, in the order sent: those of the
	// previous request first, in their places (the engine's prompt cache
	// holds the start of a request), then the new ones; Reasons says why
	// each is ("named", "called", "found", "ranked", "spare", "search",
	// "kept": an earlier turn offered it, and it stays in its place).
	Offered, Reasons []string
	// Total is how many tools there are, the search tool not counted.
	Total int
	// Tokens is the estimated size of the offered declarations, and
	// Budget the share of the context window they may take.
	Tokens, Budget int
	// Ranker says how the request was matched: "lexical" or
	// "embedding+lexical".
	Ranker string
}

// ServerLeftOut comes before a turn's first model call for each server
// that is still starting, its tools not known yet, after the wait for it
// (config.Settings.ServerWait, the command's --server-wait): the model is
// called without its tools, which join at the first model call after it
// is ready. A [Warning] saying so follows, the first time a [Host] leaves
// the server out. While the turn waits, it gives the news of the wait as
// [StartNews] events: the servers it waits for (Starting), then each
// one's outcome as it comes.
type ServerLeftOut struct {
	Server string
	// Reason says why, in words: "still starting after 10s", with why
	// its first start failed when it is being started again.
	Reason string
}

// Warning is something the user should know that does not stop the turn.
type Warning struct{ Message string }

// Finished is the last event of every turn: what the turn returns.
type Finished struct {
	Result Result
	// Err is nil when the model answered; see [Conversation.Prompt] for
	// the others.
	Err error
}

// Result summarises one turn.
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
	// text, the calls whose arguments were repaired, and the calls not
	// sent to a server (unknown tool, invalid arguments, loop).
	Recovered, Repaired, Rejected int
	// Empty is true when the model's final answer had no text; a
	// [Warning] starting with [EmptyAnswer] said so, and why when known.
	Empty bool
}

// EmptyAnswer starts the [Warning] of a turn whose final answer has no
// text ([Result].Empty).
const EmptyAnswer = runner.EmptyAnswer

func (TextDelta) hostEvent()            {}
func (ThinkingDelta) hostEvent()        {}
func (ModelCallStarted) hostEvent()     {}
func (ModelCallFinished) hostEvent()    {}
func (ToolCallStarted) hostEvent()      {}
func (ToolCallFinished) hostEvent()     {}
func (ToolProgress) hostEvent()         {}
func (ToolCallApproved) hostEvent()     {}
func (ToolCallRepaired) hostEvent()     {}
func (ToolCallRejected) hostEvent()     {}
func (HistoryTrimmed) hostEvent()       {}
func (FinalAnswerRequested) hostEvent() {}
func (ToolsSelected) hostEvent()        {}
func (Warning) hostEvent()              {}
func (ServerLeftOut) hostEvent()        {}
func (StartNews) hostEvent()            {}
func (Finished) hostEvent()             {}
