package ui

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/termtext"
	"github.com/mcphost/mcphost/tool"
)

// The listings of prompts and resources, shared by "mcphost prompts",
// "mcphost resources" and the chat's /prompts and /resources.

// PromptRecord is one prompt in "mcphost prompts list --output json".
type PromptRecord struct {
	Name        string            `json:"name"`
	Server      string            `json:"server"`
	Prompt      string            `json:"prompt"`
	Title       string            `json:"title,omitempty"`
	Description string            `json:"description,omitempty"`
	Arguments   []PromptArgRecord `json:"arguments"`
}

// PromptArgRecord is one argument of a prompt.
type PromptArgRecord struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required"`
}

// PromptRecords turns prompts into records.
func PromptRecords(prompts []host.PromptInfo) []PromptRecord {
	out := make([]PromptRecord, 0, len(prompts))
	for _, p := range prompts {
		r := PromptRecord{Name: p.Name, Server: p.Server, Prompt: p.Prompt.Name, Title: p.Prompt.Title, Description: p.Prompt.Description, Arguments: []PromptArgRecord{}}
		for _, a := range p.Prompt.Arguments {
			r.Arguments = append(r.Arguments, PromptArgRecord{Name: a.Name, Description: a.Description, Required: a.Required})
		}
		out = append(out, r)
	}
	return out
}

// PromptList prints prompts for a person: the name to give, its
// arguments (required ones marked) and its description.
func PromptList(w io.Writer, prompts []host.PromptInfo) {
	if len(prompts) == 0 {
		fmt.Fprintln(w, "no prompts")
		return
	}
	for i, p := range prompts {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, strings.TrimSpace(Sanitize(p.Name)+" "+Sanitize(PromptUsage(p.Prompt))))
		if d := strings.TrimSpace(p.Prompt.Description); d != "" {
			fmt.Fprintf(w, "  %s\n", termtext.Line(d))
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, a := range p.Prompt.Arguments {
			req := ""
			if a.Required {
				req = "required"
			}
			fmt.Fprintf(tw, "    %s\t%s\t%s\n", Sanitize(a.Name), req, termtext.Line(a.Description))
		}
		tw.Flush()
	}
}

// PromptUsage is how a prompt's arguments are given: "city=… [state=…]".
func PromptUsage(p tool.Prompt) string {
	var parts []string
	for _, a := range p.Arguments {
		if a.Required {
			parts = append(parts, a.Name+"=…")
		} else {
			parts = append(parts, "["+a.Name+"=…]")
		}
	}
	return strings.Join(parts, " ")
}

// PromptMessageRecord is one message of a filled-in prompt, as "mcphost
// prompts get --output json" writes it: MCP's PromptMessage, its content
// as the server sent it.
type PromptMessageRecord struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// mcpContent is c in MCP's JSON shape: as the server sent it when known,
// else made from its fields (a content block, or with contents true a
// resource read's ResourceContents).
func mcpContent(c tool.Content, contents bool) json.RawMessage {
	if len(c.Raw) > 0 {
		return c.Raw
	}
	resource := func() map[string]any {
		r := map[string]any{"uri": c.URI}
		if c.MIMEType != "" {
			r["mimeType"] = c.MIMEType
		}
		if c.Data != nil {
			r["blob"] = base64.StdEncoding.EncodeToString(c.Data)
		} else {
			r["text"] = c.Text
		}
		return r
	}
	var v map[string]any
	switch {
	case contents:
		v = resource()
	case c.Kind == tool.Resource:
		v = map[string]any{"type": "resource", "resource": resource()}
	case c.Kind == tool.Image || c.Kind == tool.Audio:
		v = map[string]any{"type": string(c.Kind), "data": base64.StdEncoding.EncodeToString(c.Data), "mimeType": c.MIMEType}
	case c.Kind == tool.Link:
		v = map[string]any{"type": string(c.Kind), "uri": c.URI, "name": c.Name}
		if c.Description != "" {
			v["description"] = c.Description
		}
		if c.MIMEType != "" {
			v["mimeType"] = c.MIMEType
		}
	default:
		v = map[string]any{"type": "text", "text": c.Text}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`null`)
	}
	return b
}

// PromptResultRecord is a filled-in prompt in machine-readable output:
// MCP's GetPromptResult, with the prompt's name across servers.
func PromptResultRecord(name string, res *tool.PromptResult) map[string]any {
	msgs := make([]PromptMessageRecord, 0, len(res.Messages))
	for _, m := range res.Messages {
		msgs = append(msgs, PromptMessageRecord{Role: m.Role, Content: mcpContent(m.Content, false)})
	}
	out := map[string]any{"name": name, "messages": msgs}
	if res.Description != "" {
		out["description"] = res.Description
	}
	return out
}

