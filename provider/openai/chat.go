package openai

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/mcphost/mcphost/internal/termtext"
	"github.com/mcphost/mcphost/provider"
)

// Chat runs one model call on /chat/completions, streaming. Content and
// reasoning reach onDelta chunk by chunk; tool calls are assembled from
// their fragments and returned whole.
//
// A request that fails before any text reached onDelta (the server not
// running, a 429, 502 or 503, a stream that broke before its first chunk)
// is retried as p's Retry says. Once text was shown it is not: a stream cut
// off mid-answer is an error saying so, never a silently shortened answer.
//
// A server that cannot give the model tools (llama.cpp without --jinja)
// is asked again without them, and Options.Warn says why once: the model
// answers without tools, as a model without the tools capability does on
// Ollama.
func (p *Provider) Chat(ctx context.Context, req provider.Request, onDelta func(provider.Delta)) (provider.Response, error) {
	tools := req.Tools
	if _, refused := p.noTools.Load(req.Model); refused {
		tools = nil
	}
	resp, err := p.chat(ctx, req, tools, onDelta)
	var se *statusError
	if err != nil && len(tools) > 0 && errors.As(err, &se) && se.toolsUnsupported() {
		if _, warned := p.noTools.LoadOrStore(req.Model, true); !warned {
			p.warn(fmt.Sprintf("%s cannot give model %q tools (%s): it answers without them; to use MCP tools, %s",
				p.Engine(), req.Model, se.Message, p.toolsHint()))
		}
		return p.chat(ctx, req, nil, onDelta)
	}
	return resp, err
}

// chat is one call with the given tools, retried as Chat says.
func (p *Provider) chat(ctx context.Context, req provider.Request, tools []provider.Tool, onDelta func(provider.Delta)) (provider.Response, error) {
	body, err := p.encodeRequest(req, tools)
	if err != nil {
		return provider.Response{}, err
	}
	start := time.Now()
	// The limits span the retries: a silent engine is not tried again.
	ctx, meter := req.Limits.Watch(ctx)
	defer meter.Stop()
	var acc accumulator
	err = p.withRetry(ctx, req.Model, func() (bool, error) {
		acc.reset()
		acc.meter = meter
		err := p.stream(ctx, body, &acc, onDelta)
		shown := acc.shown()
		switch {
		case meter.Err() != nil && !acc.finished():
			return shown, meter.Err()
		case err != nil:
			return shown, err
		case acc.finished():
			// A complete answer stands even if the caller gave up just
			// after it.
			return shown, nil
		case ctx.Err() != nil:
			return shown, ctx.Err()
		default:
			return shown, errCutOff
		}
	})
	if err != nil {
		if merr := meter.Err(); merr != nil && !acc.finished() {
			// A limit ended the call, however the stream then broke.
			return provider.Response{}, merr
		}
		return provider.Response{}, err
	}
	return acc.response(&p.callSeq, time.Since(start)), nil
}

// wireMessage is a message as the chat-completions API takes it.
type wireMessage struct {
	Role string `json:"role"`
	// Content is a string, or a []wirePart for a message with images.
	Content    any            `json:"content"`
	ToolCalls  []wireToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

// wirePart is one part of a message whose content is an array: its text
// or an image, as a data URL.
type wirePart struct {
	Type     string        `json:"type"`
	Text     string        `json:"text,omitempty"`
	ImageURL *wireImageURL `json:"image_url,omitempty"`
}

type wireImageURL struct {
	URL string `json:"url"`
}

type wireToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name string `json:"name"`
	// Arguments is a JSON object, as a string.
	Arguments string `json:"arguments"`
}

// wireRequest is the request body, less the tools, which are spliced in
// already encoded (see encodeRequest).
type wireRequest struct {
	Model         string        `json:"model"`
	Messages      []wireMessage `json:"messages"`
	Stream        bool          `json:"stream"`
	StreamOptions struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	// The generation parameters; top_k is not OpenAI's own, but llama.cpp,
	// vLLM and LM Studio take it.
	Temperature *float64 `json:"temperature,omitempty"`
	TopP        *float64 `json:"top_p,omitempty"`
	TopK        *int     `json:"top_k,omitempty"`
	MaxTokens   int      `json:"max_tokens,omitempty"`
	Seed        *int     `json:"seed,omitempty"`
	Stop        []string `json:"stop,omitempty"`
	// ChatTemplateKwargs and ReasoningEffort ask a model not to think
	// (see noThink).
	ChatTemplateKwargs map[string]any `json:"chat_template_kwargs,omitempty"`
	ReasoningEffort    string         `json:"reasoning_effort,omitempty"`
}

