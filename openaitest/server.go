// Package openaitest provides a scripted OpenAI-compatible HTTP server for
// tests, in the manner of net/http/httptest, that answers as llama.cpp's
// llama-server, vLLM, LM Studio or a plain OpenAI-compatible server does.
//
// A [Server] answers /v1/chat/completions from a queue of [Reply] values
// (or a function of the request), lists its [Model] values on /v1/models
// with each engine's own fields (llama.cpp's meta, vLLM's max_model_len),
// serves llama.cpp's /props and LM Studio's /api/v0/models, words errors
// in each engine's shape, and records every chat request. Replies stream
// as server-sent events the way the engines stream them: a role chunk,
// reasoning, content, tool calls whose arguments arrive in small fragments
// (several calls interleaved by index when asked), the finish, the usage
// chunk when stream_options.include_usage asks for it, and [DONE].
package openaitest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Flavor is the engine the server imitates.
type Flavor string

// The engines a Server can imitate.
const (
	LlamaCpp Flavor = "llamacpp"
	VLLM     Flavor = "vllm"
	LMStudio Flavor = "lmstudio"
	OpenAI   Flavor = "openai"
)

// Model is a model the server serves.
type Model struct {
	ID string
	// ContextLength is the window: llama.cpp's n_ctx (/props) and
	// n_ctx_train, vLLM's max_model_len, LM Studio's max_context_length
	// (and loaded_context_length when Loaded).
	ContextLength int
	// Size in bytes, in llama.cpp's meta.
	Size int64
	// Loaded is LM Studio's state "loaded".
	Loaded bool
	// Embeddings makes it an LM Studio embedding model.
	Embeddings bool
	// Vision makes it see images: llama.cpp's /props says
	// modalities.vision (for the first model), LM Studio's type is "vlm".
	Vision bool
}

// Options configure a Server.
type Options struct {
	Flavor Flavor
	// Models are served; llama.cpp serves the first under any name.
	Models []Model
	// APIKey, when not empty, must come as "Authorization: Bearer KEY";
	// other requests get the engine's 401.
	APIKey string
	// ToolsRefused makes a request with tools fail as llama.cpp without
	// --jinja does (a 500 "tools param requires --jinja flag"), or vLLM
	// without --enable-auto-tool-choice (a 400).
	ToolsRefused bool
	// TemplateTools, for llama.cpp, is what /props says about tools in
	// chat_template_caps: nil leaves the caps out.
	TemplateTools *bool
}

// Call is a tool call a Reply makes.
type Call struct {
	// ID is sent as given; "" sends none.
	ID   string
	Name string
	// Arguments is the JSON object of arguments, as text.
	Arguments string
}

// Reply scripts the answer to one chat request.
type Reply struct {
	// Content is the answer text, streamed in about three pieces; Chunks,
	// when not nil, are the pieces instead.
	Content string
	Chunks  []string
	// Reasoning is streamed before the content, in pieces, in the field
	// ReasoningField names: "reasoning_content" (llama.cpp, LM Studio,
	// DeepSeek) or "reasoning" (vLLM, Ollama); "" means the flavor's.
	Reasoning      string
	ReasoningField string
	// ToolCalls are streamed after the content: each call's first
	// fragment has its ID and name, then its arguments follow in
	// ArgPiece-byte fragments (default 3).
	ToolCalls []Call
	ArgPiece  int
	// Interleave sends the fragments of the calls alternately, by index,
	// as servers that generate calls in parallel do.
	Interleave bool
	// PromptTokens and CompletionTokens are the usage; zero means a
	// quarter of the request body and of the output.
	PromptTokens, CompletionTokens int
	// FinishReason of the last choice chunk; "" means "tool_calls" with
	// calls and "stop" without.
	FinishReason string
	// NoDone ends the stream after the finish without "data: [DONE]", as
	// some servers do.
	NoDone bool

	// Status, when not zero, makes the reply an HTTP error in the
	// flavor's shape with the message Error (default the status text).
	Status int
	Error  string
	// Overflow makes the reply the flavor's "prompt longer than the
	// context window" error.
	Overflow bool
	// StreamError is sent inside the stream after the chunks, in place
	// of the finish (llama.cpp's "error:" event; a data event with an
	// "error" object elsewhere).
	StreamError string
	// CutAfter > 0 closes the connection after that many events, without
	// the finish or [DONE]. Drop closes it without any answer.
	CutAfter int
	Drop     bool
	// Hold, when not nil, is waited on before the first event until it is
	// closed or the request ends.
	Hold <-chan struct{}
}