// PromptResult prints a filled-in prompt for a person: each message under
// its role.
func PromptResult(w io.Writer, res *tool.PromptResult, tty bool) {
	clean := func(s string) string {
		if tty {
			return Sanitize(s)
		}
		return s
	}
	for i, m := range res.Messages {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "[%s]\n", clean(m.Role))
		text := m.Content.Describe()
		if m.Content.Kind == tool.Resource && m.Content.Text != "" {
			text = fmt.Sprintf("(resource %s)\n%s", m.Content.URI, m.Content.Text)
		}
		fmt.Fprintln(w, strings.TrimRight(clean(text), "\n"))
	}
}

// ResourceRecord is one resource or template in "mcphost resources list
// --output json".
type ResourceRecord struct {
	Server      string `json:"server"`
	URI         string `json:"uri,omitempty"`
	URITemplate string `json:"uriTemplate,omitempty"`
	Name        string `json:"name,omitempty"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
	Size        int64  `json:"size,omitempty"`
}

// ResourceRecords turns resources and templates into records.
func ResourceRecords(rs []host.ResourceInfo, ts []host.TemplateInfo) (resources, templates []ResourceRecord) {
	resources, templates = []ResourceRecord{}, []ResourceRecord{}
	for _, r := range rs {
		d := r.Resource
		resources = append(resources, ResourceRecord{Server: r.Server, URI: d.URI, Name: d.Name, Title: d.Title, Description: d.Description, MIMEType: d.MIMEType, Size: d.Size})
	}
	for _, t := range ts {
		d := t.Template
		templates = append(templates, ResourceRecord{Server: t.Server, URITemplate: d.URITemplate, Name: d.Name, Title: d.Title, Description: d.Description, MIMEType: d.MIMEType})
	}
	return resources, templates
}

// ResourceList prints resources and templates for a person, one per line:
// the reference to give ("@server:uri" attaches it to a prompt), its name
// and type.
func ResourceList(w io.Writer, rs []host.ResourceInfo, ts []host.TemplateInfo) {
	if len(rs) == 0 && len(ts) == 0 {
		fmt.Fprintln(w, "no resources")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range rs {
		fmt.Fprintf(tw, "%s:%s\t%s\t%s\n", Sanitize(r.Server), Sanitize(r.Resource.URI), termtext.Line(r.Resource.Display()), Sanitize(r.Resource.MIMEType))
	}
	tw.Flush()
	if len(ts) == 0 {
		return
	}
	if len(rs) > 0 {
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "templates (fill in the {variables}):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, t := range ts {
		name := t.Template.Title
		if name == "" {
			name = t.Template.Name
		}
		fmt.Fprintf(tw, "%s:%s\t%s\t%s\n", Sanitize(t.Server), Sanitize(t.Template.URITemplate), termtext.Line(name), Sanitize(t.Template.MIMEType))
	}
	tw.Flush()
}

// ResourceContentsRecord is a resource read in machine-readable output:
// MCP's ReadResourceResult, each of its contents as the server sent it,
// with the server it was read from.
func ResourceContentsRecord(server string, contents []tool.Content) map[string]any {
	recs := make([]json.RawMessage, 0, len(contents))
	for _, c := range contents {
		recs = append(recs, mcpContent(c, true))
	}
	return map[string]any{"server": server, "contents": recs}
}

// ResourceContents prints a resource read: text exactly as it is, anything
// else as one line ("[resource demo://… image/png, 3.9 KB]"); see
// WriteContents.
func ResourceContents(w io.Writer, contents []tool.Content, tty bool) error {
	return WriteContents(w, contents, tty)
}

// PromptsReport prints "mcphost prompts list": a listing, or JSON records.
func PromptsReport(w io.Writer, prompts []host.PromptInfo, jsonOut bool) error {
	if jsonOut {
		return WriteJSON(w, map[string]any{"prompts": PromptRecords(prompts)})
	}
	PromptList(w, prompts)
	return nil
}

// ResourcesReport prints "mcphost resources list": the resources and
// templates, or their JSON records.
func ResourcesReport(w io.Writer, rs []host.ResourceInfo, ts []host.TemplateInfo, jsonOut bool) error {
	if jsonOut {
		resources, templates := ResourceRecords(rs, ts)
		return WriteJSON(w, map[string]any{"resources": resources, "templates": templates})
	}
	ResourceList(w, rs, ts)
	return nil
}
