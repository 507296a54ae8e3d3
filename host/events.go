package host

import "github.com/mcphost/mcphost/runner"

// The events of a turn, delivered one at a time in the order they happen.
// A program switches on the concrete type and ignores the ones it does not
// need; see package runner for each type's fields.
type (
	// Event is any of the types below.
	Event = runner.Event
	// TextDelta is a piece of the answer as the model streams it. Text
	// that may be a tool call written as text is held back until the
	// reply is complete.
	TextDelta = runner.TextDelta
	// ThinkingDelta is a piece of a reasoning model's thinking.
	ThinkingDelta = runner.ThinkingDelta
	// ModelCallStarted comes before each model call.
	ModelCallStarted = runner.ModelCallStarted
	// ModelCallFinished comes after each model call, with its token usage.
	ModelCallFinished = runner.ModelCallFinished
	// ToolCallStarted comes when a tool call is dispatched (or refused).
	ToolCallStarted = runner.ToolCallStarted
	// ToolCallFinished comes when a tool call returns, fails or is refused.
	ToolCallFinished = runner.ToolCallFinished
	// ToolProgress is news of a running tool call: its server's progress
	// notification, or its task's status. It comes between the call's
	// ToolCallStarted and ToolCallFinished.
	ToolProgress = runner.ToolProgress
	// ToolCallApproved comes when a call that waited for the user's
	// approval is allowed and sent to its server; its Duration counts
	// from here.
	ToolCallApproved = runner.ToolCallApproved
	// ToolCallRepaired comes before ToolCallStarted when the arguments
	// were repaired to fit the tool's schema.
	ToolCallRepaired = runner.ToolCallRepaired
	// ToolCallRejected comes before ToolCallStarted when a call is not
	// sent to its server.
	ToolCallRejected = runner.ToolCallRejected
	// HistoryTrimmed comes when old turns are left out of a request to
	// fit the context window.
	HistoryTrimmed = runner.HistoryTrimmed
	// FinalAnswerRequested comes when the model had to stop calling tools
	// and is asked for a final answer.
	FinalAnswerRequested = runner.FinalAnswerRequested
	// ToolsSelected comes before a model call that is offered only some
	// of the tools (they would take more than their share of the context
	// window), and again when the offered set changes: which, and why.
	ToolsSelected = runner.ToolsSelected
	// Warning is something the user should know that does not stop the turn.
	Warning = runner.Warning
	// Finished is the last event of every turn, with its result and error.
	Finished = runner.Finished
	// Result summarises one turn: the answer, steps, tool calls and usage.
	Result = runner.Result
)
