// Package ollamatest provides a scripted, Ollama-compatible HTTP server for
// tests, in the manner of net/http/httptest.
//
// A [Server] answers /api/chat from a queue of [Reply] values (or a function
// of the request), describes its [Model] values on /api/show, embeds texts
// on /api/embed, and records every chat and embed request it receives. Replies are encoded with Ollama's own api
// types and streamed as NDJSON, so a client sees Ollama's wire format,
// including its error bodies and status codes. It is meant for unit tests,
// for end-to-end tests that run the mcphost binary against Server.URL, and
// for benchmarks of long tool loops, so it is cheap per request and safe for
// concurrent use.
package ollamatest

import (
	"bytes"
	"cmp"
	"context"
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

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/types/model"
)

// Version is what the server reports on /api/version: the Ollama release
// whose wire format it imitates.
const Version = "0.17.4"

// Defaults for a [Model] that leaves fields zero.
const (
	DefaultContextLength = 32768
	DefaultFamily        = "llama"
)

// DefaultCapabilities are those of a [Model] with nil Capabilities.
func DefaultCapabilities() []string { return []string{"completion", "tools"} }

// Model is a model the server claims to have.
type Model struct {
	// Name as users write it; "qwen3" and "qwen3:latest" are the same model,
	// as in Ollama.
	Name string
	// Capabilities as /api/show reports them; nil means
	// [DefaultCapabilities]. A chat request with tools to a model without
	// "tools" fails with Ollama's 400 error.
	Capabilities []string
	// ContextLength is the trained context window; 0 means
	// [DefaultContextLength].
	ContextLength int
	// Family is the architecture (general.architecture); "" means
	// [DefaultFamily].
	Family string
}

func (m Model) withDefaults() Model {
	if m.Capabilities == nil {
		m.Capabilities = DefaultCapabilities()
	}
	if m.ContextLength == 0 {
		m.ContextLength = DefaultContextLength
	}
	if m.Family == "" {
		m.Family = DefaultFamily
	}
	return m
}

// Reply scripts the answer to one /api/chat request.
type Reply struct {
	// Content is the answer text, streamed in about three pieces.
	Content string
	// Chunks, when not nil, are the streamed content pieces instead of
	// Content split up.
	Chunks []string
	// Thinking is streamed, in pieces, before the content.
	Thinking string
	// ToolCalls are sent in one chunk after the content, as Ollama does.
	// Their IDs are sent as given (real Ollama makes up "call_xxxxxxxx").
	ToolCalls []api.ToolCall
	// PromptEvalCount and EvalCount are the token counts of the final chunk;
	// zero means an estimate of a quarter of the request body and of the
	// output, so counts grow with the history as they would for real.
	PromptEvalCount, EvalCount int
	// DoneReason of the final chunk; "" means "stop".
	DoneReason string
	// Status, when not zero, makes the reply an HTTP error with Ollama's
	// body {"error": Error}; Error defaults to the status text.
	Status int
	// Error without Status is sent in the stream after the chunks, in
	// place of the done chunk, as Ollama reports a failure mid-answer (a
	// non-streaming request gets it as a 500).
	Error string
	// CutAfter > 0 closes the connection after that many chunks, without
	// the final done chunk, as when Ollama dies mid-answer. A non-streaming
	// request then gets no answer at all.
	CutAfter int
	// Drop closes the connection without any answer, not even a status
	// line, as when Ollama dies while loading the model.
	Drop bool
	// Delay is waited before the first chunk (a slow first token).
	Delay time.Duration
	// Hold, when not nil, is waited on before the first chunk until it is
	// closed or the request ends, so a test can act while a request is in
	// flight without sleeping.
	Hold <-chan struct{}
	// HoldBefore[i], when not nil, is waited on as Hold is before the
	// streamed chunk i (the thinking chunks come first, then the
	// content's), so a test can act in the middle of an answer.
	HoldBefore map[int]<-chan struct{}
	// Stall, when true, streams the chunks and then sends nothing more
	// until the request ends, as a model still writing a long answer: a
	// test can interrupt an answer that has begun.
	Stall bool
}