// Request is a chat request as the server received it.
type Request struct {
	Model    string    `json:"model"`
	Messages []Message `json:"messages"`
	Tools    []struct {
		Type     string `json:"type"`
		Function struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
	Stream        bool `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	// Extra holds the other top-level fields, to check nothing unexpected
	// (num_ctx, think) was sent.
	Extra map[string]json.RawMessage `json:"-"`
	// Authorization is the header as sent.
	Authorization string `json:"-"`
}

// Message is one message of a Request.
type Message struct {
	Role       string `json:"role"`
	Content    any    `json:"content"`
	ToolCallID string `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
	// Reasoning fields must never come back; they are recorded to check.
	ReasoningContent string `json:"reasoning_content"`
	Reasoning        string `json:"reasoning"`
	Thinking         string `json:"thinking"`
}

// Text is the message's content as text; of content in parts, its text
// parts joined by newlines.
func (m Message) Text() string {
	if s, ok := m.Content.(string); ok {
		return s
	}
	var texts []string
	for _, p := range m.parts() {
		if p["type"] == "text" {
			s, _ := p["text"].(string)
			texts = append(texts, s)
		}
	}
	return strings.Join(texts, "\n")
}

// ImageURLs are the URLs of the message's image_url parts (data URLs as
// sent), in order; none when its content is a string.
func (m Message) ImageURLs() []string {
	var urls []string
	for _, p := range m.parts() {
		if p["type"] != "image_url" {
			continue
		}
		img, _ := p["image_url"].(map[string]any)
		u, _ := img["url"].(string)
		urls = append(urls, u)
	}
	return urls
}

// parts is content sent as an array of parts.
func (m Message) parts() []map[string]any {
	list, _ := m.Content.([]any)
	parts := make([]map[string]any, 0, len(list))
	for _, e := range list {
		if p, ok := e.(map[string]any); ok {
			parts = append(parts, p)
		}
	}
	return parts
}

// Server is a scripted OpenAI-compatible server on a loopback port.
type Server struct {
	// URL is the server's root ("http://127.0.0.1:41234"); BaseURL is the
	// API base under it ("…/v1"), what --provider-url takes.
	URL, BaseURL string

	opts Options
	ts   *httptest.Server
	done chan struct{}

	mu       sync.Mutex
	queue    []Reply
	handle   func(Request) Reply
	requests []Request
	gets     []string
	closeOne sync.Once
}

// NewServer starts a server. Without models it serves one, "model".
func NewServer(opts Options) *Server {
	if opts.Flavor == "" {
		opts.Flavor = OpenAI
	}
	if len(opts.Models) == 0 {
		opts.Models = []Model{{ID: "model"}}
	}
	s := &Server{opts: opts, done: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.serveChat)
	mux.HandleFunc("GET /v1/models", s.serveModels)
	switch opts.Flavor {
	case LlamaCpp:
		mux.HandleFunc("GET /props", s.serveProps)
		mux.HandleFunc("GET /health", func(w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
		})
	case LMStudio:
		mux.HandleFunc("GET /api/v0/models", s.serveLMStudioModels)
	}
	s.ts = httptest.NewServer(mux)
	s.URL = s.ts.URL
	s.BaseURL = s.URL + "/v1"
	return s
}

// Close stops the server, ending replies still waiting on Hold.
func (s *Server) Close() {
	s.closeOne.Do(func() { close(s.done) })
	s.ts.Close()
}

// Enqueue adds replies; each chat request takes the oldest one.
func (s *Server) Enqueue(replies ...Reply) {
	s.mu.Lock()
	s.queue = append(s.queue, replies...)
	s.mu.Unlock()
}

// Handle sets the function that answers when the queue is empty; without
// one the answer is "ok". fn may be called concurrently.
func (s *Server) Handle(fn func(Request) Reply) {
	s.mu.Lock()
	s.handle = fn
	s.mu.Unlock()
}

// Requests returns the chat requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Reset forgets the recorded requests, for long benchmarks.
func (s *Server) Reset() {
	s.mu.Lock()
	s.requests, s.gets = nil, nil
	s.mu.Unlock()
}

func (s *Server) recordGet(r *http.Request) {
	s.mu.Lock()
	s.gets = append(s.gets, r.URL.Path)
	s.mu.Unlock()
}

// authorized checks the key, answering 401 as the flavor does when it is
// wrong.
func (s *Server) authorized(w http.ResponseWriter, r *http.Request) bool {
	if s.opts.APIKey == "" || r.Header.Get("Authorization") == "Bearer "+s.opts.APIKey {
		return true
	}
	switch s.opts.Flavor {
	case LlamaCpp:
		s.writeError(w, http.StatusUnauthorized, "Invalid API Key", "authentication_error")
	case VLLM:
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "Unauthorized"})
	default:
		s.writeError(w, http.StatusUnauthorized, "Incorrect API key provided.", "invalid_request_error")
	}
	return false
}

