// Package tool holds the neutral types of what MCP servers offer and
// return: a tool's definition ([Def]) with its [Annotations], the
// [Result] of a call and its [Content], and the prompts and resources a
// server lists. mcphost builds them from the go-sdk's types, once, so
// that nothing above (the runner, the approval layer, the audit log, the
// host and the renderers) depends on the SDK or walks MCP content blocks
// itself.
package tool

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mcphost/mcphost/internal/termtext"
)

// Def is a tool as its server defined it.
type Def struct {
	// Name is the server's own name for the tool (not the exposed
	// "server__tool" name).
	Name        string
	Title       string
	Description string
	// InputSchema and OutputSchema are the JSON Schemas as the server sent
	// them; OutputSchema is nil when the tool declares none.
	InputSchema, OutputSchema json.RawMessage
	// Annotations are the server's hints; nil when it sent none.
	Annotations *Annotations
	// TaskSupport is the tool's execution.taskSupport (MCP tasks):
	// "required" or "optional" when the tool runs as a task, empty
	// otherwise.
	TaskSupport string
	// Raw is the definition exactly as the server sent it, for listings
	// that must show it unchanged.
	Raw json.RawMessage
}

// Annotations are a tool's behaviour hints (MCP ToolAnnotations). The
// pointers are nil where the server said nothing, so that callers can tell
// "not said" from "false" and apply the spec's defaults themselves.
type Annotations struct {
	Title           string
	ReadOnlyHint    bool
	DestructiveHint *bool
	IdempotentHint  bool
	OpenWorldHint   *bool
}

// Kind is the kind of one piece of a result's content.
type Kind string

// The kinds of content a tool result holds.
const (
	Text     Kind = "text"
	Image    Kind = "image"
	Audio    Kind = "audio"
	Resource Kind = "resource" // an embedded resource: text or a blob
	Link     Kind = "resource_link"
	Unknown  Kind = "unknown" // a kind this mcphost does not know
)

// Content is one piece of a result, in the server's order.
type Content struct {
	Kind Kind
	// Text is the text of Text content and of a text Resource.
	Text string
	// Data is the bytes of Image and Audio content and of a blob Resource.
	Data     []byte
	MIMEType string
	// URI, Name and Description describe a Resource or a Link.
	URI, Name, Description string
	// Raw is the content as the server sent it, in MCP's JSON shape, for
	// machine-readable output: a prompt message's content block, or one
	// of the contents of a resource read (MCP ResourceContents: uri,
	// mimeType, text or blob). It is nil for the content of a tool
	// result, which [Result.Raw] holds whole, and for content made
	// otherwise.
	Raw json.RawMessage
}

// Result is the outcome of a tool call as the server reported it, with the
// manager's size cap already applied.
type Result struct {
	Content []Content
	// Structured is the result's structuredContent, nil when none.
	Structured any
	// IsError is true when the tool reported a failure.
	IsError bool
	// Raw is the result as the server sent it (before any cut), for
	// machine-readable output.
	Raw json.RawMessage
}

// HasText reports whether any content carries text: Text content or a
// text Resource.
func (r *Result) HasText() bool {
	for _, c := range r.Content {
		if c.Kind == Text || (c.Kind == Resource && c.Text != "") {
			return true
		}
	}
	return false
}

// Text joins the text of the result: text content and text resources, in
// order, one per line; without any, the structured content as JSON. The
// other kinds are left out. It is what an error message or a preview
// quotes.
func (r *Result) Text() string {
	var parts []string
	for _, c := range r.Content {
		if c.Kind == Text || (c.Kind == Resource && c.Text != "") {
			parts = append(parts, c.Text)
		}
	}
	if len(parts) == 0 && r.Structured != nil {
		if b, err := json.Marshal(r.Structured); err == nil {
			parts = append(parts, string(b))
		}
	}
	return strings.Join(parts, "\n")
}

// Describe is a one-line description of content that is not text, for a
// person or a model: "[image image/png, 3.9 KB]". Text content is returned
// as is.
func (c Content) Describe() string {
	switch c.Kind {
	case Text:
		return c.Text
	case Image, Audio:
		return fmt.Sprintf("[%s %s, %s]", c.Kind, orDash(c.MIMEType), termtext.Bytes(len(c.Data)))
	case Resource:
		if c.Text != "" {
			return c.Text
		}
		return fmt.Sprintf("[resource %s, %s, %s]", c.URI, orDash(c.MIMEType), termtext.Bytes(len(c.Data)))
	case Link:
		desc := c.Name
		if c.Description != "" {
			desc += ": " + c.Description
		}
		return fmt.Sprintf("[resource link %s (%s)]", c.URI, desc)
	}
	return "[content of an unknown kind]"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// ReadArgs reads the arguments of a call a person gives on the command
// line: JSON text, "-" for the JSON on stdin, or nothing for none.
func ReadArgs(raw string, stdin io.Reader) (map[string]any, error) {
	source := "the arguments"
	if raw == "-" {
		data, err := io.ReadAll(stdin)
		if err != nil {
			return nil, fmt.Errorf("reading the arguments from stdin: %w", err)
		}
		raw, source = string(data), "the arguments on stdin"
	}
	args, err := ParseArgs(raw)
	if err != nil {
		return nil, fmt.Errorf("%s %v", source, err)
	}
	return args, nil
}

// ParseArgs reads a call's arguments written by a person: one JSON object,
// or nothing for none. Numbers keep their exact text, so that large
// integers are not rounded.
func ParseArgs(text string) (map[string]any, error) {
	if strings.TrimSpace(text) == "" {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var args map[string]any
	if err := dec.Decode(&args); err != nil || dec.More() || args == nil {
		return nil, errors.New(`must be one JSON object, e.g. '{"message": "hi"}'`)
	}
	return args, nil
}