// Call builds a tool call as Ollama sends it, with the arguments in sorted
// key order and no ID.
func Call(name string, args map[string]any) api.ToolCall {
	a := api.NewToolCallFunctionArguments()
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		a.Set(k, args[k])
	}
	return api.ToolCall{Function: api.ToolCallFunction{Name: name, Arguments: a}}
}

// Server is a scripted Ollama server listening on a loopback port.
type Server struct {
	// URL is the base URL, like "http://127.0.0.1:41234", to use as
	// OLLAMA_HOST or with api.NewClient.
	URL string

	ts *httptest.Server
	// done is closed by Close so that replies waiting on Hold or Delay give
	// up; httptest.Server.Close would otherwise wait for them forever.
	done chan struct{}

	mu       sync.Mutex
	models   map[string]Model // by normalised name; nil serves any name
	queue    []Reply
	handle   func(api.ChatRequest) Reply
	chats    [][]byte // raw /api/chat bodies, decoded afresh by Requests
	shows    []string
	loaded   map[string]int // model → num_ctx of its last chat, for /api/ps
	pullable map[string]Model
	pulls    []string
	embed    func(model string, input []string) EmbedReply
	embeds   []api.EmbedRequest
	closeOne sync.Once
}

// NewServer starts a server that has the given models. With no models it
// serves any model name, with default capabilities.
func NewServer(models ...Model) *Server {
	s := &Server{done: make(chan struct{}), loaded: make(map[string]int)}
	if len(models) > 0 {
		s.models = make(map[string]Model, len(models))
		for _, m := range models {
			s.models[modelKey(m.Name)] = m.withDefaults()
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/chat", s.serveChat)
	mux.HandleFunc("POST /api/show", s.serveShow)
	mux.HandleFunc("POST /api/embed", s.serveEmbed)
	mux.HandleFunc("GET /api/version", s.serveVersion)
	mux.HandleFunc("GET /api/tags", s.serveTags)
	mux.HandleFunc("GET /api/ps", s.servePs)
	mux.HandleFunc("POST /api/pull", s.servePull)
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "Ollama is running")
	})
	s.ts = httptest.NewServer(mux)
	s.URL = s.ts.URL
	return s
}

// Pullable makes models available to /api/pull: a pull streams Ollama's
// progress (the manifest, one layer of PullSize bytes in four steps, the
// digest check) and then the server has the model. Pulling any other name
// fails as Ollama does for a name its registry lacks.
func (s *Server) Pullable(models ...Model) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pullable == nil {
		s.pullable = make(map[string]Model)
	}
	for _, m := range models {
		s.pullable[modelKey(m.Name)] = m.withDefaults()
	}
}

// PullSize is the size of the one layer a pull downloads.
const PullSize = 4 << 20

// PullRequests returns the model names asked for on /api/pull, in order.
func (s *Server) PullRequests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.pulls)
}

// Close stops the server, ending replies still waiting on Hold or Delay.
func (s *Server) Close() {
	s.closeOne.Do(func() { close(s.done) })
	s.ts.Close()
}

// Enqueue adds replies to the queue; each /api/chat request to a known model
// takes the oldest one.
func (s *Server) Enqueue(replies ...Reply) {
	s.mu.Lock()
	s.queue = append(s.queue, replies...)
	s.mu.Unlock()
}

// Handle sets the function that answers /api/chat when the queue is empty.
// Without one (and with an empty queue) the answer is Content "ok". fn may
// be called concurrently.
func (s *Server) Handle(fn func(req api.ChatRequest) Reply) {
	s.mu.Lock()
	s.handle = fn
	s.mu.Unlock()
}

