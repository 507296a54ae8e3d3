package runner

import (
	"time"

	"github.com/mcphost/mcphost/provider"
)

// Event is something that happened during a run. Renderers switch on the
// concrete type; events are delivered one at a time, never concurrently.
type Event interface{ event() }

// TextDelta is a piece of the model's answer, as it streams. When tools
// are offered, text that may turn out to be a tool call written as text is
// held back until the reply is complete, and never sent if it was one.
type TextDelta struct{ Text string }

// ThinkingDelta is a piece of a reasoning model's thinking, as it streams.
type ThinkingDelta struct{ Text string }

// ModelCallStarted is sent before each model call.
type ModelCallStarted struct {
	Step  int // 1-based
	Tools int // how many tools the model was offered
	// EstimatedTokens is the estimated prompt size: system prompt, tools
	// and the history sent (see package budget).
	EstimatedTokens int
	// ContextWindow is the num_ctx asked for; 0 when left to the backend.
	ContextWindow int
	// Offered names the tools offered, in the order sent (nil when none
	// are); Ranker says how they were chosen when only some are
	// (RankerLexical, RankerEmbedding), and is empty when all are.
	Offered []string
	Ranker  string
}

// ModelCallFinished is sent after each model call.
type ModelCallFinished struct {
	Step      int
	Message   provider.Message
	Usage     provider.Usage
	ToolCalls int
	// Recovered counts the tool calls found written in the text of the
	// reply rather than sent as tool calls; they are among ToolCalls and
	// in Message.ToolCalls, and their text is no longer in Message.Content.
	Recovered int
	// Format names how the recovered calls were written ("<tool_call>",
	// "[TOOL_CALLS]", "fenced block": the formats of package toolcall);
	// empty when none were recovered. What a model writes tells which
	// chat template it follows, for "mcphost doctor".
	Format string
	// PromptCut is true when the engine counted a prompt of the whole
	// context window: it cut the prompt to fit (a Warning said so), and
	// the window is full.
	PromptCut bool
}

// ToolCallStarted is sent when a tool call is dispatched, and also for a
// call that is refused (unknown tool, invalid arguments, loop), which is
// then followed at once by its ToolCallFinished.
type ToolCallStarted struct {
	// Call is the call as it runs: the exposed tool name and the
	// arguments after repairs. For a call refused for its name, the call as
	// the model wrote it.
	Call   ToolCall
	Server string // empty when the name matches no tool
	Tool   string
	// Requested is the name the model wrote, when it was not the exposed
	// name (a shortened or decorated name that was resolved).
	Requested string
	// Recovered is true for a call written as text in the reply.
	Recovered bool
	// Repairs lists what was changed in the arguments to make them valid.
	Repairs []string
}

// ToolCallFinished is sent when a tool call returns or fails.
type ToolCallFinished struct {
	Call      ToolCall
	Server    string
	Tool      string
	Requested string
	Recovered bool
	Repairs   []string
	Duration  time.Duration
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
// runs as (MCP tasks). It comes between the call's ToolCallStarted and
// ToolCallFinished, never after.
type ToolProgress struct {
	Call   ToolCall
	Server string
	Tool   string
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

// ToolCallApproved is sent when a call that waited for the user's answer
// to an approval question is allowed and sent to its server, between its
// ToolCallStarted and ToolCallFinished. The call's Duration counts from
// here: the time the user took to answer is not the tool's.
type ToolCallApproved struct {
	Call   ToolCall
	Server string
	Tool   string
}

// ToolCallRepaired is sent before ToolCallStarted when a call's arguments
// were repaired to fit the tool's schema.
type ToolCallRepaired struct {
	Call    ToolCall // after the repairs
	Repairs []string
	// Total counts the repaired calls of this Run so far, this one included.
	Total int
}

// ToolCallRejected is sent before ToolCallStarted when a call is not sent
// to the server.
type ToolCallRejected struct {
	Call   ToolCall // as the model wrote it
	Reason string
	// Total counts the rejected calls of this Run so far, this one included.
	Total int
}

// HistoryTrimmed is sent when the oldest turns of the conversation are
// left out of the next request so that it fits the context window, and
// again whenever how many are left out changes. The runner's History keeps
// them all.
type HistoryTrimmed struct {
	// Dropped is how many messages are left out; Kept how many are sent.
	Dropped, Kept int
	// EstimatedTokens is the estimated prompt size after trimming, and
	// ContextWindow the window it must fit, less room for the answer.
	EstimatedTokens, ContextWindow int
	// Fits is false when even the shortest history allowed does not fit.
	// The model is then not called (the Run ends with ErrPromptTooLarge),
	// so a HistoryTrimmed event always has it true.
	Fits bool
	// Step is the model call of the Run it comes before: past 1, the
	// window forced messages out between the steps of one turn, and the
	// engine reads the prompt again from the first one left out (its
	// prompt cache holds only the unchanged start of a request).
	Step int
}

// FinalAnswerRequested is sent before the last model call of a Run that
// had to stop calling tools: the model is asked, without tools, to answer
// with what it has.
type FinalAnswerRequested struct {
	// Reason is why: the step limit, or a call repeated by the model.
	Reason string
}

// ToolsSelected is sent before a model call that is offered only some of
// the tools, because all of them would take more than their share of the
// context window (Options.ToolShare), and again within a turn whenever
// the offered set changes (a search found more).
type ToolsSelected struct {
	Step int
	// Offered names the tools offered, in the order sent: those of the
	// previous request first, in their places, then the new ones (see
	// Runner.Run); Reasons says why each is (ReasonNamed, ReasonCalled,
	// ReasonFound, ReasonRanked, ReasonSpare, ReasonSearch, ReasonKept).
	Offered, Reasons []string
	// Total is how many tools there are, the search tool not counted.
	Total int
	// Tokens is the estimated size of the offered declarations, and
	// Budget the share of the context window they may take.
	Tokens, Budget int
	// Ranker says how the request was matched: RankerLexical or
	// RankerEmbedding.
	Ranker string
}

// Warning is something the user should know that does not stop the run.
type Warning struct{ Message string }

// Finished is the last event of every Run: what Run returns.
type Finished struct {
	Result Result
	// Err is nil when the model answered; see Run for the others.
	Err error
}

func (TextDelta) event()            {}
func (ThinkingDelta) event()        {}
func (ModelCallStarted) event()     {}
func (ModelCallFinished) event()    {}
func (ToolCallStarted) event()      {}
func (ToolCallFinished) event()     {}
func (ToolProgress) event()         {}
func (ToolCallApproved) event()     {}
func (ToolCallRepaired) event()     {}
func (ToolCallRejected) event()     {}
func (HistoryTrimmed) event()       {}
func (FinalAnswerRequested) event() {}
func (ToolsSelected) event()        {}
func (Warning) event()              {}
func (Finished) event()             {}
