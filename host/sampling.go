package host

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/internal/guard/approval"
	"github.com/mcphost/mcphost/internal/sampling"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/runner"
	"github.com/mcphost/mcphost/tool"
)

// modelChoice is a model and the engine that serves it.
type modelChoice struct {
	backend provider.Provider
	info    provider.ModelInfo
}

// samplingMethod names sampling requests in the audit log, where tool
// calls have their tool's name.
const samplingMethod = "sampling/createMessage"

// sample answers a server's sampling request: whoever decides (the chat's
// user, or the --sampling setting) approves it, then the current model
// answers the server's messages under its system prompt and token limit.
// The model is offered no tools, so a sampling request never leads to
// tool calls, nor to another sampling request. Every request is audited
// like a tool call.
func (h *Host) sample(ctx context.Context, req ask.SamplingRequest) (res sampling.Result, err error) {
	start := time.Now()
	rec := approval.Record{Time: start, Name: samplingMethod, Server: req.Server, Tool: samplingMethod, Arguments: samplingArgs(req)}
	defer func() {
		if h.audit == nil {
			return
		}
		if err == nil {
			rec.Duration = time.Since(start)
			rec.Result = &tool.Result{Content: []tool.Content{{Kind: tool.Text, Text: res.Text}}}
		} else if rec.Outcome == approval.Allowed || rec.Outcome == approval.AskedYes {
			rec.Err = err
		}
		h.audit.Observe(rec)
	}()
	rec.Outcome = approval.Refused
	// The model a conversation last chose, else the Host's own.
	backend, model := h.backend, h.model
	if cur := h.current.Load(); cur != nil {
		backend, model = cur.backend, cur.info
	}
	if backend == nil {
		h.warn(fmt.Sprintf("server %q asked the model for a completion, and this run has no model", req.Server))
		return res, fmt.Errorf("%w: mcphost runs without a model here", sampling.ErrDenied)
	}
	// The Asker decides, else (no one to ask) the sampling setting.
	var ok bool
	policy := true
	if a := h.currentAsker(); a != nil {
		ok, err = a.ApproveSampling(ctx, req)
		policy = errors.Is(err, ask.ErrNoOne)
	}
	if policy {
		ok, err = sampling.Policy(h.settings.ServerSampling, h.warn)(ctx, req)
	}
	switch {
	case err != nil:
		return res, fmt.Errorf("%w: %w", sampling.ErrDenied, err)
	case !ok && policy:
		return res, fmt.Errorf("%w: mcphost runs with --sampling deny", sampling.ErrDenied)
	case !ok:
		rec.Outcome = approval.AskedNo
		return res, fmt.Errorf("%w by the user", sampling.ErrDenied)
	}
	rec.Outcome = approval.Allowed
	if !policy {
		rec.Outcome = approval.AskedYes
	}
	var msgs []provider.Message
	if req.SystemPrompt != "" {
		msgs = append(msgs, provider.Message{Role: provider.RoleSystem, Content: req.SystemPrompt})
	}
	vision := model.Has(provider.CapabilityVision)
	for _, m := range req.Messages {
		msg := provider.Message{Role: provider.RoleUser}
		if m.Role == "assistant" {
			msg.Role = provider.RoleAssistant
		}
		out := runner.ConvertResult(&tool.Result{Content: m.Content}, vision)
		msg.Content, msg.Images = out.Text, out.Images
		msgs = append(msgs, msg)
	}
	s := h.settings
	var tl *runner.PromptTooLargeError
	if errors.As(runner.CheckFits(model, s.NumCtx, msgs), &tl) {
		// The engine would cut the request, and answer what the server
		// did not ask.
		return res, fmt.Errorf("the sampling request is about %d tokens, more than %s's context window of %d less %d kept for the answer: the model was not asked",
			tl.Tokens, model.Name, tl.Window, tl.Reserve)
	}
	// As work of the Host: no model call starts once Close has begun.
	resp, err := guard(h, ctx, func(ctx context.Context) (provider.Response, error) {
		if err := ctx.Err(); err != nil {
			return provider.Response{}, err
		}
		return backend.Chat(ctx, provider.Request{
			Model: model.Name, Messages: msgs,
			NumCtx: runner.ContextWindow(model, s.NumCtx),
			// The server's limit, temperature and stops over the model's own
			// generation parameters.
			Generation: h.generationFor(model.Name).Over(provider.GenerationOptions{MaxTokens: req.MaxTokens, Temperature: req.Temperature, Stop: req.StopSequences}),
			Limits:     provider.Limits{MaxReplyBytes: s.MaxReplyBytes, IdleTimeout: s.ModelIdleTimeout, Timeout: s.ModelTimeout},
		}, nil)
	})
	if err != nil {
		var perr *provider.Error
		if errors.As(err, &perr) {
			return res, errors.New(perr.Message)
		}
		return res, fmt.Errorf("the model failed: %w", err)
	}
	stop := "endTurn"
	if resp.DoneReason == "length" {
		stop = "maxTokens"
	}
	return sampling.Result{Text: resp.Message.Content, Model: model.Name, StopReason: stop}, nil
}

// samplingArgs is what the audit log keeps of a request: its size and
// limits, and a summary of its last message, not the whole conversation.
func samplingArgs(req ask.SamplingRequest) map[string]any {
	args := map[string]any{"messages": len(req.Messages), "last_message": req.Summary(200)}
	if req.MaxTokens > 0 {
		args["max_tokens"] = req.MaxTokens
	}
	if req.SystemPrompt != "" {
		args["system_prompt"] = req.SystemPrompt
	}
	return args
}