// Requests returns the /api/chat requests received so far, in order. Each
// call decodes them afresh, so callers may modify what they get.
func (s *Server) Requests() []api.ChatRequest {
	s.mu.Lock()
	raw := slices.Clone(s.chats)
	s.mu.Unlock()
	reqs := make([]api.ChatRequest, 0, len(raw))
	for _, b := range raw {
		var req api.ChatRequest
		// Only its head was checked on arrival; a body that does not fit
		// api.ChatRequest is returned as far as it decodes.
		_ = json.Unmarshal(b, &req)
		reqs = append(reqs, req)
	}
	return reqs
}

// RequestCount returns how many /api/chat requests have been received,
// without decoding them.
func (s *Server) RequestCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.chats)
}

// ShowRequests returns the model names asked for on /api/show, in order.
func (s *Server) ShowRequests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.shows)
}

// Reset forgets the recorded requests, so a long benchmark does not keep
// every history it sent. The queue and the Handle function stay.
func (s *Server) Reset() {
	s.mu.Lock()
	s.chats = nil
	s.shows = nil
	s.mu.Unlock()
}

// modelKey normalises a model name the way Ollama compares them: default
// tag "latest", default namespace, case-insensitive.
func modelKey(name string) string {
	return strings.ToLower(model.ParseName(name).String())
}

// lookup returns the model a request names, and whether the server has it.
func (s *Server) lookup(name string) (Model, bool) {
	if name == "" {
		return Model{}, false
	}
	if s.models == nil {
		return Model{Name: name}.withDefaults(), true
	}
	m, ok := s.models[modelKey(name)]
	return m, ok
}

func (s *Server) serveChat(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	body, err := io.ReadAll(r.Body)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if len(bytes.TrimSpace(body)) == 0 {
		writeError(w, http.StatusBadRequest, "missing request body")
		return
	}
	var head chatHead
	if err := json.Unmarshal(body, &head); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}

	s.mu.Lock()
	s.chats = append(s.chats, body)
	s.mu.Unlock()

	if head.Model == "" {
		writeError(w, http.StatusBadRequest, "model is required")
		return
	}
	m, ok := s.lookup(head.Model)
	if !ok {
		// The text of Ollama 0.17's ChatHandler for a model not pulled.
		writeError(w, http.StatusNotFound, fmt.Sprintf("model '%s' not found", head.Model))
		return
	}
	if msg := checkCapabilities(head, m); msg != "" {
		writeError(w, http.StatusBadRequest, msg)
		return
	}

	s.mu.Lock()
	var reply Reply
	var fn func(api.ChatRequest) Reply
	if len(s.queue) > 0 {
		reply = s.queue[0]
		s.queue[0] = Reply{} // drop references held by the old array
		s.queue = s.queue[1:]
	} else if s.handle != nil {
		fn = s.handle
	} else {
		reply = Reply{Content: "ok"}
	}
	numCtx := 0
	if v, ok := head.Options["num_ctx"].(float64); ok {
		numCtx = int(v)
	}
	s.loaded[m.Name] = cmp.Or(numCtx, 4096)
	s.mu.Unlock()
	if fn != nil {
		var req api.ChatRequest
		if err := json.Unmarshal(body, &req); err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
		reply = fn(req)
	}

	if reply.Drop {
		cut(http.NewResponseController(w))
		return
	}
	if reply.Status != 0 {
		writeError(w, reply.Status, cmp.Or(reply.Error, http.StatusText(reply.Status)))
		return
	}
	if !s.wait(r.Context(), reply) {
		return
	}

	chunks := replyChunks(head.Model, reply)
	done := doneChunk(head.Model, reply, len(body), start)
	if head.Stream != nil && !*head.Stream {
		if reply.CutAfter > 0 {
			cut(http.NewResponseController(w))
			return
		}
		if reply.Error != "" {
			writeError(w, http.StatusInternalServerError, reply.Error)
			return
		}
		writeJSON(w, http.StatusOK, merge(chunks, done))
		return
	}

	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	for i, c := range chunks {
		if reply.CutAfter > 0 && i == reply.CutAfter {
			cut(rc)
			return
		}
		if hold := reply.HoldBefore[i]; hold != nil && !s.hold(r.Context(), hold) {
			return
		}
		if !writeChunk(w, rc, c) {
			return
		}
	}
	if reply.CutAfter > 0 {
		cut(rc)
		return
	}
	if reply.Stall {
		<-r.Context().Done()
		return
	}
	if reply.Error != "" {
		// What Ollama's streamResponse writes once the stream has begun.
		b, _ := json.Marshal(map[string]string{"error": reply.Error})
		w.Write(append(b, '\n'))
		return
	}
	writeChunk(w, rc, done)
}

