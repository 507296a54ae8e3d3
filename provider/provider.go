// Package provider defines the neutral conversation types the runner speaks
// ([Message], [ToolCall], [Tool] declarations, [Usage]) and the small
// [Provider] interface a model backend implements, with the optional
// [Lister], [Puller] and [Embedder]. Backends live in subpackages (provider/ollama, and
// provider/openai for every OpenAI-compatible engine); the runner never
// sees their wire types. Engines is the one table of the engines a model
// reference may name ("ollama:qwen3:8b", "llamacpp:MODEL"): their names,
// protocol, usual address and what messages say of them.
package provider

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"
)

// Role says who wrote a message.
type Role string

// The roles of a conversation.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one entry of the conversation history.
type Message struct {
	Role    Role   `json:"role"`
	Content string `json:"content"`
	// Thinking is a reasoning model's thinking. It is shown to the user but
	// never sent back to the model.
	Thinking string `json:"thinking,omitempty"`
	// ToolCalls are the calls an assistant message asks for.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolName and ToolCallID identify the call a tool message answers.
	ToolName   string `json:"tool_name,omitempty"`
	ToolCallID string `json:"tool_call_id,omitempty"`
	// IsError marks a tool message whose call failed.
	IsError bool `json:"is_error,omitempty"`
	// Images are raw image bytes (PNG, JPEG, ...) for vision models.
	Images [][]byte `json:"images,omitempty"`
}

// ToolCall is one function call requested by the model.
type ToolCall struct {
	ID        string         `json:"id,omitempty"`
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// Tool declares a function the model may call.
type Tool struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Parameters is the JSON Schema (an object schema) of the arguments.
	Parameters json.RawMessage `json:"parameters"`
}

// Usage is the token accounting of one model call, as the backend counted it.
type Usage struct {
	PromptTokens     int           `json:"prompt_tokens"`
	CompletionTokens int           `json:"completion_tokens"`
	Duration         time.Duration `json:"duration"`
}

// Add returns the sum of two usages.
func (u Usage) Add(o Usage) Usage {
	return Usage{
		PromptTokens:     u.PromptTokens + o.PromptTokens,
		CompletionTokens: u.CompletionTokens + o.CompletionTokens,
		Duration:         u.Duration + o.Duration,
	}
}

// Request is one model call.
type Request struct {
	Model    string
	Messages []Message
	// Tools is nil when the model must answer in text.
	Tools []Tool
	// NumCtx is the context window to ask for; 0 leaves the backend's default.
	NumCtx int
	// Think asks a reasoning model to think, with the thinking returned
	// apart from the answer. Only set it for models with the thinking
	// capability: backends refuse it otherwise.
	Think bool
	// NoThink asks the model not to think at all (--think=false), for the
	// engines that can be asked; it wins over Think. Neither set leaves it
	// to the model.
	NoThink bool
	// Limits bound the call: the size of the reply and how long the
	// engine may stay silent. Backends enforce them with Limits.Watch.
	Limits Limits
	// Generation are the generation parameters; the zero value leaves
	// every one to the engine.
	Generation GenerationOptions
}

// GenerationOptions are the generation parameters of a model call (not MCP
// sampling, which is a server asking the model for a completion). A nil
// pointer or a zero MaxTokens leaves that parameter to the engine; small
// local models call tools more reliably with a low temperature.
type GenerationOptions struct {
	Temperature *float64 `json:"temperature,omitempty"`
	TopP        *float64 `json:"top_p,omitempty"`
	TopK        *int     `json:"top_k,omitempty"`
	// MaxTokens bounds the reply (Ollama's num_predict).
	MaxTokens int  `json:"max_tokens,omitempty"`
	Seed      *int `json:"seed,omitempty"`
	// Stop ends the reply at any of these strings.
	Stop []string `json:"stop,omitempty"`
}

// Over returns s with every parameter that o sets taken from o: a model's
// own parameters over the general ones.
func (s GenerationOptions) Over(o GenerationOptions) GenerationOptions {
	if o.Temperature != nil {
		s.Temperature = o.Temperature
	}
	if o.TopP != nil {
		s.TopP = o.TopP
	}
	if o.TopK != nil {
		s.TopK = o.TopK
	}
	if o.MaxTokens != 0 {
		s.MaxTokens = o.MaxTokens
	}
	if o.Seed != nil {
		s.Seed = o.Seed
	}
	if o.Stop != nil {
		s.Stop = o.Stop
	}
	return s
}

