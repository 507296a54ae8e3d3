package runner

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/provider"
)

// DefaultMaxSteps bounds the number of model calls in one run.
const DefaultMaxSteps = 20

// ErrMaxSteps is returned when the model was still calling tools after
// MaxSteps model calls.
var ErrMaxSteps = errors.New("stopped after the maximum number of steps")

// Toolbox is what the runner needs from the MCP side: the tools to offer and
// a way to call one by the name the model sees. The MCP manager implements
// it; tests may hand in anything else.
type Toolbox interface {
	// Tools lists the tools the model may call, with their exposed names.
	Tools() []provider.Tool
	// Call runs a tool by its exposed name.
	Call(ctx context.Context, name string, args map[string]any) (*mcp.CallToolResult, error)
	// Lookup maps an exposed name back to its server and the server's own
	// tool name.
	Lookup(name string) (server, tool string, ok bool)
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
	// MaxSteps bounds the model calls of one Run; 0 means DefaultMaxSteps.
	MaxSteps int
	// NumCtx is the context window to ask for; 0 leaves the backend default.
	NumCtx int
}

// Runner holds a conversation with one model and the tools it may use.
// A Runner is not safe for concurrent Runs.
type Runner struct {
	provider provider.Provider
	tools    Toolbox
	opts     Options
	history  []provider.Message
}

// New returns a Runner with an empty conversation. tools may be nil.
func New(p provider.Provider, tools Toolbox, opts Options) *Runner {
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = DefaultMaxSteps
	}
	r := &Runner{provider: p, tools: tools, opts: opts}
	r.Reset()
	return r
}

// Reset starts a new conversation (keeping the system prompt).
func (r *Runner) Reset() {
	r.history = r.history[:0]
	if r.opts.SystemPrompt != "" {
		r.history = append(r.history, provider.Message{Role: provider.RoleSystem, Content: r.opts.SystemPrompt})
	}
}

// History returns a copy of the conversation so far.
func (r *Runner) History() []provider.Message {
	return append([]provider.Message(nil), r.history...)
}

// SetHistory replaces the conversation, for sessions loaded from a file.
func (r *Runner) SetHistory(msgs []provider.Message) {
	r.history = append(r.history[:0], msgs...)
}

// Model returns what the runner knows about its model.
func (r *Runner) Model() provider.ModelInfo { return r.opts.Model }

// SetModel switches the model for the following turns; the history stays.
func (r *Runner) SetModel(m provider.ModelInfo) { r.opts.Model = m }

// Result summarises one Run.
type Result struct {
	// Answer is the model's final text.
	Answer string
	// Steps is the number of model calls made.
	Steps int
	// ToolCalls lists every call made, in order.
	ToolCalls []ToolCallFinished
	// Usage adds up the token counts of all model calls.
	Usage provider.Usage
}

// Run adds prompt to the conversation as a user message and runs the loop
// until the model answers without calling tools. emit receives the events
// of the run, one at a time; it may be nil.
//
// On error the history keeps what happened up to the failure, so a chat can
// go on after a cancelled turn.
func (r *Runner) Run(ctx context.Context, prompt string, emit func(Event)) (Result, error) {
	if emit == nil {
		emit = func(Event) {}
	}
	r.history = append(r.history, provider.Message{Role: provider.RoleUser, Content: prompt})
	var res Result
	for step := 1; ; step++ {
		if step > r.opts.MaxSteps {
			return res, fmt.Errorf("%w (%d): the model kept calling tools; raise --max-steps to allow more", ErrMaxSteps, r.opts.MaxSteps)
		}
		tools := r.offeredTools()
		emit(ModelCallStarted{Step: step, Tools: len(tools)})
		resp, err := r.provider.Chat(ctx, provider.Request{
			Model:    r.opts.Model.Name,
			Messages: r.history,
			Tools:    tools,
			NumCtx:   r.opts.NumCtx,
		}, func(d provider.Delta) {
			if d.Thinking != "" {
				emit(ThinkingDelta{Text: d.Thinking})
			}
			if d.Content != "" {
				emit(TextDelta{Text: d.Content})
			}
		})
		res.Steps = step
		if err != nil {
			return res, err
		}
		res.Usage = res.Usage.Add(resp.Usage)
		msg := resp.Message
		msg.Role = provider.RoleAssistant
		r.history = append(r.history, msg)
		emit(ModelCallFinished{Step: step, Message: msg, Usage: resp.Usage, ToolCalls: len(msg.ToolCalls)})

		if len(msg.ToolCalls) == 0 {
			res.Answer = msg.Content
			return res, nil
		}
		results := r.callTools(ctx, msg.ToolCalls, emit)
		for _, f := range results {
			res.ToolCalls = append(res.ToolCalls, f.event)
			r.history = append(r.history, f.message)
		}
		if err := ctx.Err(); err != nil {
			return res, err
		}
	}
}

// offeredTools is nil when the model cannot call tools, so none are sent.
func (r *Runner) offeredTools() []provider.Tool {
	if r.tools == nil || !r.opts.Model.Has(provider.CapabilityTools) {
		return nil
	}
	return r.tools.Tools()
}

type finishedCall struct {
	event   ToolCallFinished
	message provider.Message
}

// callTools runs the calls of one model turn concurrently and returns their
// results in call order, which is the order the model expects them back.
func (r *Runner) callTools(ctx context.Context, calls []provider.ToolCall, emit func(Event)) []finishedCall {
	var emitMu sync.Mutex
	send := func(e Event) {
		emitMu.Lock()
		defer emitMu.Unlock()
		emit(e)
	}
	out := make([]finishedCall, len(calls))
	var wg sync.WaitGroup
	for i, call := range calls {
		if call.Arguments == nil {
			call.Arguments = map[string]any{}
		}
		server, tool, _ := r.lookup(call.Name)
		send(ToolCallStarted{Call: call, Server: server, Tool: tool})
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			content := r.callOne(ctx, call)
			fin := ToolCallFinished{
				Call: call, Server: server, Tool: tool,
				Duration: time.Since(start),
				IsError:  content.IsError,
				Output:   content.Text,
			}
			send(fin)
			out[i] = finishedCall{event: fin, message: provider.Message{
				Role:       provider.RoleTool,
				Content:    content.Text,
				ToolName:   call.Name,
				ToolCallID: call.ID,
				IsError:    content.IsError,
				Images:     content.Images,
			}}
		}()
	}
	wg.Wait()
	return out
}

func (r *Runner) lookup(name string) (server, tool string, ok bool) {
	if r.tools == nil {
		return "", "", false
	}
	return r.tools.Lookup(name)
}

func (r *Runner) callOne(ctx context.Context, call provider.ToolCall) ToolOutput {
	if r.tools == nil {
		return ToolOutput{Text: fmt.Sprintf("unknown tool %q: no tools are available", call.Name), IsError: true}
	}
	result, err := r.tools.Call(ctx, call.Name, call.Arguments)
	if err != nil {
		if ctx.Err() != nil {
			return ToolOutput{Text: "the call was cancelled by the user", IsError: true}
		}
		return ToolOutput{Text: err.Error(), IsError: true}
	}
	return ConvertResult(result, r.opts.Model.Has(provider.CapabilityVision))
}