// chatHead is the part of a chat request the server needs to answer it.
// Decoding the whole history (ordered maps and all) would cost a benchmark
// more than the code it measures; Requests and Handle decode it in full.
type chatHead struct {
	Model   string          `json:"model"`
	Stream  *bool           `json:"stream"`
	Think   *api.ThinkValue `json:"think"`
	Options map[string]any  `json:"options"`
	Tools   json.RawMessage `json:"tools"`
}

func (h chatHead) hasTools() bool {
	t := bytes.TrimSpace(h.Tools)
	return len(t) > 0 && !bytes.Equal(t, []byte("null")) && !bytes.Equal(t, []byte("[]"))
}

// checkCapabilities returns Ollama's 400 error text when the model cannot
// serve the request, or "".
func checkCapabilities(req chatHead, m Model) string {
	if req.Think != nil && req.Think.Bool() && !slices.Contains(m.Capabilities, "thinking") {
		return fmt.Sprintf("%q does not support thinking", req.Model)
	}
	if !slices.Contains(m.Capabilities, "completion") {
		return fmt.Sprintf("%q does not support chat", req.Model)
	}
	if req.hasTools() && !slices.Contains(m.Capabilities, "tools") {
		// Ollama names the model fully here (scheduleRunner).
		return fmt.Sprintf("%s does not support tools", model.ParseName(req.Model).String())
	}
	return ""
}

// wait honours Reply.Delay and Reply.Hold; it reports false when the
// request or the server ended first.
func (s *Server) wait(ctx context.Context, reply Reply) bool {
	if reply.Delay > 0 {
		t := time.NewTimer(reply.Delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return false
		case <-s.done:
			return false
		}
	}
	if reply.Hold != nil {
		return s.hold(ctx, reply.Hold)
	}
	return true
}

// hold waits until ch is closed; it reports false when the request or the
// server ended first.
func (s *Server) hold(ctx context.Context, ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	case <-ctx.Done():
		return false
	case <-s.done:
		return false
	}
}

// replyChunks lays a reply out as Ollama streams it: thinking, then
// content, then the tool calls, each chunk a partial assistant message.
func replyChunks(modelName string, r Reply) []api.ChatResponse {
	var chunks []api.ChatResponse
	add := func(m api.Message) {
		m.Role = "assistant"
		chunks = append(chunks, api.ChatResponse{Model: modelName, CreatedAt: time.Now().UTC(), Message: m})
	}
	for _, p := range split(r.Thinking, 3) {
		add(api.Message{Thinking: p})
	}
	content := r.Chunks
	if content == nil {
		content = split(r.Content, 3)
	}
	for _, p := range content {
		add(api.Message{Content: p})
	}
	if len(r.ToolCalls) > 0 {
		calls := slices.Clone(r.ToolCalls)
		for i := range calls {
			calls[i].Function.Index = i
		}
		add(api.Message{ToolCalls: calls})
	}
	return chunks
}