// lookup returns the model a request names; llama.cpp serves its one
// model under any name.
func (s *Server) lookup(name string) (Model, bool) {
	for _, m := range s.opts.Models {
		if m.ID == name {
			return m, true
		}
	}
	if s.opts.Flavor == LlamaCpp && len(s.opts.Models) == 1 {
		return s.opts.Models[0], true
	}
	return Model{}, false
}

func (s *Server) serveModels(w http.ResponseWriter, r *http.Request) {
	s.recordGet(r)
	if !s.authorized(w, r) {
		return
	}
	data := []map[string]any{}
	for _, m := range s.opts.Models {
		e := map[string]any{"id": m.ID, "object": "model", "created": 1700000000}
		switch s.opts.Flavor {
		case LlamaCpp:
			e["owned_by"] = "llamacpp"
			e["meta"] = map[string]any{"vocab_type": 2, "n_vocab": 151936, "n_ctx_train": cmp.Or(m.ContextLength, 4096) * 4, "n_embd": 64, "n_params": 1000000, "size": m.Size}
		case VLLM:
			e["owned_by"] = "vllm"
			e["root"] = m.ID
			e["max_model_len"] = cmp.Or(m.ContextLength, 32768)
			e["permission"] = []any{}
		case LMStudio:
			e["owned_by"] = "organization_owner"
		default:
			e["owned_by"] = "system"
		}
		data = append(data, e)
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data})
}

func (s *Server) serveProps(w http.ResponseWriter, r *http.Request) {
	s.recordGet(r)
	if !s.authorized(w, r) {
		return
	}
	m := s.opts.Models[0]
	props := map[string]any{
		"default_generation_settings": map[string]any{"n_ctx": cmp.Or(m.ContextLength, 4096), "params": map[string]any{}},
		"total_slots":                 1,
		"model_path":                  "/models/" + m.ID + ".gguf",
		"modalities":                  map[string]bool{"vision": m.Vision},
		"build_info":                  "b6000-openaitest",
	}
	if s.opts.TemplateTools != nil {
		props["chat_template_caps"] = map[string]bool{"supports_tools": *s.opts.TemplateTools, "supports_tool_calls": *s.opts.TemplateTools}
	}
	writeJSON(w, http.StatusOK, props)
}

