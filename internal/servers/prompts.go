package servers

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/tool"
)

// PromptInfo is one prompt a server offers.
type PromptInfo struct {
	// Name is the prompt's name across servers, "server__prompt", made
	// as tool names are.
	Name   string
	Server string
	Prompt tool.Prompt
}

// ResourceInfo is one resource a server lists.
type ResourceInfo struct {
	Server   string
	Resource tool.ResourceDef
}

// TemplateInfo is one resource template a server lists.
type TemplateInfo struct {
	Server   string
	Template tool.ResourceTemplate
}

// setLists converts the prompts, resources and templates of cat, once,
// when they are listed. The caller holds the manager's mu or owns s.
func (s *server) setLists(cat *catalog) {
	s.prompts = s.prompts[:0]
	for _, p := range cat.prompts {
		tp := tool.Prompt{Name: p.Name, Title: p.Title, Description: p.Description}
		for _, a := range p.Arguments {
			if a != nil {
				tp.Arguments = append(tp.Arguments, tool.PromptArgument{Name: a.Name, Title: a.Title, Description: a.Description, Required: a.Required})
			}
		}
		s.prompts = append(s.prompts, tp)
	}
	s.resources = s.resources[:0]
	for _, r := range cat.resources {
		s.resources = append(s.resources, tool.ResourceDef{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType, Size: r.Size})
	}
	s.templates = s.templates[:0]
	for _, t := range cat.templates {
		s.templates = append(s.templates, tool.ResourceTemplate{URITemplate: t.URITemplate, Name: t.Name, Title: t.Title, Description: t.Description, MIMEType: t.MIMEType})
	}
}

// Prompts lists the prompts of the servers whose tools are offered, in
// config order and then each server's own order.
func (m *Manager) Prompts() []PromptInfo {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []PromptInfo
	for _, s := range m.servers {
		if !s.offered() {
			continue
		}
		for i, p := range s.prompts {
			out = append(out, PromptInfo{Name: s.promptNames[i], Server: s.spec.Name, Prompt: p})
		}
	}
	return out
}

// Resources lists the resources of the servers whose tools are offered,
// in config order and then each server's own order.
func (m *Manager) Resources() []ResourceInfo {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []ResourceInfo
	for _, s := range m.servers {
		if s.offered() {
			for _, r := range s.resources {
				out = append(out, ResourceInfo{Server: s.spec.Name, Resource: r})
			}
		}
	}
	return out
}

// Templates lists the resource templates of the servers whose tools are
// offered, in config order and then each server's own order.
func (m *Manager) Templates() []TemplateInfo {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []TemplateInfo
	for _, s := range m.servers {
		if s.offered() {
			for _, t := range s.templates {
				out = append(out, TemplateInfo{Server: s.spec.Name, Template: t})
			}
		}
	}
	return out
}

// HasResources reports whether any offered server lists resources or
// resource templates.
func (m *Manager) HasResources() bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	for _, s := range m.servers {
		if s.offered() && (len(s.resources) > 0 || len(s.templates) > 0) {
			return true
		}
	}
	return false
}

// promptRef resolves an exposed prompt name.
func (m *Manager) promptRef(name string) (*server, toolRef, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	ref, ok := m.promptTable[name]
	if !ok {
		var known []string
		for _, s := range m.servers {
			if s.offered() {
				known = append(known, s.promptNames...)
			}
		}
		return nil, toolRef{}, &kindError{kind: ErrUnknownPrompt, msg: fmt.Sprintf("unknown prompt %q (prompts: %s)", name, orNone(known))}
	}
	return m.byName[ref.Server], ref, nil
}

// GetPrompt fills in the prompt exposed as name with args (MCP
// prompts/get), starting its server if it is idle. Missing required
// arguments are refused before the server is asked.
func (m *Manager) GetPrompt(ctx context.Context, name string, args map[string]string) (*tool.PromptResult, error) {
	s, ref, err := m.promptRef(name)
	if err != nil {
		return nil, err
	}
	if p, ok := m.promptDef(s, ref.Tool); ok {
		var missing []string
		for _, a := range p.Arguments {
			if a.Required && args[a.Name] == "" {
				missing = append(missing, a.Name)
			}
		}
		if len(missing) > 0 {
			return nil, &kindError{kind: ErrPromptArguments, msg: fmt.Sprintf("prompt %s needs %s: give %s", name, strings.Join(missing, ", "), argsHint(missing))}
		}
	}
	c, err := m.readyConn(ctx, s)
	if err != nil {
		return nil, err
	}
	ctx, cancel := m.requestContext(ctx, s, c)
	defer cancel()
	res, err := c.sess.GetPrompt(ctx, &mcp.GetPromptParams{Name: ref.Tool, Arguments: args})
	if err != nil {
		return nil, requestError(s.spec.Name, fmt.Sprintf("prompt %q", ref.Tool), err)
	}
	out := &tool.PromptResult{Description: res.Description}
	for _, msg := range res.Messages {
		if msg != nil {
			c := toContent(msg.Content)
			c.Raw = contentJSON(msg.Content)
			out.Messages = append(out.Messages, tool.PromptMessage{Role: string(msg.Role), Content: c})
		}
	}
	return out, nil
}

