package runner

import (
	"time"

	"github.com/mcphost/mcphost/provider"
)

// Event is something that happened during a run. Renderers switch on the
// concrete type; events are delivered one at a time, never concurrently.
type Event interface{ event() }

// TextDelta is a piece of the model's answer, as it streams.
type TextDelta struct{ Text string }

// ThinkingDelta is a piece of a reasoning model's thinking, as it streams.
type ThinkingDelta struct{ Text string }

// ModelCallStarted is sent before each model call.
type ModelCallStarted struct {
	Step  int // 1-based
	Tools int // how many tools the model was offered
}

// ModelCallFinished is sent after each model call.
type ModelCallFinished struct {
	Step      int
	Message   provider.Message
	Usage     provider.Usage
	ToolCalls int
}

// ToolCallStarted is sent when a tool call is dispatched.
type ToolCallStarted struct {
	Call   ToolCall
	Server string // empty when the name matches no tool
	Tool   string
}

// ToolCallFinished is sent when a tool call returns or fails.
type ToolCallFinished struct {
	Call     ToolCall
	Server   string
	Tool     string
	Duration time.Duration
	// IsError is true when the call failed or the tool reported an error.
	IsError bool
	// Output is the text the model gets back.
	Output string
}

// Warning is something the user should know that does not stop the run.
type Warning struct{ Message string }

func (TextDelta) event()         {}
func (ThinkingDelta) event()     {}
func (ModelCallStarted) event()  {}
func (ModelCallFinished) event() {}
func (ToolCallStarted) event()   {}
func (ToolCallFinished) event()  {}
func (Warning) event()           {}