func (s *Server) serveLMStudioModels(w http.ResponseWriter, r *http.Request) {
	s.recordGet(r)
	if !s.authorized(w, r) {
		return
	}
	data := []map[string]any{}
	for _, m := range s.opts.Models {
		e := map[string]any{
			"id": m.ID, "object": "model", "type": "llm", "publisher": "lmstudio-community",
			"arch": "qwen3", "compatibility_type": "gguf", "quantization": "Q4_K_M",
			"state": "not-loaded", "max_context_length": cmp.Or(m.ContextLength, 32768) * 2,
		}
		if m.Loaded {
			e["state"] = "loaded"
			e["loaded_context_length"] = cmp.Or(m.ContextLength, 32768)
		}
		if m.Embeddings {
			e["type"] = "embeddings"
		}
		if m.Vision {
			e["type"] = "vlm"
		}
		data = append(data, e)
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data})
}

func (s *Server) serveChat(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		s.writeError(w, http.StatusBadRequest, err.Error(), "invalid_request_error")
		return
	}
	var req Request
	if err := json.Unmarshal(body, &req); err != nil {
		s.writeError(w, http.StatusBadRequest, "invalid JSON: "+err.Error(), "invalid_request_error")
		return
	}
	_ = json.Unmarshal(body, &req.Extra)
	for _, k := range []string{"model", "messages", "tools", "stream", "stream_options"} {
		delete(req.Extra, k)
	}
	req.Authorization = r.Header.Get("Authorization")
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()

	if !s.authorized(w, r) {
		return
	}
	if _, ok := s.lookup(req.Model); !ok {
		s.modelNotFound(w, req.Model)
		return
	}
	if s.opts.ToolsRefused && len(req.Tools) > 0 {
		s.toolsRefused(w)
		return
	}

	s.mu.Lock()
	var reply Reply
	var fn func(Request) Reply
	switch {
	case len(s.queue) > 0:
		reply = s.queue[0]
		s.queue = s.queue[1:]
	case s.handle != nil:
		fn = s.handle
	default:
		reply = Reply{Content: "ok"}
	}
	s.mu.Unlock()
	if fn != nil {
		reply = fn(req)
	}

	switch {
	case reply.Drop:
		cut(http.NewResponseController(w))
		return
	case reply.Overflow:
		s.overflow(w)
		return
	case reply.Status != 0:
		s.writeError(w, reply.Status, cmp.Or(reply.Error, http.StatusText(reply.Status)), "server_error")
		return
	}
	if reply.Hold != nil {
		select {
		case <-reply.Hold:
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		}
	}
	events := s.events(req, reply, len(body))
	if !req.Stream {
		writeJSON(w, http.StatusOK, whole(req.Model, reply))
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	for i, ev := range events {
		if reply.CutAfter > 0 && i == reply.CutAfter {
			cut(rc)
			return
		}
		if _, err := io.WriteString(w, ev); err != nil {
			return
		}
		if rc.Flush() != nil {
			return
		}
	}
	if reply.CutAfter > 0 {
		cut(rc)
	}
}

