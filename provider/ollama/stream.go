package ollama

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/envconfig"
)

// maxLine is the longest NDJSON line accepted, the same bound Ollama's own
// client sets.
const maxLine = 8 << 20

// streamChat posts req to /api/chat and calls fn for every chunk.
//
// It does what api.Client.Chat does, on the same api types, but reads the
// stream through a small growing buffer: api.Client allocates (and so
// zeroes) an 8 MiB buffer on every call, which alone cost about 1 ms per
// agent step. Servers that need Ollama's request signing (ollama.com, or
// OLLAMA_AUTH set) still go through api.Client.
//
// A body that breaks off mid-stream is not an error here: fn simply stops
// being called and the caller, which knows whether the done chunk came,
// decides. The read error is returned as cut for the record.
func (p *Provider) streamChat(ctx context.Context, req *api.ChatRequest, toolsJSON json.RawMessage, fn func(api.ChatResponse)) (cut error, err error) {
	if p.base.Hostname() == "ollama.com" || envconfig.UseAuth() {
		return nil, p.client.Chat(ctx, req, func(r api.ChatResponse) error { fn(r); return nil })
	}

	body, err := encodeChat(req, toolsJSON)
	if err != nil {
		return nil, err
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, p.base.JoinPath("/api/chat").String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/x-ndjson")
	hreq.Header.Set("User-Agent", "mcphost")
	resp, err := p.http.Do(hreq)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()

	if resp.StatusCode >= http.StatusBadRequest {
		return nil, statusError(resp)
	}

	r := bufio.NewReaderSize(resp.Body, 32<<10)
	var long []byte // a line longer than the buffer, pieced together
	for {
		line, rerr := r.ReadSlice('\n')
		if errors.Is(rerr, bufio.ErrBufferFull) || len(long) > 0 {
			long = append(long, line...)
			if len(long) > maxLine {
				return nil, fmt.Errorf("a line of the answer is longer than %d bytes", maxLine)
			}
			if errors.Is(rerr, bufio.ErrBufferFull) {
				continue
			}
			line, long = long, long[:0]
		}
		if line = bytes.TrimSpace(line); len(line) > 0 {
			// The error field rides along so an error Ollama reports
			// mid-stream (with status 200) is not taken for a chunk.
			var chunk struct {
				api.ChatResponse
				Error string `json:"error,omitempty"`
			}
			if err := json.Unmarshal(line, &chunk); err != nil {
				if rerr != nil {
					// An unterminated last line: the stream broke off
					// inside it.
					return fmt.Errorf("incomplete last line: %w", rerr), nil
				}
				return nil, fmt.Errorf("reading the answer: %w", err)
			}
			if chunk.Error != "" {
				return nil, &streamError{chunk.Error}
			}
			fn(chunk.ChatResponse)
		}
		if rerr != nil {
			if rerr == io.EOF {
				return nil, nil
			}
			return rerr, nil
		}
	}
}

// encodeChat encodes the request body, with the tools already encoded.
// The tools are spliced in rather than passed as a json.RawMessage, which
// encoding/json would scan and compact again on every call.
func encodeChat(req *api.ChatRequest, toolsJSON json.RawMessage) ([]byte, error) {
	noTools := *req
	noTools.Tools = nil
	body, err := json.Marshal(&noTools)
	if err != nil {
		return nil, fmt.Errorf("encoding chat request: %w", err)
	}
	if len(toolsJSON) == 0 {
		return body, nil
	}
	// body is a JSON object, so it ends in '}'.
	out := make([]byte, 0, len(body)+len(toolsJSON)+10)
	out = append(out, body[:len(body)-1]...)
	out = append(out, `,"tools":`...)
	out = append(out, toolsJSON...)
	return append(out, '}'), nil
}

// statusError reads an error answer the way api.Client does, so the error
// handling is the same on both paths.
func statusError(resp *http.Response) error {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode == http.StatusUnauthorized {
		return api.AuthorizationError{StatusCode: resp.StatusCode, Status: resp.Status}
	}
	se := api.StatusError{StatusCode: resp.StatusCode, Status: resp.Status}
	if json.Unmarshal(b, &se) != nil || se.ErrorMessage == "" {
		se.ErrorMessage = string(bytes.TrimSpace(b))
	}
	return se
}