// encodeRequest builds the request body. Thinking is left out of the
// history on purpose: models are trained without their old reasoning in
// the prompt, and it would only eat the context window. The window itself
// is the server's to set (llama-server -c, vLLM's --max-model-len), so
// req.NumCtx is not sent.
func (p *Provider) encodeRequest(req provider.Request, tools []provider.Tool) ([]byte, error) {
	s := req.Generation
	w := wireRequest{Model: req.Model, Messages: make([]wireMessage, 0, len(req.Messages)), Stream: true,
		Temperature: s.Temperature, TopP: s.TopP, TopK: s.TopK, MaxTokens: s.MaxTokens, Seed: s.Seed, Stop: s.Stop}
	w.StreamOptions.IncludeUsage = true
	if req.NoThink {
		w.ChatTemplateKwargs, w.ReasoningEffort = noThink(p.Kind())
	}
	// toolImages gathers the images of a run of tool results: the API
	// takes images only in user messages, so they follow the run in one.
	var toolImages []wirePart
	for i, m := range req.Messages {
		wm := wireMessage{Role: string(m.Role), Content: m.Content, ToolCallID: m.ToolCallID}
		if m.Role == provider.RoleTool && wm.ToolCallID == "" {
			// The API needs the call a result answers; a history from a
			// session file of an older run may lack it.
			wm.ToolCallID = "call_" + m.ToolName
		}
		if m.IsError && !strings.HasPrefix(m.Content, "Error") {
			// The API has no error flag on tool results; the model only
			// knows a call failed if the text says so.
			wm.Content = "Error: " + m.Content
		}
		if len(m.ToolCalls) > 0 {
			wm.ToolCalls = make([]wireToolCall, len(m.ToolCalls))
			for j, tc := range m.ToolCalls {
				args, err := json.Marshal(nonNil(tc.Arguments))
				if err != nil {
					return nil, fmt.Errorf("encoding the arguments of %s: %w", tc.Name, err)
				}
				id := tc.ID
				if id == "" {
					id = "call_" + tc.Name
				}
				wm.ToolCalls[j] = wireToolCall{ID: id, Type: "function", Function: wireFunction{Name: tc.Name, Arguments: string(args)}}
			}
		}
		switch {
		case len(m.Images) == 0:
		case m.Role == provider.RoleUser:
			wm.Content = append(textPart(m.Content), imageParts(m.Images)...)
		case m.Role == provider.RoleTool:
			toolImages = append(toolImages, textPart("Images from the result of "+m.ToolName+":")...)
			toolImages = append(toolImages, imageParts(m.Images)...)
		}
		w.Messages = append(w.Messages, wm)
		if len(m.Images) > 0 && m.Role != provider.RoleUser && m.Role != provider.RoleTool {
			// An assistant or system message (an MCP prompt's) cannot
			// carry images either.
			w.Messages = append(w.Messages, wireMessage{Role: string(provider.RoleUser),
				Content: append(textPart("Images of the previous message:"), imageParts(m.Images)...)})
		}
		if len(toolImages) > 0 && (i+1 == len(req.Messages) || req.Messages[i+1].Role != provider.RoleTool) {
			w.Messages = append(w.Messages, wireMessage{Role: string(provider.RoleUser), Content: toolImages})
			toolImages = nil
		}
	}
	body, err := json.Marshal(&w)
	if err != nil {
		return nil, fmt.Errorf("encoding chat request: %w", err)
	}
	if len(tools) == 0 {
		return body, nil
	}
	toolsJSON := p.toolsJSON(tools)
	// body is a JSON object, so it ends in '}'. The tools are spliced in
	// rather than passed as json.RawMessage, which encoding/json would
	// scan and compact again on every call.
	out := make([]byte, 0, len(body)+len(toolsJSON)+10)
	out = append(out, body[:len(body)-1]...)
	out = append(out, `,"tools":`...)
	out = append(out, toolsJSON...)
	return append(out, '}'), nil
}

