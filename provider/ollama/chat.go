package ollama

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/provider"
)

// Chat runs one model call on /api/chat, streaming. Content and thinking
// reach onDelta chunk by chunk as Ollama sends them; tool calls are
// collected whole, since Ollama sends each one complete.
//
// A request that fails before any text reached onDelta (Ollama not
// running, a 5xx, a stream that broke before its first chunk) is retried
// as p's Retry says. Once text was shown it is not: a stream cut off
// mid-answer is an error saying so, never a silently shortened answer.
func (p *Provider) Chat(ctx context.Context, req provider.Request, onDelta func(provider.Delta)) (provider.Response, error) {
	creq, toolsJSON := p.chatRequest(req)
	// The limits span the retries: a silent engine is not tried again.
	ctx, meter := req.Limits.Watch(ctx)
	defer meter.Stop()
	var acc accumulator
	err := p.withRetry(ctx, req.Model, func() (bool, error) {
		acc = accumulator{}
		cut, err := p.streamChat(ctx, creq, toolsJSON, func(r api.ChatResponse) {
			if meter.Add(replySize(r)) {
				acc.add(r, onDelta)
			}
		})
		shown := acc.shown()
		switch {
		case meter.Err() != nil && !acc.done:
			return shown, meter.Err()
		case err != nil:
			return shown, err
		case acc.done:
			// A complete answer stands even if the caller gave up just
			// after it.
			return shown, nil
		case ctx.Err() != nil:
			// A stream ends early from our cancellation or from the
			// server's death; tell the two apart.
			return shown, ctx.Err()
		case cut != nil:
			return shown, fmt.Errorf("%w: %w", errCut, cut)
		default:
			return shown, errCut
		}
	})
	if err != nil {
		if merr := meter.Err(); merr != nil && !acc.done {
			// A limit ended the call, however the stream then broke.
			return provider.Response{}, merr
		}
		return provider.Response{}, err
	}
	return acc.response(&p.callSeq), nil
}

// replySize is what a chunk adds to the reply, for the reply's size limit:
// its text, its thinking and its tool calls.
func replySize(r api.ChatResponse) int {
	n := len(r.Message.Content) + len(r.Message.Thinking)
	for _, c := range r.Message.ToolCalls {
		n += len(c.Function.Name) + len(c.Function.Arguments.String())
	}
	return n
}

// chatRequest translates a neutral request into Ollama's, and returns its
// tools also already encoded (see toAPITools).
func (p *Provider) chatRequest(req provider.Request) (*api.ChatRequest, json.RawMessage) {
	stream := true
	tools, toolsJSON := p.toAPITools(req.Tools)
	out := &api.ChatRequest{
		Model:    req.Model,
		Messages: toAPIMessages(req.Messages),
		Stream:   &stream,
		Tools:    tools,
	}
	if opts := options(req); len(opts) > 0 {
		out.Options = opts
	}
	switch {
	case req.NoThink:
		// Ollama passes it to the template, which tells the model not to
		// think (Qwen3's /no_think, gpt-oss's low effort).
		out.Think = &api.ThinkValue{Value: false}
	case req.Think:
		// Without it, some templates leave <think> blocks in the content;
		// with it, Ollama returns the thinking in its own field.
		out.Think = &api.ThinkValue{Value: true}
	}
	return out, toolsJSON
}

