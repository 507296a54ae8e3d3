package host

import (
	"context"
	"log/slog"
	"strings"

	"github.com/mcphost/mcphost/runner"
)

// pipeline is the one path every event of a turn takes: from the
// runner's event to the host's, then the debug log, then (with
// MaskEvents) the masking of the config's secrets, then on.
func (h *Host) pipeline(on func(Event)) func(runner.Event) {
	debug := h.logger.Enabled(context.Background(), slog.LevelDebug)
	return func(rev runner.Event) {
		ev := eventOf(rev)
		if ev == nil {
			return
		}
		if debug {
			logEvent(h.logger, ev)
		}
		if on == nil {
			return
		}
		if h.opts.MaskEvents {
			ev = h.MaskEvent(ev)
		}
		on(ev)
	}
}

// MaskEvent masks the config's secrets in what an event carries for
// display: tool arguments and results. The model still gets them
// unmasked.
func (h *Host) MaskEvent(ev Event) Event {
	switch e := ev.(type) {
	case ToolCallStarted:
		e.Call.Arguments = h.mask.Map(e.Call.Arguments)
		return e
	case ToolCallFinished:
		e.Call.Arguments = h.mask.Map(e.Call.Arguments)
		e.Output = h.mask.String(e.Output)
		return e
	case Warning:
		e.Message = h.mask.String(e.Message)
		return e
	case ToolProgress:
		e.Call.Arguments = h.mask.Map(e.Call.Arguments)
		e.Message = h.mask.String(e.Message)
		return e
	case Finished:
		if len(e.Result.ToolCalls) > 0 {
			calls := make([]ToolCallFinished, len(e.Result.ToolCalls))
			for i, c := range e.Result.ToolCalls {
				calls[i] = h.MaskEvent(c).(ToolCallFinished)
			}
			e.Result.ToolCalls = calls
		}
		return e
	}
	return ev
}

// logEvent writes a turn's events to the debug log.
func logEvent(l *slog.Logger, ev Event) {
	switch ev := ev.(type) {
	case ModelCallStarted:
		l.Debug("model call", "step", ev.Step, "tools", ev.Tools, "estimated_tokens", ev.EstimatedTokens, "num_ctx", ev.ContextWindow)
	case ModelCallFinished:
		l.Debug("model answered", "step", ev.Step, "tool_calls", ev.ToolCalls, "recovered_from_text", ev.Recovered, "prompt_cut", ev.PromptCut,
			"prompt_tokens", ev.Usage.PromptTokens, "completion_tokens", ev.Usage.CompletionTokens, "duration", ev.Usage.Duration)
	case ToolCallStarted:
		l.Debug("tool call", "name", ev.Call.Name, "server", ev.Server, "tool", ev.Tool, "requested", ev.Requested, "recovered", ev.Recovered)
	case ToolCallFinished:
		l.Debug("tool result", "name", ev.Call.Name, "error", ev.IsError, "rejected", ev.Rejected, "duration", ev.Duration, "bytes", len(ev.Output))
	case ToolProgress:
		l.Debug("tool progress", "name", ev.Call.Name, "progress", ev.Progress, "total", ev.Total, "status", ev.Status, "message", ev.Message)
	case ToolCallRepaired:
		l.Debug("tool call repaired", "name", ev.Call.Name, "repairs", strings.Join(ev.Repairs, "; "), "repaired_calls", ev.Total)
	case ToolCallRejected:
		l.Debug("tool call rejected", "name", ev.Call.Name, "reason", ev.Reason, "rejected_calls", ev.Total)
	case HistoryTrimmed:
		if ev.Step > 1 {
			l.Debug("history trimmed within the turn: the window forced it, and the engine reads the prompt again from the first message left out",
				"step", ev.Step, "dropped_messages", ev.Dropped, "kept_messages", ev.Kept, "estimated_tokens", ev.EstimatedTokens, "budget_tokens", ev.ContextWindow)
			break
		}
		l.Debug("history trimmed", "dropped_messages", ev.Dropped, "kept_messages", ev.Kept,
			"estimated_tokens", ev.EstimatedTokens, "budget_tokens", ev.ContextWindow, "fits", ev.Fits)
	case FinalAnswerRequested:
		l.Debug("asking for a final answer without tools", "reason", ev.Reason)
	case ToolsSelected:
		offered := make([]string, len(ev.Offered))
		for i, name := range ev.Offered {
			offered[i] = name + " (" + ev.Reasons[i] + ")"
		}
		l.Debug("tools selected", "step", ev.Step, "offered", len(ev.Offered), "of", ev.Total, "estimated_tokens", ev.Tokens,
			"budget_tokens", ev.Budget, "ranker", ev.Ranker, "tools", strings.Join(offered, ", "))
	}
}

// eventOf is the host's event for one of the runner's. The types have the
// same fields, so a plain conversion copies them, and the compiler says
// when the two drift apart. It is nil for an event the host does not know.
func eventOf(ev runner.Event) Event {
	switch e := ev.(type) {
	case runner.TextDelta:
		return TextDelta(e)
	case runner.ThinkingDelta:
		return ThinkingDelta(e)
	case runner.ModelCallStarted:
		return ModelCallStarted(e)
	case runner.ModelCallFinished:
		return ModelCallFinished(e)
	case runner.ToolCallStarted:
		return ToolCallStarted(e)
	case runner.ToolCallFinished:
		return ToolCallFinished(e)
	case runner.ToolProgress:
		return ToolProgress(e)
	case runner.ToolCallApproved:
		return ToolCallApproved(e)
	case runner.ToolCallRepaired:
		return ToolCallRepaired(e)
	case runner.ToolCallRejected:
		return ToolCallRejected(e)
	case runner.HistoryTrimmed:
		return HistoryTrimmed(e)
	case runner.FinalAnswerRequested:
		return FinalAnswerRequested(e)
	case runner.ToolsSelected:
		return ToolsSelected(e)
	case runner.Warning:
		return Warning(e)
	case runner.Finished:
		return Finished{Result: resultOf(e.Result), Err: hostError(e.Err)}
	}
	return nil
}

// resultOf is the host's Result for the runner's.
func resultOf(r runner.Result) Result {
	var calls []ToolCallFinished
	if r.ToolCalls != nil {
		calls = make([]ToolCallFinished, len(r.ToolCalls))
		for i, c := range r.ToolCalls {
			calls[i] = ToolCallFinished(c)
		}
	}
	return Result{Answer: r.Answer, Steps: r.Steps, ToolCalls: calls, Usage: r.Usage,
		Recovered: r.Recovered, Repaired: r.Repaired, Rejected: r.Rejected, Empty: r.Empty}
}
