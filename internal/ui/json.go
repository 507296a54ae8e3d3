package ui

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/provider"
)

// ToolCallRecord is one tool call in the machine-readable output.
type ToolCallRecord struct {
	ID         string         `json:"id,omitempty"`
	Name       string         `json:"name"`
	Server     string         `json:"server,omitempty"`
	Tool       string         `json:"tool,omitempty"`
	Arguments  map[string]any `json:"arguments"`
	OK         bool           `json:"ok"`
	DurationMS float64        `json:"duration_ms"`
	Output     string         `json:"output,omitempty"`
}

// LeftOutRecord is one server the run went without, and why.
type LeftOutRecord struct {
	Server string `json:"server"`
	// State is "failed" (it could not start) or "starting" (still
	// starting after the wait; its tools join once it is ready).
	State  string `json:"state"`
	Reason string `json:"reason"`
}

// ModelCallRecord is one model request in the machine-readable output:
// the tools it offered, in the order sent, and, when only some of them
// were (tool selection), how they were ranked.
type ModelCallRecord struct {
	Step    int      `json:"step"`
	Offered []string `json:"offered"`
	// Ranker is "lexical" or "embedding+lexical" when only some tools
	// were offered, empty (left out) when all were.
	Ranker string `json:"ranker,omitempty"`
	// EstimatedTokens is mcphost's estimate of the request's prompt,
	// ContextWindow the window it asked for (0: the engine's default).
	EstimatedTokens int `json:"estimated_tokens"`
	ContextWindow   int `json:"context_window"`
}

// UsageRecord is token accounting in the machine-readable output.
type UsageRecord struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// Final is the outcome of a run, the last object of both JSON modes.
type Final struct {
	Type       string           `json:"type"` // "final"
	Answer     string           `json:"answer"`
	Model      string           `json:"model"`
	StopReason string           `json:"stop_reason"`
	Steps      int              `json:"steps"`
	ToolCalls  []ToolCallRecord `json:"tool_calls"`
	Usage      UsageRecord      `json:"usage"`
	Warnings   []string         `json:"warnings"`
	// LeftOut are the servers whose tools the model went without: those
	// that failed to start, and those still starting after the wait
	// (--server-wait).
	LeftOut []LeftOutRecord `json:"servers_left_out"`
	// ModelCalls are the run's model requests, each with the tools it
	// offered.
	ModelCalls []ModelCallRecord `json:"model_calls"`
	Error      string            `json:"error,omitempty"`
	ExitCode   int               `json:"exit_code"`
	// Mcphost is the build that ran (version, commit, date).
	Mcphost any `json:"mcphost,omitempty"`
}

// StopReason names how a run ended, for the final object.
func StopReason(err error) string {
	switch {
	case err == nil:
		return StopAnswered
	case errors.Is(err, host.ErrLoop):
		return StopLoopGuard
	case errors.Is(err, host.ErrMaxSteps):
		return StopMaxSteps
	case errors.Is(err, context.Canceled):
		return StopInterrupted
	default:
		return StopError
	}
}

// The stop reasons of Final.
const (
	StopAnswered    = "answered"
	StopMaxSteps    = "max_steps"
	StopLoopGuard   = "loop_guard"
	StopError       = "error"
	StopInterrupted = "interrupted"
	// StopEmpty: the model's final answer had no text.
	StopEmpty = "empty"
)

// JSON renders a run for programs: with Stream, one JSON object per line
// as things happen (start, text and thinking deltas, tool calls, usage,
// warnings, final); without, only the final object. Nothing else is
// written to its writer, so every line parses.
type JSON struct {
	opts  JSONOptions
	enc   *json.Encoder
	mu    sync.Mutex
	final Final
}

// JSONOptions say where and how a run is shown as JSON.
type JSONOptions struct {
	// Out receives the JSON; nothing else is written to it.
	Out io.Writer
	// Stream writes JSON lines as things happen, not only the final object.
	Stream bool
	// Model is named in the start and final objects.
	Model string
	// Err, when not nil, also gets each warning as a line of text, for the
	// person watching a JSON run (unless Quiet).
	Err   io.Writer
	Quiet bool
	// Version, when not nil, is reported as the final object's "mcphost".
	Version any
}

// NewJSON returns a JSON renderer.
func NewJSON(opts JSONOptions) *JSON {
	enc := json.NewEncoder(opts.Out)
	enc.SetEscapeHTML(false)
	return &JSON{opts: opts, enc: enc, final: Final{
		Type: "final", Model: opts.Model, ToolCalls: []ToolCallRecord{}, Warnings: []string{}, LeftOut: []LeftOutRecord{}, ModelCalls: []ModelCallRecord{},
		Mcphost: opts.Version,
	}}
}

func (j *JSON) emit(v any) {
	if j.opts.Stream {
		_ = j.enc.Encode(v)
	}
}

// Start reports the servers and the tools the model sees (stream-json).
func (j *JSON) Start(servers []ServerRecord, tools []string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if servers == nil {
		servers = []ServerRecord{}
	}
	if tools == nil {
		tools = []string{}
	}
	for _, s := range servers {
		if s.State == string(host.StateFailed) {
			j.final.LeftOut = append(j.final.LeftOut, LeftOutRecord{Server: s.Name, State: s.State, Reason: s.Error})
		}
	}
	j.emit(struct {
		Type    string         `json:"type"`
		Model   string         `json:"model"`
		Servers []ServerRecord `json:"servers"`
		Tools   []string       `json:"tools"`
	}{"start", j.final.Model, servers, tools})
}