// toAPIMessages translates the history. Thinking is left out on purpose:
// models are trained without their old reasoning in the prompt, and it
// would only eat the context window.
func toAPIMessages(msgs []provider.Message) []api.Message {
	out := make([]api.Message, len(msgs))
	for i, m := range msgs {
		am := api.Message{
			Role:       string(m.Role),
			Content:    m.Content,
			ToolName:   m.ToolName,
			ToolCallID: m.ToolCallID,
		}
		// Ollama has no error flag on tool results; the model only knows a
		// call failed if the text says so.
		if m.IsError && !strings.HasPrefix(m.Content, "Error") {
			am.Content = "Error: " + m.Content
		}
		if len(m.Images) > 0 {
			am.Images = make([]api.ImageData, len(m.Images))
			for j, img := range m.Images {
				am.Images[j] = api.ImageData(img)
			}
		}
		if len(m.ToolCalls) > 0 {
			am.ToolCalls = make([]api.ToolCall, len(m.ToolCalls))
			for j, tc := range m.ToolCalls {
				am.ToolCalls[j] = api.ToolCall{
					ID: tc.ID,
					Function: api.ToolCallFunction{
						Index:     j,
						Name:      tc.Name,
						Arguments: toAPIArguments(tc.Arguments),
					},
				}
			}
		}
		out[i] = am
	}
	return out
}

// toAPIArguments keeps the arguments in sorted key order, so the same call
// renders to the same prompt every time (and hits Ollama's prompt cache).
func toAPIArguments(args map[string]any) api.ToolCallFunctionArguments {
	a := api.NewToolCallFunctionArguments()
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		a.Set(k, args[k])
	}
	return a
}

// accumulator gathers a streamed answer.
type accumulator struct {
	content, thinking strings.Builder
	calls             []api.ToolCall
	done              bool
	last              api.ChatResponse
}

func (a *accumulator) add(r api.ChatResponse, onDelta func(provider.Delta)) {
	m := r.Message
	if m.Content != "" || m.Thinking != "" {
		a.content.WriteString(m.Content)
		a.thinking.WriteString(m.Thinking)
		if onDelta != nil {
			onDelta(provider.Delta{Content: m.Content, Thinking: m.Thinking})
		}
	}
	a.calls = append(a.calls, m.ToolCalls...)
	if r.Done {
		a.done = true
		a.last = r
	}
}

// shown reports whether any text has gone to onDelta.
func (a *accumulator) shown() bool { return a.content.Len() > 0 || a.thinking.Len() > 0 }

// response builds the final answer; seq numbers calls that came without ID.
func (a *accumulator) response(seq *atomic.Uint64) provider.Response {
	msg := provider.Message{
		Role:     provider.RoleAssistant,
		Content:  a.content.String(),
		Thinking: a.thinking.String(),
	}
	if len(a.calls) > 0 {
		msg.ToolCalls = make([]provider.ToolCall, len(a.calls))
		for i, c := range a.calls {
			id := c.ID
			if id == "" {
				id = "call_" + strconv.FormatUint(seq.Add(1), 10)
			}
			args := c.Function.Arguments.ToMap()
			if args == nil {
				// Callers marshal the arguments back; {} is a valid call,
				// null is not.
				args = map[string]any{}
			}
			msg.ToolCalls[i] = provider.ToolCall{ID: id, Name: c.Function.Name, Arguments: args}
		}
	}
	return provider.Response{
		Message: msg,
		Usage: provider.Usage{
			PromptTokens:     a.last.PromptEvalCount,
			CompletionTokens: a.last.EvalCount,
			Duration:         a.last.TotalDuration,
		},
		DoneReason: a.last.DoneReason,
	}
}

// options are the request's Ollama options: the context window and the
// generation parameters, by Ollama's names.
func options(req provider.Request) map[string]any {
	o := map[string]any{}
	if req.NumCtx > 0 {
		o["num_ctx"] = req.NumCtx
	}
	s := req.Generation
	if s.Temperature != nil {
		o["temperature"] = *s.Temperature
	}
	if s.TopP != nil {
		o["top_p"] = *s.TopP
	}
	if s.TopK != nil {
		o["top_k"] = *s.TopK
	}
	if s.MaxTokens > 0 {
		o["num_predict"] = s.MaxTokens
	}
	if s.Seed != nil {
		o["seed"] = *s.Seed
	}
	if len(s.Stop) > 0 {
		o["stop"] = s.Stop
	}
	return o
}
