package host

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcphost/mcphost/internal/servers"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/tool"
)

// The host's own tools, offered to the model when any server has
// resources: MCP resources are the application's to pick, so the model
// reaches them through these. Their server is "mcphost" in events,
// approval rules and the audit log.
const (
	HostServer        = "mcphost"
	ListResourcesTool = HostServer + "__list_resources"
	ReadResourceTool  = HostServer + "__read_resource"
)

var resourceToolDefs = []tool.Def{
	{
		Name:        "list_resources",
		Description: "List the resources (files, documents, records) the MCP servers offer, and the URI templates of those they can make; read one with " + ReadResourceTool + ".",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"server":{"type":"string","description":"only the resources of this server"}}}`),
	},
	{
		Name:        "read_resource",
		Description: "Read a resource of an MCP server by its URI (from " + ListResourcesTool + ", or a URI template filled in).",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"uri":{"type":"string","description":"the resource's URI"},"server":{"type":"string","description":"the server that has it; needed only when several servers could"}},"required":["uri"]}`),
	},
}

// hostTools is the toolbox the model sees: the servers' tools, the
// program's Go tools (Options.Tools), and the resource tools while any
// server has resources. The Go tools join here, below the approval
// policy, hooks, audit log and runner that wrap this toolbox, so that
// every guard a server's tool passes applies to them unchanged.
type hostTools struct {
	m       *servers.Manager
	gotools *goTools
}

// Tools implements runner.Toolbox.
func (t *hostTools) Tools() []provider.Tool {
	tools := t.m.Tools()
	if len(t.gotools.offered) > 0 {
		tools = append(t.gotools.hide(tools, t.m), t.gotools.offered...)
	}
	if !t.m.HasResources() {
		return tools
	}
	for _, def := range resourceToolDefs {
		name := HostServer + "__" + def.Name
		if _, _, taken := t.m.Lookup(name); taken {
			continue // a server named "mcphost" has such a tool: its own wins
		}
		tools = append(tools, provider.Tool{Name: name, Description: def.Description, Parameters: def.InputSchema})
	}
	return tools
}

// resource returns the resource tool of name, if name is one and is
// offered.
func (t *hostTools) resource(name string) (tool.Def, bool) {
	if _, _, taken := t.m.Lookup(name); taken {
		return tool.Def{}, false
	}
	for _, def := range resourceToolDefs {
		if HostServer+"__"+def.Name == name {
			def.Annotations = &tool.Annotations{ReadOnlyHint: true}
			// The definition as an MCP server would list it, for listings.
			def.Raw, _ = json.Marshal(map[string]any{"name": def.Name, "description": def.Description,
				"inputSchema": def.InputSchema, "annotations": map[string]any{"readOnlyHint": true}})
			return def, true
		}
	}
	return tool.Def{}, false
}

// Lookup implements runner.Toolbox. A Go tool's server is HostServer.
func (t *hostTools) Lookup(name string) (string, string, bool) {
	if g := t.gotools.byName[name]; g != nil {
		return HostServer, name, true
	}
	if def, ok := t.resource(name); ok {
		return HostServer, def.Name, true
	}
	return t.m.Lookup(name)
}

// ToolInfo implements approval.ToolInfoSource: the resource tools only
// read, so the default policy allows them; a Go tool is as NewTool made
// it, read-only only when the program said so.
func (t *hostTools) ToolInfo(name string) (tool.Def, bool) {
	if g := t.gotools.byName[name]; g != nil {
		return g.def, true
	}
	if def, ok := t.resource(name); ok {
		return def, true
	}
	return t.m.ToolInfo(name)
}

// Call implements runner.Toolbox.
func (t *hostTools) Call(ctx context.Context, name string, args map[string]any) (*tool.Result, error) {
	if g := t.gotools.byName[name]; g != nil {
		return t.gotools.call(ctx, g, args)
	}
	def, ok := t.resource(name)
	if !ok {
		return t.m.Call(ctx, name, args)
	}
	str := func(k string) string { s, _ := args[k].(string); return strings.TrimSpace(s) }
	switch def.Name {
	case "list_resources":
		return textResult(t.listing(str("server"))), nil
	default:
		uri := str("uri")
		if uri == "" {
			return &tool.Result{IsError: true, Content: []tool.Content{{Kind: tool.Text, Text: `give the resource's "uri"; ` + ListResourcesTool + " lists them"}}}, nil
		}
		server, err := findServer(t.m, str("server"), uri)
		if err != nil {
			return &tool.Result{IsError: true, Content: []tool.Content{{Kind: tool.Text, Text: err.Error()}}}, nil
		}
		contents, err := t.m.ReadResource(ctx, server, uri)
		if err != nil {
			return nil, err
		}
		res := &tool.Result{}
		for _, c := range contents {
			if len(c.Data) > 0 && strings.HasPrefix(c.MIMEType, "image/") {
				// An image reaches a vision model as an image.
				c.Kind = tool.Image
			}
			res.Content = append(res.Content, c)
		}
		if len(res.Content) == 0 {
			res.Content = []tool.Content{{Kind: tool.Text, Text: "(the resource is empty)"}}
		}
		return res, nil
	}
}

// listing is the text of list_resources.
func (t *hostTools) listing(only string) string {
	var b strings.Builder
	for _, r := range t.m.Resources() {
		if only != "" && r.Server != only {
			continue
		}
		fmt.Fprintf(&b, "- %s (server %s)", r.Resource.URI, r.Server)
		if d := r.Resource.Display(); d != r.Resource.URI {
			fmt.Fprintf(&b, ": %s", d)
		}
		if r.Resource.Description != "" {
			fmt.Fprintf(&b, " — %s", oneLine(r.Resource.Description))
		}
		if r.Resource.MIMEType != "" {
			fmt.Fprintf(&b, " [%s]", r.Resource.MIMEType)
		}
		b.WriteByte('\n')
	}
	first := true
	for _, tm := range t.m.Templates() {
		if only != "" && tm.Server != only {
			continue
		}
		if first {
			b.WriteString("URI templates (fill in the {variables}):\n")
			first = false
		}
		fmt.Fprintf(&b, "- %s (server %s)", tm.Template.URITemplate, tm.Server)
		if tm.Template.Description != "" {
			fmt.Fprintf(&b, " — %s", oneLine(tm.Template.Description))
		}
		b.WriteByte('\n')
	}
	if b.Len() == 0 {
		if only != "" {
			return fmt.Sprintf("server %q has no resources", only)
		}
		return "no resources"
	}
	return strings.TrimRight(b.String(), "\n")
}

func textResult(s string) *tool.Result {
	return &tool.Result{Content: []tool.Content{{Kind: tool.Text, Text: s}}}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