// textPart is text as a content part; none for empty text.
func textPart(text string) []wirePart {
	if text == "" {
		return nil
	}
	return []wirePart{{Type: "text", Text: text}}
}

// imageParts are images as content parts, data URLs with their MIME type
// sniffed from their bytes. The engines decode PNG, JPEG, GIF and WebP;
// another kind is named in text instead, so the model knows of it and the
// engine does not refuse the whole request.
func imageParts(images [][]byte) []wirePart {
	parts := make([]wirePart, 0, len(images))
	for _, img := range images {
		mime := http.DetectContentType(img)
		switch mime {
		case "image/png", "image/jpeg", "image/gif", "image/webp":
			parts = append(parts, wirePart{Type: "image_url", ImageURL: &wireImageURL{URL: "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(img)}})
		default:
			parts = append(parts, wirePart{Type: "text", Text: fmt.Sprintf("[image of type %s, %s: not shown, the API takes only PNG, JPEG, GIF and WebP]", mime, termtext.Bytes(len(img)))})
		}
	}
	return parts
}

func nonNil(args map[string]any) map[string]any {
	if args == nil {
		return map[string]any{}
	}
	return args
}

// maxCachedTools bounds the tool cache; past it the cache starts over.
const maxCachedTools = 4096

// toolsJSON returns the tools as the API's JSON array, each declaration
// from the cache when it was sent before.
func (p *Provider) toolsJSON(tools []provider.Tool) []byte {
	p.toolsMu.Lock()
	defer p.toolsMu.Unlock()
	if p.tools == nil {
		p.tools = make(map[string][]byte)
	}
	size := 2
	entries := make([][]byte, len(tools))
	for i, t := range tools {
		key := t.Name + "\x00" + t.Description + "\x00" + string(t.Parameters)
		b, ok := p.tools[key]
		if !ok {
			b = encodeTool(t)
			if len(p.tools) >= maxCachedTools {
				clear(p.tools)
			}
			p.tools[key] = b
		}
		entries[i] = b
		size += len(b) + 1
	}
	raw := make([]byte, 0, size)
	raw = append(raw, '[')
	for i, b := range entries {
		if i > 0 {
			raw = append(raw, ',')
		}
		raw = append(raw, b...)
	}
	return append(raw, ']')
}

// encodeTool is one declaration in the API's form. The schema goes as the
// runner normalised it; one that is not a JSON object becomes an empty
// object schema rather than costing the model every other tool.
func encodeTool(t provider.Tool) []byte {
	type function struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters"`
	}
	params := json.RawMessage(strings.TrimSpace(string(t.Parameters)))
	var probe map[string]json.RawMessage
	if len(params) == 0 || json.Unmarshal(params, &probe) != nil {
		params = json.RawMessage(`{"type":"object","properties":{}}`)
	}
	b, err := json.Marshal(struct {
		Type     string   `json:"type"`
		Function function `json:"function"`
	}{"function", function{t.Name, t.Description, params}})
	if err != nil {
		// Cannot happen for a schema that decoded above.
		b, _ = json.Marshal(map[string]any{"type": "function", "function": map[string]any{"name": t.Name, "parameters": map[string]any{"type": "object"}}})
	}
	return b
}

// noThink is how a server of kind k is asked for an answer without
// thinking. llama.cpp's llama-server, vLLM and LM Studio hand
// chat_template_kwargs to the model's chat template, and the templates of
// the thinking models they serve (Qwen3, DeepSeek-R1 distills, GLM)
// read enable_thinking; Ollama's /v1 turns reasoning_effort "none" into
// think=false. OpenAI itself, and servers not known, get nothing: OpenAI
// refuses both fields for models that do not reason, and its reasoning
// models cannot be told not to think.
func noThink(k Kind) (kwargs map[string]any, effort string) {
	switch k {
	case KindLlamaCpp, KindVLLM, KindLMStudio:
		return map[string]any{"enable_thinking": false}, ""
	case KindOllama:
		return nil, "none"
	}
	return nil, ""
}