// events lays a reply out as the flavor streams it, each string one whole
// event.
func (s *Server) events(req Request, r Reply, bodyLen int) []string {
	id := "chatcmpl-openaitest"
	created := time.Now().Unix()
	var out []string
	data := func(v any) {
		b, _ := json.Marshal(v)
		out = append(out, "data: "+string(b)+"\n\n")
	}
	choice := func(delta map[string]any, finish any) {
		data(map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
		})
	}
	choice(map[string]any{"role": "assistant", "content": ""}, nil)
	field := r.ReasoningField
	if field == "" {
		field = "reasoning_content"
		if s.opts.Flavor == VLLM {
			field = "reasoning"
		}
	}
	for _, p := range split(r.Reasoning, 3) {
		choice(map[string]any{field: p}, nil)
	}
	content := r.Chunks
	if content == nil {
		content = split(r.Content, 3)
	}
	for _, p := range content {
		choice(map[string]any{"content": p}, nil)
	}
	for _, frag := range callFragments(r) {
		choice(map[string]any{"tool_calls": []any{frag}}, nil)
	}
	if r.StreamError != "" {
		if s.opts.Flavor == LlamaCpp {
			b, _ := json.Marshal(map[string]any{"code": 500, "message": r.StreamError, "type": "server_error"})
			out = append(out, "error: "+string(b)+"\n\n")
		} else {
			data(map[string]any{"error": map[string]any{"message": r.StreamError, "type": "server_error"}})
		}
		return out
	}
	finish := r.FinishReason
	if finish == "" {
		finish = "stop"
		if len(r.ToolCalls) > 0 {
			finish = "tool_calls"
		}
	}
	choice(map[string]any{}, finish)
	if req.StreamOptions != nil && req.StreamOptions.IncludeUsage {
		prompt, completion := usage(r, bodyLen)
		data(map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": req.Model, "choices": []any{},
			"usage": map[string]int{"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
		})
	}
	if !r.NoDone {
		out = append(out, "data: [DONE]\n\n")
	}
	return out
}

// callFragments cuts the reply's calls into the fragments servers stream:
// a head with index, id, type and name, then pieces of the arguments.
func callFragments(r Reply) []map[string]any {
	piece := cmp.Or(r.ArgPiece, 3)
	perCall := make([][]map[string]any, len(r.ToolCalls))
	for i, c := range r.ToolCalls {
		head := map[string]any{"index": i, "type": "function", "function": map[string]any{"name": c.Name, "arguments": ""}}
		if c.ID != "" {
			head["id"] = c.ID
		}
		perCall[i] = append(perCall[i], head)
		for _, p := range chop(c.Arguments, piece) {
			perCall[i] = append(perCall[i], map[string]any{"index": i, "function": map[string]any{"arguments": p}})
		}
	}
	var out []map[string]any
	if !r.Interleave {
		for _, frags := range perCall {
			out = append(out, frags...)
		}
		return out
	}
	for k := 0; ; k++ {
		sent := false
		for _, frags := range perCall {
			if k < len(frags) {
				out = append(out, frags[k])
				sent = true
			}
		}
		if !sent {
			return out
		}
	}
}

// whole is the answer to a request that did not ask to stream.
func whole(model string, r Reply) map[string]any {
	msg := map[string]any{"role": "assistant", "content": r.Content + strings.Join(r.Chunks, "")}
	if r.Reasoning != "" {
		msg[cmp.Or(r.ReasoningField, "reasoning_content")] = r.Reasoning
	}
	finish := cmp.Or(r.FinishReason, "stop")
	if len(r.ToolCalls) > 0 {
		var calls []any
		for i, c := range r.ToolCalls {
			calls = append(calls, map[string]any{"index": i, "id": c.ID, "type": "function", "function": map[string]any{"name": c.Name, "arguments": c.Arguments}})
		}
		msg["tool_calls"] = calls
		finish = cmp.Or(r.FinishReason, "tool_calls")
	}
	prompt, completion := usage(r, 400)
	return map[string]any{
		"id": "chatcmpl-openaitest", "object": "chat.completion", "created": time.Now().Unix(), "model": model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   map[string]int{"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
	}
}

func usage(r Reply, bodyLen int) (prompt, completion int) {
	prompt = cmp.Or(r.PromptTokens, max(1, bodyLen/4))
	n := len(r.Reasoning) + len(r.Content)
	for _, c := range r.Chunks {
		n += len(c)
	}
	completion = cmp.Or(r.CompletionTokens, max(1, n/4+10*len(r.ToolCalls)))
	return prompt, completion
}

// modelNotFound answers a request for a model the server does not serve,
// as the flavor words it.
func (s *Server) modelNotFound(w http.ResponseWriter, name string) {
	switch s.opts.Flavor {
	case VLLM:
		writeJSON(w, http.StatusNotFound, map[string]any{"object": "error", "message": fmt.Sprintf("The model `%s` does not exist.", name), "type": "NotFoundError", "param": nil, "code": 404})
	case LMStudio:
		writeJSON(w, http.StatusNotFound, map[string]any{"error": fmt.Sprintf("Model %q not found. Please load it first or enable JIT loading.", name)})
	default:
		writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{
			"message": fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", name),
			"type":    "invalid_request_error", "param": nil, "code": "model_not_found"}})
	}
}