// doneChunk is the final chunk: empty message, done reason and counts.
func doneChunk(modelName string, r Reply, bodyLen int, start time.Time) api.ChatResponse {
	prompt := r.PromptEvalCount
	if prompt == 0 {
		prompt = max(1, bodyLen/4)
	}
	eval := r.EvalCount
	if eval == 0 {
		n := len(r.Thinking) + len(r.Content)
		for _, c := range r.Chunks {
			n += len(c)
		}
		eval = max(1, n/4+10*len(r.ToolCalls))
	}
	return api.ChatResponse{
		Model:      modelName,
		CreatedAt:  time.Now().UTC(),
		Message:    api.Message{Role: "assistant"},
		Done:       true,
		DoneReason: cmp.Or(r.DoneReason, "stop"),
		Metrics: api.Metrics{
			TotalDuration:   time.Since(start),
			PromptEvalCount: prompt,
			EvalCount:       eval,
		},
	}
}

// merge folds the chunks into the single response of a non-streaming chat.
func merge(chunks []api.ChatResponse, done api.ChatResponse) api.ChatResponse {
	var content, thinking strings.Builder
	for _, c := range chunks {
		content.WriteString(c.Message.Content)
		thinking.WriteString(c.Message.Thinking)
		done.Message.ToolCalls = append(done.Message.ToolCalls, c.Message.ToolCalls...)
	}
	done.Message.Content = content.String()
	done.Message.Thinking = thinking.String()
	return done
}

// split cuts s into at most n pieces of about equal length, on rune
// boundaries.
func split(s string, n int) []string {
	if s == "" {
		return nil
	}
	size := max(1, (len(s)+n-1)/n)
	pieces := make([]string, 0, n)
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

// writeChunk sends one NDJSON line and flushes it, so the client sees each
// chunk as it would from a model generating tokens.
func writeChunk(w http.ResponseWriter, rc *http.ResponseController, c api.ChatResponse) bool {
	b, err := json.Marshal(c)
	if err != nil {
		return false
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return false
	}
	return rc.Flush() == nil
}

// cut drops the connection mid-stream without the final chunk.
func cut(rc *http.ResponseController) {
	if conn, _, err := rc.Hijack(); err == nil {
		conn.Close()
	}
	// Without hijacking (HTTP/2), returning ends the stream early, which
	// the client sees the same way: no done chunk.
}

func (s *Server) serveShow(w http.ResponseWriter, r *http.Request) {
	var req api.ShowRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		if err == io.EOF {
			writeError(w, http.StatusBadRequest, "missing request body")
			return
		}
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	//lint:ignore SA1019 older clients still send "name"; the server must read it
	name := cmp.Or(req.Model, req.Name)
	s.mu.Lock()
	s.shows = append(s.shows, name)
	s.mu.Unlock()
	if name == "" {
		writeError(w, http.StatusBadRequest, "model is required")
		return
	}
	m, ok := s.lookup(name)
	if !ok {
		// The text of Ollama 0.17's ShowHandler.
		writeError(w, http.StatusNotFound, fmt.Sprintf("model '%s' not found", name))
		return
	}
	caps := make([]model.Capability, len(m.Capabilities))
	for i, c := range m.Capabilities {
		caps[i] = model.Capability(c)
	}
	writeJSON(w, http.StatusOK, api.ShowResponse{
		Details: details(m),
		ModelInfo: map[string]any{
			"general.architecture":         m.Family,
			m.Family + ".context_length":   m.ContextLength,
			"general.parameter_count":      int64(1_000_000),
			m.Family + ".embedding_length": 64,
		},
		Capabilities: caps,
		Template:     "{{ .Prompt }}",
		ModifiedAt:   time.Now().UTC(),
	})
}

func details(m Model) api.ModelDetails {
	return api.ModelDetails{
		Format:            "gguf",
		Family:            m.Family,
		Families:          []string{m.Family},
		ParameterSize:     "1M",
		QuantizationLevel: "F16",
	}
}

func (s *Server) servePull(w http.ResponseWriter, r *http.Request) {
	var req api.PullRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	//lint:ignore SA1019 older clients still send "name"; the server must read it
	name := cmp.Or(req.Model, req.Name)
	s.mu.Lock()
	s.pulls = append(s.pulls, name)
	m, ok := s.pullable[modelKey(name)]
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	send := func(v any) bool {
		b, _ := json.Marshal(v)
		if _, err := w.Write(append(b, '\n')); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !send(api.ProgressResponse{Status: "pulling manifest"}) {
		return
	}
	if !ok {
		// What Ollama streams for a name its registry does not have.
		send(map[string]string{"error": "pull model manifest: file does not exist"})
		return
	}
	digest := "sha256:6a0746a1ec1aef3e7ec53868f220ff6e389f6f8ef87a01d77c96807de94ca2aa"
	for i := range 5 {
		if !send(api.ProgressResponse{Status: "pulling " + digest[7:19], Digest: digest, Total: PullSize, Completed: int64(i) * PullSize / 4}) {
			return
		}
	}
	for _, st := range []string{"verifying sha256 digest", "writing manifest"} {
		if !send(api.ProgressResponse{Status: st}) {
			return
		}
	}
	s.mu.Lock()
	if s.models != nil {
		s.models[modelKey(name)] = m
	}
	s.mu.Unlock()
	send(api.ProgressResponse{Status: "success"})
}

// displayName is how Ollama lists a model: with its tag.
func displayName(name string) string { return model.ParseName(name).DisplayShortest() }

func (s *Server) serveVersion(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"version": Version})
}