// IsZero reports whether s leaves everything to the engine.
func (s GenerationOptions) IsZero() bool {
	return s.Temperature == nil && s.TopP == nil && s.TopK == nil && s.MaxTokens == 0 && s.Seed == nil && s.Stop == nil
}

// Delta is a piece of streamed output.
type Delta struct {
	Content  string
	Thinking string
}

// Response is the complete reply of one model call.
type Response struct {
	Message    Message
	Usage      Usage
	DoneReason string
}

// Capabilities a model may have, as Ollama names them.
const (
	CapabilityTools      = "tools"
	CapabilityVision     = "vision"
	CapabilityThinking   = "thinking"
	CapabilityCompletion = "completion"
)

// ModelInfo describes a model the backend can serve.
type ModelInfo struct {
	Name         string
	Capabilities []string
	// ContextLength is the model's trained context window; 0 when unknown.
	ContextLength int
	// FixedContext means ContextLength is the window the engine serves
	// the model with (llama.cpp's --ctx-size, vLLM's --max-model-len, a
	// model LM Studio has loaded), which no request can change: it is the
	// window to budget for, whatever --num-ctx says.
	FixedContext bool
	// CapabilitiesAssumed means the engine does not say what the model
	// can do (vLLM, most OpenAI-compatible servers): Capabilities holds
	// what is assumed, completion and tools.
	CapabilitiesAssumed bool
	// Size is the model's size in bytes, 0 when the engine does not say.
	Size int64
	// Family is the model's architecture as the engine names it ("llama",
	// "qwen3", "nomic-bert"), empty when it does not say.
	Family string
}

// Has reports whether the model has the named capability.
func (m ModelInfo) Has(capability string) bool { return slices.Contains(m.Capabilities, capability) }

// Provider is a model backend.
type Provider interface {
	// Name is the prefix users write in model references ("ollama").
	Name() string
	// Show describes a model, or returns an *[Error] of kind ErrModelNotFound
	// or ErrUnreachable.
	Show(ctx context.Context, model string) (ModelInfo, error)
	// Chat runs one model call. onDelta, when not nil, receives the output
	// as it streams; the returned [Response] holds all of it. A call that
	// passes req.Limits fails with an *[Error] wrapping ErrReplyTooLarge,
	// ErrIdle or ErrTimeout.
	Chat(ctx context.Context, req Request, onDelta func(Delta)) (Response, error)
}

// Lister is a backend that can list the models it serves, for "mcphost
// models" and the chat's /model.
type Lister interface {
	// ListModels returns the engine's models, sorted by name, with what
	// the engine says about each.
	ListModels(ctx context.Context) ([]ModelInfo, error)
}

// PullProgress is one step of a model download.
type PullProgress struct {
	// Status is the engine's word for the step ("pulling manifest",
	// "pulling sha256:…", "verifying sha256 digest", "success").
	Status string
	// Completed and Total are the bytes of the part being downloaded;
	// Total is 0 for steps that download nothing.
	Completed, Total int64
}

// Puller is a backend that can download a model it does not have
// (Ollama's /api/pull).
type Puller interface {
	// Pull downloads model, calling progress (which may be nil) as it
	// goes. It returns an *[Error] worded for the user.
	Pull(ctx context.Context, model string, progress func(PullProgress)) error
}

// Sentinel kinds of provider failure, for errors.Is.
var (
	// ErrModelNotFound means the backend does not have the model.
	ErrModelNotFound = errors.New("model not found")
	// ErrUnreachable means the backend did not answer at all.
	ErrUnreachable = errors.New("provider unreachable")
	// ErrProvider is any other failure reported by the backend.
	ErrProvider = errors.New("provider error")
)

// Error is a backend failure already worded for the user. Kind is one of the
// sentinel errors above, so errors.Is(err, ErrModelNotFound) works.
type Error struct {
	Kind    error
	Message string
	Err     error
}

func (e *Error) Error() string { return e.Message }

// Is makes errors.Is match the error's kind.
func (e *Error) Is(target error) bool { return target == e.Kind }

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Embedder is a [Provider] that can also embed texts with an embedding
// model: one vector per text, in order, whose cosine similarities say how
// close the texts' meanings are.
type Embedder interface {
	Embed(ctx context.Context, model string, texts []string) ([][]float32, error)
}
