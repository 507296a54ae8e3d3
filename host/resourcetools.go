package host

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcphost/mcphost/internal/guard/approval"
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
	// policy is the approval policy: the resource tools never list nor
	// read the resources of a server whose every tool it denies.
	policy approval.Policy
}

// Tools implements runner.Toolbox.
func (t *hostTools) Tools() []provider.Tool {
	tools := t.m.Tools()
	if len(t.gotools.offered) > 0 {
		tools = append(t.gotools.hide(tools, t.m), t.gotools.offered...)
	}
	if !t.offersResources() {
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

// LiveToolInfo implements approval.LiveToolInfoSource: a server's tool
// as the server lists it now; the host's own tools are always live.
func (t *hostTools) LiveToolInfo(ctx context.Context, name string) (tool.Def, bool, error) {
	if t.gotools.byName[name] != nil {
		def, ok := t.ToolInfo(name)
		return def, ok, nil
	}
	if def, ok := t.resource(name); ok {
		return def, true, nil
	}
	return t.m.LiveToolInfo(ctx, name)
}

// subject is approval.Options.Subject: the server whose resources a call
// of a resource tool reaches, so that the call is decided as one to that
// server. A listing of every server reaches none (denied servers are left
// out of it); a read whose server cannot be found reaches none either,
// and fails.
func (t *hostTools) subject(name string, args map[string]any) (approval.Subject, bool) {
	def, ok := t.resource(name)
	if !ok {
		return approval.Subject{}, false
	}
	str := func(k string) string { s, _ := args[k].(string); return strings.TrimSpace(s) }
	server := str("server")
	if def.Name == "read_resource" {
		uri := str("uri")
		if uri == "" {
			return approval.Subject{}, false
		}
		var err error
		if server, err = findServer(t.m, server, uri); err != nil {
			return approval.Subject{}, false
		}
	}
	if server == "" {
		return approval.Subject{}, false
	}
	return t.subjectOf(server), true
}

// subjectOf is server with the rule names of each of its tools.
func (t *hostTools) subjectOf(server string) approval.Subject {
	sub := approval.Subject{Server: server}
	for _, tl := range t.m.Tools() {
		if s, own, ok := t.m.Lookup(tl.Name); ok && s == server {
			sub.Tools = append(sub.Tools, []string{tl.Name, s + "__" + own})
		}
	}
	return sub
}

// hidden returns, for a server whose resources the approval policy
// denies (it denies every tool of the server), why, worded for the model
// and the user; "" for any other server.
func (t *hostTools) hidden(server string) string {
	v, denied := t.policy.DeniesServer(t.subjectOf(server))
	if !denied {
		return ""
	}
	return fmt.Sprintf("the resources of server %q are denied by the user's approval policy (%s); do not ask for them again", server, v.Why)
}

// offersResources reports whether a server the policy does not hide has
// resources or resource templates, for which the resource tools are
// offered.
func (t *hostTools) offersResources() bool {
	if !t.m.HasResources() {
		return false
	}
	seen := map[string]bool{}
	check := func(server string) bool {
		if seen[server] {
			return false
		}
		seen[server] = true
		return t.hidden(server) == ""
	}
	for _, r := range t.m.Resources() {
		if check(r.Server) {
			return true
		}
	}
	for _, tm := range t.m.Templates() {
		if check(tm.Server) {
			return true
		}
	}
	return false
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
	refused := func(msg string) *tool.Result {
		return &tool.Result{IsError: true, Content: []tool.Content{{Kind: tool.Text, Text: msg}}}
	}
	switch def.Name {
	case "list_resources":
		if only := str("server"); only != "" {
			if why := t.hidden(only); why != "" {
				return refused(why), nil
			}
		}
		return textResult(t.listing(str("server"))), nil
	default:
		uri := str("uri")
		if uri == "" {
			return &tool.Result{IsError: true, Content: []tool.Content{{Kind: tool.Text, Text: `give the resource's "uri"; ` + ListResourcesTool + " lists them"}}}, nil
		}
		server, err := findServer(t.m, str("server"), uri)
		if err != nil {
			return refused(err.Error()), nil
		}
		if why := t.hidden(server); why != "" {
			return refused(why), nil
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
	hidden := map[string]bool{}
	hide := func(server string) bool {
		h, ok := hidden[server]
		if !ok {
			h = t.hidden(server) != ""
			hidden[server] = h
		}
		return h
	}
	for _, r := range t.m.Resources() {
		if only != "" && r.Server != only || hide(r.Server) {
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
		if only != "" && tm.Server != only || hide(tm.Server) {
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
