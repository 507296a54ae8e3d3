package ui

import (
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/runner"
)

// ServerInfo describes one MCP server in the machine-readable output.
type ServerInfo struct {
	Name      string `json:"name"`
	State     string `json:"state"`
	Transport string `json:"transport"`
	Tools     int    `json:"tools"`
	Error     string `json:"error,omitempty"`
}

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
	Error      string           `json:"error,omitempty"`
	ExitCode   int              `json:"exit_code"`
}

// The stop reasons of Final.
const (
	StopAnswered    = "answered"
	StopMaxSteps    = "max_steps"
	StopLoopGuard   = "loop_guard"
	StopError       = "error"
	StopInterrupted = "interrupted"
)

// JSON renders a run for programs: with Stream, one JSON object per line
// as things happen (start, text and thinking deltas, tool calls, usage,
// warnings, final); without, only the final object. Nothing else is
// written to its writer, so every line parses.
type JSON struct {
	stream bool
	enc    *json.Encoder
	mu     sync.Mutex
	final  Final
}

// NewJSON returns a JSON renderer writing to out.
func NewJSON(out io.Writer, stream bool, model string) *JSON {
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	return &JSON{stream: stream, enc: enc, final: Final{
		Type: "final", Model: model, ToolCalls: []ToolCallRecord{}, Warnings: []string{},
	}}
}

func (j *JSON) emit(v any) {
	if j.stream {
		_ = j.enc.Encode(v)
	}
}

// Start reports the servers and the tools the model sees (stream-json).
func (j *JSON) Start(servers []ServerInfo, tools []string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if servers == nil {
		servers = []ServerInfo{}
	}
	if tools == nil {
		tools = []string{}
	}
	j.emit(struct {
		Type    string       `json:"type"`
		Model   string       `json:"model"`
		Servers []ServerInfo `json:"servers"`
		Tools   []string     `json:"tools"`
	}{"start", j.final.Model, servers, tools})
}

type textLine struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// Handle renders one runner event.
func (j *JSON) Handle(ev runner.Event) {
	j.mu.Lock()
	defer j.mu.Unlock()
	switch ev := ev.(type) {
	case runner.TextDelta:
		j.emit(textLine{"text", ev.Text})
	case runner.ThinkingDelta:
		j.emit(textLine{"thinking", ev.Text})
	case runner.ModelCallFinished:
		j.final.Steps = ev.Step
		j.emit(struct {
			Type string `json:"type"`
			Step int    `json:"step"`
			UsageRecord
		}{"usage", ev.Step, usageRecord(ev.Usage)})
	case runner.ToolCallStarted:
		j.emit(struct {
			Type      string         `json:"type"`
			ID        string         `json:"id,omitempty"`
			Name      string         `json:"name"`
			Server    string         `json:"server,omitempty"`
			Tool      string         `json:"tool,omitempty"`
			Arguments map[string]any `json:"arguments"`
		}{"tool_call_start", ev.Call.ID, ev.Call.Name, ev.Server, ev.Tool, nonNil(ev.Call.Arguments)})
	case runner.ToolCallFinished:
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
	case runner.Warning:
		j.warnLocked(ev.Message)
	}
}

// Warn records a warning (and streams it).
func (j *JSON) Warn(msg string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.warnLocked(msg)
}

func (j *JSON) warnLocked(msg string) {
	j.final.Warnings = append(j.final.Warnings, msg)
	j.emit(struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	}{"warning", msg})
}

// Finish writes the final object. err is the run's error, if any.
func (j *JSON) Finish(answer, stopReason string, usage provider.Usage, err error, exitCode int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.final.Answer = answer
	j.final.StopReason = stopReason
	j.final.Usage = usageRecord(usage)
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