// toolsRefused answers a request with tools that the server cannot serve.
func (s *Server) toolsRefused(w http.ResponseWriter) {
	switch s.opts.Flavor {
	case VLLM:
		writeJSON(w, http.StatusBadRequest, map[string]any{"object": "error", "message": `"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set`, "type": "BadRequestError", "param": nil, "code": 400})
	default:
		// llama.cpp builds answer 500 (older ones 400).
		writeJSON(w, http.StatusInternalServerError, map[string]any{"error": map[string]any{"code": 500, "message": "tools param requires --jinja flag", "type": "server_error"}})
	}
}

// overflow answers as the flavor does to a prompt longer than its window.
func (s *Server) overflow(w http.ResponseWriter) {
	n := cmp.Or(s.opts.Models[0].ContextLength, 4096)
	switch s.opts.Flavor {
	case LlamaCpp:
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{"code": 400,
			"message": "the request exceeds the available context size, try increasing it", "type": "exceed_context_size_error",
			"n_prompt_tokens": n + 100, "n_ctx": n}})
	case VLLM:
		writeJSON(w, http.StatusBadRequest, map[string]any{"object": "error", "message": fmt.Sprintf("This model's maximum context length is %d tokens. However, you requested %d tokens in the messages, Please reduce the length of the messages.", n, n+100), "type": "BadRequestError", "param": nil, "code": 400})
	case LMStudio:
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": fmt.Sprintf("Trying to keep the first %d tokens when context the overflows. However, the model is loaded with context length of only %d tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input", n+100, n)})
	default:
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{"message": fmt.Sprintf("This model's maximum context length is %d tokens.", n), "type": "invalid_request_error", "code": "context_length_exceeded"}})
	}
}

// writeError answers with the flavor's error body.
func (s *Server) writeError(w http.ResponseWriter, status int, msg, typ string) {
	switch s.opts.Flavor {
	case VLLM:
		writeJSON(w, status, map[string]any{"object": "error", "message": msg, "type": typ, "param": nil, "code": status})
	case LMStudio:
		writeJSON(w, status, map[string]any{"error": msg})
	default:
		writeJSON(w, status, map[string]any{"error": map[string]any{"code": status, "message": msg, "type": typ}})
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	w.Write(b)
}

// cut drops the connection without finishing the answer.
func cut(rc *http.ResponseController) {
	if conn, _, err := rc.Hijack(); err == nil {
		conn.Close()
	}
}

// split cuts s into at most n pieces of about equal length, on rune
// boundaries.
func split(s string, n int) []string {
	if s == "" {
		return nil
	}
	return chop(s, max(1, (len(s)+n-1)/n))
}

// chop cuts s into pieces of about size bytes, on rune boundaries.
func chop(s string, size int) []string {
	var pieces []string
	for len(s) > 0 {
		end := min(size, len(s))
		for end < len(s) && !utf8.RuneStart(s[end]) {
			end++
		}
		pieces = append(pieces, s[:end])
		s = s[end:]
	}
	return pieces
}

// Bool returns a pointer to b, for Options.TemplateTools.
func Bool(b bool) *bool { return &b }