// promptDef returns a server's prompt by its own name.
func (m *Manager) promptDef(s *server, name string) (tool.Prompt, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	for _, p := range s.prompts {
		if p.Name == name {
			return p, true
		}
	}
	return tool.Prompt{}, false
}

func argsHint(names []string) string {
	var parts []string
	for _, n := range names {
		parts = append(parts, n+"=…")
	}
	return strings.Join(parts, " ")
}

// CompletePrompt asks the server of the prompt exposed as name for the
// values of argument arg that begin with value (MCP completion/complete);
// known holds the arguments already given. A server that does not offer
// completions has none.
func (m *Manager) CompletePrompt(ctx context.Context, name, arg, value string, known map[string]string) (tool.Completion, error) {
	s, ref, err := m.promptRef(name)
	if err != nil {
		return tool.Completion{}, err
	}
	return m.complete(ctx, s, &mcp.CompleteReference{Type: "ref/prompt", Name: ref.Tool}, arg, value, known)
}

// CompleteResource asks a server for the values of a resource template's
// variable arg that begin with value; known holds the variables already
// given.
func (m *Manager) CompleteResource(ctx context.Context, server, template, arg, value string, known map[string]string) (tool.Completion, error) {
	s, err := m.serverNamed(server)
	if err != nil {
		return tool.Completion{}, err
	}
	return m.complete(ctx, s, &mcp.CompleteReference{Type: "ref/resource", URI: template}, arg, value, known)
}

func (m *Manager) complete(ctx context.Context, s *server, ref *mcp.CompleteReference, arg, value string, known map[string]string) (tool.Completion, error) {
	m.mu.RLock()
	offered := s.cat != nil && s.cat.offers.Completions
	m.mu.RUnlock()
	if !offered {
		return tool.Completion{}, nil
	}
	c, err := m.readyConn(ctx, s)
	if err != nil {
		return tool.Completion{}, err
	}
	ctx, cancel := m.requestContext(ctx, s, c)
	defer cancel()
	params := &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: arg, Value: value}}
	if len(known) > 0 {
		params.Context = &mcp.CompleteContext{Arguments: known}
	}
	res, err := c.sess.Complete(ctx, params)
	if err != nil {
		return tool.Completion{}, requestError(s.spec.Name, "completion", err)
	}
	return tool.Completion{Values: res.Completion.Values, Total: res.Completion.Total, HasMore: res.Completion.HasMore}, nil
}

// ReadResource reads a resource of a server (MCP resources/read),
// starting the server if it is idle. The contents are Resource content:
// text, or bytes in Data.
func (m *Manager) ReadResource(ctx context.Context, server, uri string) ([]tool.Content, error) {
	s, err := m.serverNamed(server)
	if err != nil {
		return nil, err
	}
	c, err := m.readyConn(ctx, s)
	if err != nil {
		return nil, err
	}
	ctx, cancel := m.requestContext(ctx, s, c)
	defer cancel()
	res, err := c.sess.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return nil, requestError(s.spec.Name, fmt.Sprintf("resource %s", uri), err)
	}
	var out []tool.Content
	for _, rc := range res.Contents {
		if rc != nil {
			out = append(out, tool.Content{Kind: tool.Resource, URI: rc.URI, MIMEType: rc.MIMEType, Text: rc.Text, Data: rc.Blob, Raw: resourceJSON(rc)})
		}
	}
	return out, nil
}

// requestContext bounds a request other than a tool call by the server's
// tool timeout, and ends it with the connection.
func (m *Manager) requestContext(ctx context.Context, s *server, c *conn) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(ctx, toolTimeout(s.spec))
	stop := context.AfterFunc(c.calls, cancel)
	return ctx, func() { stop(); cancel() }
}

// requestError words the failure of a request about what (a prompt, a
// resource) to server.
func requestError(server, what string, err error) error {
	var wire *jsonrpc.Error
	switch {
	case errors.As(err, &wire):
		return fmt.Errorf("server %q: %s: %s", server, what, cleanLine(wire.Message))
	case errors.Is(err, context.DeadlineExceeded):
		return &kindError{kind: ErrToolTimeout, err: err, msg: fmt.Sprintf("server %q: %s: no answer in time", server, what)}
	}
	return fmt.Errorf("server %q: %s: %w", server, what, err)
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
