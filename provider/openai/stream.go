package openai

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mcphost/mcphost/provider"
)

// maxEvent is the longest server-sent event accepted.
const maxEvent = 8 << 20

// stream posts body to /chat/completions and feeds the answer to acc.
//
// A body that breaks off mid-stream is not an error here: acc simply stops
// hearing, and the caller, which knows whether the finish came, decides.
func (p *Provider) stream(ctx context.Context, body []byte, acc *accumulator, onDelta func(provider.Delta)) error {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, p.base.String()+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return err
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "text/event-stream")
	p.header(hreq.Header)
	resp, err := p.http.Do(hreq)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= http.StatusBadRequest {
		return readStatusError(resp)
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "application/json" {
		// A server that does not stream (or not with tools) answers with
		// the whole completion at once.
		return acc.whole(resp.Body, onDelta)
	}

	r := bufio.NewReaderSize(resp.Body, 32<<10)
	var data []byte // the data of the event being read
	var long []byte // a line longer than the buffer, pieced together
	for {
		line, rerr := r.ReadSlice('\n')
		if errors.Is(rerr, bufio.ErrBufferFull) || len(long) > 0 {
			long = append(long, line...)
			if len(long) > maxEvent {
				return fmt.Errorf("an event of the answer is longer than %d bytes", maxEvent)
			}
			if errors.Is(rerr, bufio.ErrBufferFull) {
				continue
			}
			line, long = long, long[:0]
		}
		line = bytes.TrimRight(line, "\r\n")
		switch {
		case len(line) == 0:
			// A blank line ends an event.
			if len(data) > 0 {
				if err := acc.event(data, onDelta); err != nil {
					return err
				}
				data = data[:0]
			}
		case line[0] == ':':
			// A comment: a keep-alive, which shows the engine is alive.
			acc.alive()
		case bytes.HasPrefix(line, []byte("data:")):
			if len(data) > 0 {
				data = append(data, '\n')
			}
			data = append(data, bytes.TrimPrefix(line[5:], []byte(" "))...)
		case bytes.HasPrefix(line, []byte("error:")):
			// llama.cpp reports a failure mid-stream as an "error:" line.
			return &streamError{parseErrorBody(bytes.TrimSpace(line[6:]))}
		}
		if rerr != nil {
			if rerr == io.EOF && len(data) > 0 {
				// The last event, without its blank line: whole if it
				// parses, a cut (which the caller tells) otherwise.
				var se *streamError
				if err := acc.event(data, onDelta); errors.As(err, &se) {
					return err
				}
			}
			return nil
		}
	}
}

// chunk is one streamed completion chunk, or the whole answer of a server
// that does not stream (Message instead of Delta).
type chunk struct {
	Choices []choice `json:"choices"`
	Usage   *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// size is what a chunk adds to the reply, for the reply's size limit: its
// text, its thinking and its tool call fragments.
func (c *chunk) size() int {
	n := 0
	for i := range c.Choices {
		d := &c.Choices[i].Delta
		if c.Choices[i].Message != nil {
			d = c.Choices[i].Message
		}
		n += len(d.Content) + len(d.ReasoningContent) + len(d.Reasoning)
		for j := range d.ToolCalls {
			n += len(d.ToolCalls[j].Function.Name) + len(d.ToolCalls[j].Function.Arguments)
		}
	}
	return n
}

type choice struct {
	Delta        delta   `json:"delta"`
	Message      *delta  `json:"message"`
	FinishReason *string `json:"finish_reason"`
}

type delta struct {
	Content string `json:"content"`
	// ReasoningContent is llama.cpp's, DeepSeek's and LM Studio's field
	// for thinking; Reasoning is vLLM's and Ollama's.
	ReasoningContent string          `json:"reasoning_content"`
	Reasoning        string          `json:"reasoning"`
	ToolCalls        []toolCallDelta `json:"tool_calls"`
}

// toolCallDelta is a fragment of a tool call: the first one of a call
// has its ID and name, the others more of its arguments.
type toolCallDelta struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// accumulator gathers a streamed answer.
type accumulator struct {
	content, thinking strings.Builder
	calls             []partialCall
	finish            string
	done              bool // [DONE] came
	usage             provider.Usage
	// scratch is the chunk each event is decoded into.
	scratch chunk
	// meter enforces the call's limits (provider.Limits); nil for none.
	meter *provider.Meter
}

// alive tells the meter the engine sent something that is not reply.
func (a *accumulator) alive() {
	if a.meter != nil {
		a.meter.Add(0)
	}
}

// partialCall is a tool call being assembled.
type partialCall struct {
	index int
	id    string
	name  string
	// args is a byte slice, not a strings.Builder, since calls live in a
	// slice that grows (and a Builder must not be copied).
	args []byte
}

// reset empties a for another try, keeping its scratch chunk.
func (a *accumulator) reset() { *a = accumulator{scratch: a.scratch} }

// shown reports whether any text has gone to onDelta.
func (a *accumulator) shown() bool { return a.content.Len() > 0 || a.thinking.Len() > 0 }

// finished reports whether the answer came whole: [DONE], or a finish
// reason (some servers end the stream there).
func (a *accumulator) finished() bool { return a.done || a.finish != "" }

// event takes one event's data.
func (a *accumulator) event(data []byte, onDelta func(provider.Delta)) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("[DONE]")) {
		a.done = true
		return nil
	}
	// One chunk value serves the whole stream: decoding reuses its
	// slices' arrays, and most streams are hundreds of small chunks.
	// Decoding into a used element keeps fields the new JSON lacks, so
	// everything is cleared first.
	c := &a.scratch
	choices := c.Choices[:cap(c.Choices)]
	for i := range choices {
		calls := choices[i].Delta.ToolCalls[:0]
		choices[i] = choice{}
		choices[i].Delta.ToolCalls = calls
	}
	*c = chunk{Choices: choices[:0]}
	if err := json.Unmarshal(data, c); err != nil {
		return fmt.Errorf("reading the answer: %w", err)
	}
	if len(c.Error) > 0 && !bytes.Equal(c.Error, []byte("null")) {
		return &streamError{parseErrorBody(data)}
	}
	a.add(c, onDelta)
	return nil
}