type textLine struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// Handle renders one runner event.
func (j *JSON) Handle(ev host.Event) {
	j.mu.Lock()
	defer j.mu.Unlock()
	switch ev := ev.(type) {
	case host.TextDelta:
		j.emit(textLine{"text", ev.Text})
	case host.ThinkingDelta:
		j.emit(textLine{"thinking", ev.Text})
	case host.ModelCallStarted:
		rec := ModelCallRecord{Step: ev.Step, Offered: ev.Offered, Ranker: ev.Ranker, EstimatedTokens: ev.EstimatedTokens, ContextWindow: ev.ContextWindow}
		if rec.Offered == nil {
			rec.Offered = []string{}
		}
		j.final.ModelCalls = append(j.final.ModelCalls, rec)
		j.emit(struct {
			Type string `json:"type"`
			ModelCallRecord
		}{"model_call", rec})
	case host.ModelCallFinished:
		j.final.Steps = ev.Step
		j.emit(struct {
			Type string `json:"type"`
			Step int    `json:"step"`
			UsageRecord
		}{"usage", ev.Step, usageRecord(ev.Usage)})
	case host.ToolCallStarted:
		j.emit(struct {
			Type      string         `json:"type"`
			ID        string         `json:"id,omitempty"`
			Name      string         `json:"name"`
			Server    string         `json:"server,omitempty"`
			Tool      string         `json:"tool,omitempty"`
			Arguments map[string]any `json:"arguments"`
		}{"tool_call_start", ev.Call.ID, ev.Call.Name, ev.Server, ev.Tool, nonNil(ev.Call.Arguments)})
	case host.ToolCallFinished:
		rec := ToolCallRecord{
			ID: ev.Call.ID, Name: ev.Call.Name, Server: ev.Server, Tool: ev.Tool,
			Arguments: nonNil(ev.Call.Arguments), OK: !ev.IsError,
			DurationMS: float64(ev.Duration) / float64(time.Millisecond), Output: ev.Output,
		}
		j.final.ToolCalls = append(j.final.ToolCalls, rec)
		j.emit(struct {
			Type string `json:"type"`
			ToolCallRecord
		}{"tool_call_end", rec})
	case host.ToolProgress:
		j.emit(struct {
			Type     string  `json:"type"`
			ID       string  `json:"id,omitempty"`
			Name     string  `json:"name"`
			Progress float64 `json:"progress"`
			Total    float64 `json:"total,omitempty"`
			Message  string  `json:"message,omitempty"`
			Status   string  `json:"status,omitempty"`
		}{"progress", ev.Call.ID, ev.Call.Name, ev.Progress, ev.Total, ev.Message, ev.Status})
	case host.ToolsSelected:
		offered := make([]offeredTool, len(ev.Offered))
		for i, name := range ev.Offered {
			offered[i] = offeredTool{name, ev.Reasons[i]}
		}
		j.emit(struct {
			Type   string        `json:"type"`
			Step   int           `json:"step"`
			Tools  []offeredTool `json:"offered"`
			Total  int           `json:"total"`
			Tokens int           `json:"tokens"`
			Budget int           `json:"budget"`
			Ranker string        `json:"ranker"`
		}{"tools_selected", ev.Step, offered, ev.Total, ev.Tokens, ev.Budget, ev.Ranker})
	case host.Warning:
		j.warnLocked(ev.Message)
	case host.ServerLeftOut:
		rec := LeftOutRecord{Server: ev.Server, State: string(host.StateStarting), Reason: ev.Reason}
		if !slices.ContainsFunc(j.final.LeftOut, func(r LeftOutRecord) bool { return r.Server == rec.Server }) {
			j.final.LeftOut = append(j.final.LeftOut, rec)
		}
		j.emit(struct {
			Type string `json:"type"`
			LeftOutRecord
		}{"server_left_out", rec})
	}
}

// offeredTool is one tool of a tools_selected line: its name and why it
// is offered.
type offeredTool struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// Warn records a warning (and streams it).
func (j *JSON) Warn(msg string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.warnLocked(msg)
}

func (j *JSON) warnLocked(msg string) {
	if j.opts.Err != nil && !j.opts.Quiet {
		Warn(j.opts.Err, msg)
	}
	j.final.Warnings = append(j.final.Warnings, msg)
	j.emit(struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	}{"warning", msg})
}

// Finish writes the final object. err is the run's error, if any.
func (j *JSON) Finish(res host.Result, err error, exitCode int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.final.Answer = res.Answer
	j.final.StopReason = StopReason(err)
	if err == nil && res.Empty {
		j.final.StopReason = StopEmpty
	}
	j.final.Usage = usageRecord(res.Usage)
	j.final.ExitCode = exitCode
	if err != nil {
		j.final.Error = err.Error()
	}
	_ = j.enc.Encode(j.final)
}

func usageRecord(u provider.Usage) UsageRecord {
	return UsageRecord{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens}
}

func nonNil(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