func (s *Server) serveTags(w http.ResponseWriter, _ *http.Request) {
	resp := api.ListResponse{Models: []api.ListModelResponse{}}
	for _, m := range s.models {
		name := displayName(m.Name)
		resp.Models = append(resp.Models, api.ListModelResponse{
			Name: name, Model: name, ModifiedAt: time.Now().UTC(),
			Size: 1 << 20, Digest: "sha256:0", Details: details(m),
		})
	}
	slices.SortFunc(resp.Models, func(a, b api.ListModelResponse) int { return strings.Compare(a.Name, b.Name) })
	writeJSON(w, http.StatusOK, resp)
}

// servePs lists the models chatted with so far as loaded, with the
// num_ctx their last request asked for (Ollama's default 4096 otherwise).
func (s *Server) servePs(w http.ResponseWriter, _ *http.Request) {
	resp := api.ProcessResponse{Models: []api.ProcessModelResponse{}}
	s.mu.Lock()
	for name, numCtx := range s.loaded {
		m, _ := s.lookup(name)
		dn := displayName(name)
		resp.Models = append(resp.Models, api.ProcessModelResponse{
			Name: dn, Model: dn, Size: 1 << 20, Digest: "sha256:0", Details: details(m),
			ExpiresAt: time.Now().Add(5 * time.Minute).UTC(), ContextLength: numCtx,
		})
	}
	s.mu.Unlock()
	slices.SortFunc(resp.Models, func(a, b api.ProcessModelResponse) int { return strings.Compare(a.Name, b.Name) })
	writeJSON(w, http.StatusOK, resp)
}

// writeJSON answers with status and v as JSON, as Ollama's handlers do.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(map[string]string{"error": err.Error()})
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	w.Write(b)
}

// writeError answers as Ollama does: the status and {"error": msg}.
func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

// ToolCall is a tool call as Ollama sends it (see Call), so that code
// scripting replies need not import Ollama's api package.
type ToolCall = api.ToolCall

// RequestBodies returns the bodies of the /api/chat requests received so
// far, in order, as they were sent: to measure what a client sends, which
// decoding and encoding again would change.
func (s *Server) RequestBodies() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([][]byte, len(s.chats))
	for i, b := range s.chats {
		out[i] = slices.Clone(b)
	}
	return out
}
