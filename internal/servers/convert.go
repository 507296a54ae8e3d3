package servers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/elicit"
	"github.com/mcphost/mcphost/internal/termtext"
	"github.com/mcphost/mcphost/tool"
)

// This file is the one place where MCP's content blocks and tool
// definitions become the neutral types of package tool.

// resultNote ends a result that was cut.
const resultNote = "\n[mcphost: the result was cut from %s to %s; ask for less, e.g. a narrower query or one page]"

// ToolResult converts an MCP tool result as Call does, for code that holds
// a go-sdk session of its own (tests, examples): see toResult.
func ToolResult(res *mcp.CallToolResult, limit int) *tool.Result { return toResult(res, limit) }

// toResult converts res and keeps its text (text content and embedded text
// resources, in order) within limit bytes, cutting on a character boundary
// and saying so. Structured content is dropped when the text alone is over
// the limit, and is itself cut (as JSON text) when it is all there is. Raw
// keeps the result as the server sent it, unless it was cut: a flood must
// not stay in memory in another form.
func toResult(res *mcp.CallToolResult, limit int) *tool.Result {
	if res == nil {
		return &tool.Result{}
	}
	if limit <= 0 {
		limit = config.DefaultMaxResultBytes
	}
	out := &tool.Result{IsError: res.IsError, Structured: res.StructuredContent}
	if raw, err := json.Marshal(res); err == nil {
		out.Raw = raw
	}
	total := 0
	for _, c := range res.Content {
		tc := toContent(c)
		if tc.Kind == tool.Text || (tc.Kind == tool.Resource && tc.Text != "") {
			total += len(tc.Text)
		}
		out.Content = append(out.Content, tc)
	}
	if !out.HasText() && out.Structured != nil {
		b, err := json.Marshal(out.Structured)
		if err != nil || len(b) <= limit {
			return out
		}
		out.Structured, out.Raw = nil, nil
		out.Content = append(out.Content, tool.Content{Kind: tool.Text,
			Text: truncateUTF8(string(b), limit) + fmt.Sprintf(resultNote, termtext.Bytes(len(b)), termtext.Bytes(limit))})
		return out
	}
	if total <= limit {
		return out
	}
	out.Structured, out.Raw = nil, nil
	kept := out.Content[:0]
	left := limit
	for _, c := range out.Content {
		if c.Kind != tool.Text && (c.Kind != tool.Resource || c.Text == "") {
			kept = append(kept, c)
			continue
		}
		if left == 0 {
			continue
		}
		c.Text = truncateUTF8(c.Text, left)
		left -= len(c.Text)
		kept = append(kept, c)
	}
	out.Content = append(kept, tool.Content{Kind: tool.Text, Text: fmt.Sprintf(resultNote, termtext.Bytes(total), termtext.Bytes(limit))})
	return out
}

// toContent converts one MCP content block.
func toContent(c mcp.Content) tool.Content {
	switch c := c.(type) {
	case *mcp.TextContent:
		return tool.Content{Kind: tool.Text, Text: c.Text}
	case *mcp.ImageContent:
		return tool.Content{Kind: tool.Image, Data: c.Data, MIMEType: c.MIMEType}
	case *mcp.AudioContent:
		return tool.Content{Kind: tool.Audio, Data: c.Data, MIMEType: c.MIMEType}
	case *mcp.EmbeddedResource:
		if c.Resource == nil {
			return tool.Content{Kind: tool.Resource}
		}
		return tool.Content{Kind: tool.Resource, Text: c.Resource.Text, Data: c.Resource.Blob,
			MIMEType: c.Resource.MIMEType, URI: c.Resource.URI}
	case *mcp.ResourceLink:
		return tool.Content{Kind: tool.Link, URI: c.URI, Name: c.Name, Description: c.Description, MIMEType: c.MIMEType}
	}
	return tool.Content{Kind: tool.Unknown}
}

// contentJSON is a content block in MCP's JSON shape, as the server sent
// it; nil if it cannot be written. An embedded resource keeps its text
// even when empty (see resourceJSON).
func contentJSON(c mcp.Content) json.RawMessage {
	if e, ok := c.(*mcp.EmbeddedResource); ok && e.Resource != nil {
		return marshal(struct {
			Type        string           `json:"type"`
			Resource    json.RawMessage  `json:"resource"`
			Annotations *mcp.Annotations `json:"annotations,omitempty"`
			Meta        mcp.Meta         `json:"_meta,omitempty"`
		}{"resource", resourceJSON(e.Resource), e.Annotations, e.Meta})
	}
	if c == nil {
		return nil
	}
	b, err := c.MarshalJSON()
	if err != nil {
		return nil
	}
	return unescapeHTML(b)
}