func (a *accumulator) add(c *chunk, onDelta func(provider.Delta)) {
	if a.meter != nil && !a.meter.Add(c.size()) {
		return // past a limit: the call is ending
	}
	if c.Usage != nil {
		a.usage.PromptTokens, a.usage.CompletionTokens = c.Usage.PromptTokens, c.Usage.CompletionTokens
	}
	for i := range c.Choices {
		ch := &c.Choices[i]
		d := &ch.Delta
		if ch.Message != nil {
			d = ch.Message
		}
		thinking := d.ReasoningContent + d.Reasoning
		if d.Content != "" || thinking != "" {
			a.content.WriteString(d.Content)
			a.thinking.WriteString(thinking)
			if onDelta != nil {
				onDelta(provider.Delta{Content: d.Content, Thinking: thinking})
			}
		}
		for j := range d.ToolCalls {
			a.addCall(&d.ToolCalls[j])
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			a.finish = *ch.FinishReason
		}
	}
}

// addCall adds a fragment to the call of its index. A fragment without an
// index (some servers leave it out) starts a new call when it has a new ID,
// and goes on with the last call otherwise.
func (a *accumulator) addCall(f *toolCallDelta) {
	var pc *partialCall
	switch {
	case f.Index != nil:
		for i := range a.calls {
			if a.calls[i].index == *f.Index {
				pc = &a.calls[i]
				break
			}
		}
	case len(a.calls) > 0 && (f.ID == "" || f.ID == a.calls[len(a.calls)-1].id):
		pc = &a.calls[len(a.calls)-1]
	}
	if pc == nil {
		idx := len(a.calls)
		if f.Index != nil {
			idx = *f.Index
		}
		a.calls = append(a.calls, partialCall{index: idx})
		pc = &a.calls[len(a.calls)-1]
	}
	if pc.id == "" {
		pc.id = f.ID
	}
	if pc.name == "" {
		pc.name = f.Function.Name
	}
	pc.args = append(pc.args, f.Function.Arguments...)
}

// whole reads the answer of a server that did not stream.
func (a *accumulator) whole(body io.Reader, onDelta func(provider.Delta)) error {
	data, err := io.ReadAll(io.LimitReader(body, maxEvent))
	if err != nil {
		return err
	}
	if err := a.event(data, onDelta); err != nil {
		return err
	}
	if a.finish == "" {
		a.finish = "stop"
	}
	return nil
}

// response builds the final answer; seq numbers calls that came without
// an ID.
func (a *accumulator) response(seq *atomic.Uint64, took time.Duration) provider.Response {
	msg := provider.Message{
		Role:     provider.RoleAssistant,
		Content:  a.content.String(),
		Thinking: a.thinking.String(),
	}
	for i := range a.calls {
		c := &a.calls[i]
		if c.name == "" {
			continue // fragments of nothing
		}
		id := c.id
		if id == "" {
			id = "call_" + strconv.FormatUint(seq.Add(1), 10)
		}
		msg.ToolCalls = append(msg.ToolCalls, provider.ToolCall{ID: id, Name: c.name, Arguments: decodeArguments(c.args)})
	}
	a.usage.Duration = took
	return provider.Response{Message: msg, Usage: a.usage, DoneReason: a.finish}
}

// decodeArguments reads a call's arguments. Callers marshal them back, so
// nothing (or null) is {} rather than nil; arguments that are not a JSON
// object are kept whole under "arguments", where the tool's schema check
// names the problem to the model rather than the call losing them
// silently.
func decodeArguments(raw []byte) map[string]any {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return map[string]any{}
	}
	var args map[string]any
	if err := json.Unmarshal(raw, &args); err == nil {
		if args == nil {
			args = map[string]any{}
		}
		return args
	}
	// Some servers send the object as a JSON string holding it.
	var inner string
	if json.Unmarshal(raw, &inner) == nil && json.Unmarshal([]byte(inner), &args) == nil && args != nil {
		return args
	}
	return map[string]any{"arguments": string(raw)}
}