// resourceJSON is a resource's contents in MCP's JSON shape: uri, mimeType,
// and text or blob. The go-sdk leaves out an empty text, which MCP
// requires of a text resource: contents without a blob are text, empty or
// not, and keep their "text".
func resourceJSON(rc *mcp.ResourceContents) json.RawMessage {
	type common struct {
		URI      string `json:"uri"`
		MIMEType string `json:"mimeType,omitempty"`
	}
	if rc.Blob != nil {
		return marshal(struct {
			common
			Blob []byte   `json:"blob"`
			Meta mcp.Meta `json:"_meta,omitempty"`
		}{common{rc.URI, rc.MIMEType}, rc.Blob, rc.Meta})
	}
	return marshal(struct {
		common
		Text string   `json:"text"`
		Meta mcp.Meta `json:"_meta,omitempty"`
	}{common{rc.URI, rc.MIMEType}, rc.Text, rc.Meta})
}

// marshal is v as JSON with "<", ">" and "&" as they are, not escaped as
// \u003c…: the text reads as the server sent it. Nil if v cannot be
// written.
func marshal(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil
	}
	return unescapeHTML(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// unescapeHTML undoes the escaping of "<", ">" and "&" in JSON text
// (\u003c, \u003e, \u0026), which encoding/json does by default and the
// go-sdk's content blocks inherit. Other escapes are kept; "\\u003c" (an
// escaped backslash, then "u003c") is not an escape of "<".
func unescapeHTML(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u00`)) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			out = append(out, b[i])
			continue
		}
		if b[i+1] == 'u' && i+6 <= len(b) {
			switch string(b[i+2 : i+6]) {
			case "003c":
				out, i = append(out, '<'), i+5
				continue
			case "003e":
				out, i = append(out, '>'), i+5
				continue
			case "0026":
				out, i = append(out, '&'), i+5
				continue
			}
		}
		out = append(out, b[i], b[i+1])
		i++
	}
	return out
}

// ToolDef converts an MCP tool definition as the manager does, for code
// that holds a go-sdk session of its own (tests).
func ToolDef(t *mcp.Tool) tool.Def { return toDef(t) }

// toDef converts a tool definition as the server listed it.
func toDef(t *mcp.Tool) tool.Def {
	d := tool.Def{Name: t.Name, Title: t.Title, Description: t.Description}
	if raw, err := json.Marshal(t); err == nil {
		d.Raw = raw
	}
	if t.InputSchema != nil {
		if b, err := json.Marshal(t.InputSchema); err == nil {
			d.InputSchema = b
		}
	}
	if t.OutputSchema != nil {
		if b, err := json.Marshal(t.OutputSchema); err == nil {
			d.OutputSchema = b
		}
	}
	if a := t.Annotations; a != nil {
		d.Annotations = &tool.Annotations{
			Title: a.Title, ReadOnlyHint: a.ReadOnlyHint, DestructiveHint: a.DestructiveHint,
			IdempotentHint: a.IdempotentHint, OpenWorldHint: a.OpenWorldHint,
		}
	}
	return d
}

// truncateUTF8 returns at most n bytes of s, not splitting a character.
func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// elicitHandler translates the servers' elicitation requests for answer,
// naming the server that asks.
func (m *Manager) elicitHandler(answer elicit.Func) func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	return func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		var p mcp.ElicitParams
		if req != nil && req.Params != nil {
			p = *req.Params
		}
		r := ask.FormRequest{Message: p.Message, Mode: p.Mode, URL: p.URL, ElicitationID: p.ElicitationID}
		if r.Mode == "" {
			// The mode may be left out; a URL without a form is a URL request.
			r.Mode = "form"
			if p.URL != "" && p.RequestedSchema == nil {
				r.Mode = "url"
			}
		}
		if p.RequestedSchema != nil {
			if b, err := json.Marshal(p.RequestedSchema); err == nil {
				r.Schema = b
			}
		}
		if req != nil {
			m.mu.Lock()
			if s := m.sessions[req.Session]; s != nil {
				r.Server = s.spec.Name
			}
			if r.Mode == "url" && r.ElicitationID != "" && m.sessions[req.Session] != nil {
				// The server says when the user is done with the URL.
				done := make(chan struct{})
				m.urlWaits[urlWait{req.Session, r.ElicitationID}] = done
				r.Completed = done
			}
			m.mu.Unlock()
		}
		res, err := answer(ctx, r)
		if err != nil {
			return nil, err
		}
		return &mcp.ElicitResult{Action: res.Action, Content: res.Content}, nil
	}
}

// urlWait names one URL elicitation: its session and its id.
type urlWait struct {
	sess *mcp.ClientSession
	id   string
}

// elicitationComplete handles notifications/elicitation/complete: the
// URL elicitation it names is done.
func (m *Manager) elicitationComplete(_ context.Context, req *mcp.ElicitationCompleteNotificationRequest) {
	if req == nil || req.Params == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	k := urlWait{req.Session, req.Params.ElicitationID}
	if done := m.urlWaits[k]; done != nil {
		close(done)
		delete(m.urlWaits, k)
	}
}
