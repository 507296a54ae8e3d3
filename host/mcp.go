package host

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/servers"
	"github.com/mcphost/mcphost/internal/termtext"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/tool"
)

// PromptInfo is one prompt a server offers.
type PromptInfo struct {
	// Name is the prompt's name across servers, "server__prompt", made as
	// tool names are; Prompt.Name is the server's own.
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

// ListChange says what changed in one server's tools, prompts or
// resources while it ran.
type ListChange struct {
	Server string
	// Kind is [ListTools], [ListPrompts] or [ListResources] (resources
	// and resource templates).
	Kind string
	// Added and Removed name what came and went.
	Added, Removed []string
}

// The kinds of a [ListChange].
const (
	ListTools     = "tools"
	ListPrompts   = "prompts"
	ListResources = "resources"
)

// StartNews is news of a Host's start, for [Options.OnStart]: the servers
// being started (Starting, sent once, first), one server's outcome (Server,
// ready when Err is nil, else Err is its *[ServerError]), or the model the
// engine is asked about (Model, sent when asked and again with Done when
// answered, with Err if it failed). It is also an [Event]: a turn that
// waits for servers still starting tells of that wait with it (see
// [ServerLeftOut]).
type StartNews struct {
	Starting []string
	Server   string
	Model    string
	Done     bool
	Err      error
}

// WaitStarting waits until no server is starting without its tools,
// prompts and resources known (a server started in the background whose
// lists were not cached), or until ctx ends. Unlike a turn, it does not
// stop at the server wait (config.Settings.ServerWait).
func (h *Host) WaitStarting(ctx context.Context) { h.manager.WaitStarting(ctx) }

// serverWait is how long a model call waits for a server still starting
// whose tools are not known: the setting, or its default; negative for
// no wait.
func (h *Host) serverWait() time.Duration {
	if h.settings.ServerWait == 0 {
		return config.DefaultServerWait
	}
	return h.settings.ServerWait
}

// waitServers waits, before a turn's first model call, for the servers
// still starting whose tools are not known yet, each up to the server wait
// from its start, telling emit (nil for no one) of the wait and of the
// servers the turn goes on without. The first time a server is left out,
// a warning says so: in emit's events, or to Options.Warn without them.
func (h *Host) waitServers(ctx context.Context, emit func(Event)) {
	var news func(servers.StartNews)
	if emit != nil {
		news = func(n servers.StartNews) {
			emit(startNews(n))
		}
	}
	wait := h.serverWait()
	left := h.manager.WaitTools(ctx, wait, news)
	if len(left) == 0 || ctx.Err() != nil {
		return
	}
	why := map[string]error{}
	for _, st := range h.manager.Status() {
		why[st.Name] = st.Err
	}
	for _, name := range left {
		reason := "still starting"
		if wait > 0 {
			reason += " after " + wait.String()
		}
		if err := why[name]; err != nil {
			// Its first start failed; it is being started again.
			reason += "; its first start failed: " + termtext.Line(err.Error())
		}
		reason = h.mask.String(reason)
		if emit != nil {
			emit(ServerLeftOut{Server: name, Reason: reason})
		}
		h.leftMu.Lock()
		first := !h.leftOut[name]
		if h.leftOut == nil {
			h.leftOut = map[string]bool{}
		}
		h.leftOut[name] = true
		h.leftMu.Unlock()
		if !first {
			continue
		}
		msg := fmt.Sprintf("server %q is %s: the model is called without its tools until it is ready (--server-wait sets how long a model call waits for a server)", name, reason)
		if emit != nil {
			emit(Warning{Message: msg})
		} else {
			h.warn(msg)
		}
	}
}

// Prompts lists the prompts of the servers, in config order and then each
// server's own order (from the cache for servers not started yet).
func (h *Host) Prompts() []PromptInfo {
	ps := h.manager.Prompts()
	out := make([]PromptInfo, len(ps))
	for i, p := range ps {
		out[i] = PromptInfo(p)
	}
	return out
}

// ResolvePrompt returns the full name ("server__prompt") of the prompt
// name means: the full name, or a prompt's own name when one server alone
// has it.
func (h *Host) ResolvePrompt(name string) (string, error) {
	prompts := h.manager.Prompts()
	var matches, all []string
	for _, p := range prompts {
		all = append(all, p.Name)
		if p.Name == name {
			return name, nil
		}
		if p.Prompt.Name == name {
			matches = append(matches, p.Name)
		}
	}
	switch {
	case len(matches) == 1:
		return matches[0], nil
	case len(matches) > 1:
		return "", fmt.Errorf("%w %q: several servers have it: %s", ErrUnknownPrompt, name, strings.Join(matches, ", "))
	case len(all) == 0:
		return "", fmt.Errorf("%w %q: the servers offer no prompts", ErrUnknownPrompt, name)
	}
	return "", fmt.Errorf("%w %q (prompts: %s; mcphost prompts list shows them)", ErrUnknownPrompt, name, strings.Join(all, ", "))
}

// GetPrompt fills in a prompt with its arguments (MCP prompts/get), by any
// name [Host.ResolvePrompt] accepts. A missing required argument is an error
// naming it.
func (h *Host) GetPrompt(ctx context.Context, name string, args map[string]string) (*tool.PromptResult, error) {
	return guard(h, ctx, func(ctx context.Context) (*tool.PromptResult, error) {
		full, err := h.ResolvePrompt(name)
		if err != nil {
			return nil, err
		}
		return h.manager.GetPrompt(ctx, full, args)
	})
}

// CompletePrompt proposes values for argument arg of a prompt that begin
// with value (MCP completion/complete); known are the arguments given
// already, which a server may narrow its proposals by. A server without
// completions proposes nothing.
func (h *Host) CompletePrompt(ctx context.Context, name, arg, value string, known map[string]string) (tool.Completion, error) {
	return guard(h, ctx, func(ctx context.Context) (tool.Completion, error) {
		full, err := h.ResolvePrompt(name)
		if err != nil {
			return tool.Completion{}, err
		}
		return h.manager.CompletePrompt(ctx, full, arg, value, known)
	})
}

// Resources lists the resources of the servers, in config order and then
// each server's own order.
func (h *Host) Resources() []ResourceInfo {
	rs := h.manager.Resources()
	out := make([]ResourceInfo, len(rs))
	for i, r := range rs {
		out[i] = ResourceInfo(r)
	}
	return out
}

// ResourceTemplates lists the resource templates of the servers.
func (h *Host) ResourceTemplates() []TemplateInfo {
	ts := h.manager.Templates()
	out := make([]TemplateInfo, len(ts))
	for i, t := range ts {
		out[i] = TemplateInfo(t)
	}
	return out
}

// CompleteResource proposes values for a variable of a resource template
// that begin with value; known are the variables given already.
func (h *Host) CompleteResource(ctx context.Context, server, template, variable, value string, known map[string]string) (tool.Completion, error) {
	return guard(h, ctx, func(ctx context.Context) (tool.Completion, error) {
		return h.manager.CompleteResource(ctx, server, template, variable, value, known)
	})
}

// ReadResource reads a resource (MCP resources/read). ref is a URI, or
// "SERVER:URI" to name the server, the URI with a scheme or without one
// ("terraform:/terraform/style-guide"). When what comes before the first
// ':' names a configured server, ref is read both ways: that server's
// URI, and the whole of ref as a URI; the reading that a server lists
// wins over one that only fits a URI template, which wins over one that
// no server knows, and with neither known the named server is asked. Two
// readings known alike are an error naming both. Without a server, the
// server is the one that lists the URI, else the one whose URI template
// it fits, else the only server with resources.
func (h *Host) ReadResource(ctx context.Context, ref string) (server string, contents []tool.Content, err error) {
	contents, err = guard(h, ctx, func(ctx context.Context) ([]tool.Content, error) {
		var uri string
		if server, uri, err = resolveRef(h.manager, ref); err != nil {
			return nil, err
		}
		return h.manager.ReadResource(ctx, server, uri)
	})
	return server, contents, err
}

// readResource is the manager's ReadResource, as work of the Host (see
// begin).
func (h *Host) readResource(ctx context.Context, server, uri string) ([]tool.Content, error) {
	return guard(h, ctx, func(ctx context.Context) ([]tool.Content, error) { return h.manager.ReadResource(ctx, server, uri) })
}

// How well a server knows a URI, for resolveRef.
const (
	unknownURI = iota // neither listed nor fitting a template
	fitsURI           // fits one of the server's URI templates
	listedURI         // the server lists it
)

// resolveRef decides which server a reference of [Host.ReadResource]
// names, and the URI to read.
func resolveRef(m *servers.Manager, ref string) (server, uri string, err error) {
	prefix, rest, ok := strings.Cut(ref, ":")
	// "name://…" is a URI whose scheme happens to be a server's name.
	if !ok || rest == "" || strings.HasPrefix(rest, "//") || !slices.ContainsFunc(m.Status(), func(st servers.ServerStatus) bool { return st.Name == prefix }) {
		server, err = findServer(m, "", ref)
		return server, ref, err
	}
	named := uriKnown(m, prefix, rest)
	whole, wholeServer := unknownURI, ""
	for _, st := range m.Status() {
		if k := uriKnown(m, st.Name, ref); k > whole {
			whole, wholeServer = k, st.Name
		}
	}
	switch {
	case whole > named:
		server, err = findServer(m, "", ref)
		return server, ref, err
	case named > unknownURI && named == whole:
		return "", "", ambiguousRef(m, ref, prefix, rest, wholeServer)
	}
	return prefix, rest, nil
}

// ambiguousRef is the error for a reference that two servers know: server
// named as "named:rest", and server other as the whole of ref. It says
// what to give for each.
func ambiguousRef(m *servers.Manager, ref, named, rest, other string) error {
	how := fmt.Sprintf("give %q for the second", other+":"+ref)
	if s, u, err := resolveRef(m, rest); err == nil && s == named && u == rest {
		how = fmt.Sprintf("give %q for the first, %q for the second", rest, other+":"+ref)
	}
	return fmt.Errorf("resource %q is ambiguous: it can mean %q of server %q or %q of server %q; %s", ref, rest, named, ref, other, how)
}

// uriKnown says how well server knows uri.
func uriKnown(m *servers.Manager, server, uri string) int {
	known := unknownURI
	for _, r := range m.Resources() {
		if r.Server == server && r.Resource.URI == uri {
			return listedURI
		}
	}
	for _, t := range m.Templates() {
		if t.Server == server && templateMatches(t.Template.URITemplate, uri) {
			known = fitsURI
		}
	}
	return known
}

// findServer decides which server a resource is read from: server when
// given (it must be configured), else as ReadResource says.
func findServer(m *servers.Manager, server, uri string) (string, error) {
	if server != "" {
		for _, st := range m.Status() {
			if st.Name == server {
				return server, nil
			}
		}
		return "", fmt.Errorf("no server %q has resources", server)
	}
	with := map[string]bool{}
	for _, r := range m.Resources() {
		if r.Resource.URI == uri {
			return r.Server, nil
		}
		with[r.Server] = true
	}
	var fits []string
	for _, t := range m.Templates() {
		with[t.Server] = true
		if templateMatches(t.Template.URITemplate, uri) && !slices.Contains(fits, t.Server) {
			fits = append(fits, t.Server)
		}
	}
	switch {
	case len(fits) == 1:
		return fits[0], nil
	case len(fits) > 1:
		return "", fmt.Errorf("resource %q fits the templates of servers %s: name one, as SERVER:URI", uri, strings.Join(fits, ", "))
	case len(with) == 1:
		for s := range with {
			return s, nil
		}
	case len(with) == 0:
		return "", fmt.Errorf("no server has resources, so %q cannot be read", uri)
	}
	return "", fmt.Errorf("no server lists resource %q: name the server, as SERVER:URI", uri)
}

// templateMatches reports whether uri fits an RFC 6570 URI template: a
// {var} stands for one path segment or more characters, {+var} and the
// other operators for anything.
func templateMatches(template, uri string) bool {
	var re strings.Builder
	re.WriteString("^")
	for rest := template; rest != ""; {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			re.WriteString(regexp.QuoteMeta(rest))
			break
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			re.WriteString(regexp.QuoteMeta(rest))
			break
		}
		re.WriteString(regexp.QuoteMeta(rest[:open]))
		expr := rest[open+1 : open+end]
		if expr != "" && strings.ContainsRune("+#./;?&", rune(expr[0])) {
			re.WriteString(".*")
		} else {
			re.WriteString("[^/]+")
		}
		rest = rest[open+end+1:]
	}
	re.WriteString("$")
	ok, err := regexp.MatchString(re.String(), uri)
	return err == nil && ok
}

// Attachment is one resource attached to a message with "@SERVER:URI",
// or one file attached with "@path" (File set, Server and URI empty).
type Attachment struct {
	Server, URI, MIMEType string
	// File is the attached file's path as the prompt wrote it.
	File string
	// Kind is "text" (inline in the message), "image" (attached for a
	// vision model, described otherwise) or "binary" (described).
	Kind  string
	Bytes int
}

// attachRef finds "@SERVER:URI" in a prompt: at the start or after a
// space, up to the next space.
var attachRef = regexp.MustCompile(`(^|\s)@([A-Za-z0-9_.\-]+):(\S+)`)

// UserMessage is the user's message for text, with the resources it
// names as "@SERVER:URI" (SERVER a configured server) read and attached:
// text inline after the prompt, with a header naming it; images for a
// vision model; other content as a one-line description. A resource that
// cannot be read is an error naming it. Files named "@path" (./x, dir/x,
// /x, ~/x, or a bare name that exists) are attached too: text under a
// "File: path" header in a fenced block, images for a vision model; a
// missing, binary or too large file is an error wrapping [ErrAttachment].
// Relative paths are taken from the working directory.
func (c *Conversation) UserMessage(ctx context.Context, text string) (provider.Message, []Attachment, error) {
	return c.UserMessageFiles(ctx, text, text)
}

// UserMessageFiles is [Conversation.UserMessage] for a text of which only
// typed is the user's own (a -p prompt before piped input, say): files and
// resources are attached only where typed names them, so that text from
// elsewhere (piped input, a file's content) can neither send the user's
// files to the model nor have a server's resources read.
func (c *Conversation) UserMessageFiles(ctx context.Context, text, typed string) (provider.Message, []Attachment, error) {
	msg := provider.Message{Role: provider.RoleUser, Content: text}
	known := map[string]bool{}
	for _, st := range c.h.manager.Status() {
		known[st.Name] = true
	}
	vision := c.Model().Has(provider.CapabilityVision)
	var parts []string
	var atts []Attachment
	for _, m := range attachRef.FindAllStringSubmatch(typed, -1) {
		server, uri := m[2], strings.TrimRight(m[3], ".,;!?'\"")
		if !known[server] {
			continue
		}
		contents, err := c.h.readResource(ctx, server, uri)
		if err != nil {
			return msg, nil, fmt.Errorf("attaching @%s:%s: %w", server, uri, err)
		}
		for _, ct := range contents {
			a := Attachment{Server: server, URI: cmpOr(ct.URI, uri), MIMEType: ct.MIMEType, Bytes: len(ct.Text) + len(ct.Data)}
			name := a.Server + ":" + a.URI
			switch {
			case ct.Data == nil:
				a.Kind = "text"
				parts = append(parts, fmt.Sprintf("--- resource %s (%s) ---\n%s\n--- end of %s ---", name, cmpOr(ct.MIMEType, "text"), ct.Text, name))
			case strings.HasPrefix(ct.MIMEType, "image/") && vision:
				a.Kind = "image"
				msg.Images = append(msg.Images, ct.Data)
				parts = append(parts, fmt.Sprintf("[resource %s: image %s, %s, attached]", name, ct.MIMEType, termtext.Bytes(len(ct.Data))))
			case strings.HasPrefix(ct.MIMEType, "image/"):
				a.Kind = "image"
				parts = append(parts, fmt.Sprintf("[resource %s: image %s, %s: not shown, this model cannot see images]", name, ct.MIMEType, termtext.Bytes(len(ct.Data))))
			default:
				a.Kind = "binary"
				parts = append(parts, fmt.Sprintf("[resource %s: %s, %s: binary, not shown]", name, cmpOr(ct.MIMEType, "unknown type"), termtext.Bytes(len(ct.Data))))
			}
			atts = append(atts, a)
		}
	}
	// Files named "@path": every word that is not a server's resource.
	home, _ := os.UserHomeDir()
	refs, err := fileRefs(typed, home, func(word string) bool {
		server, _, ok := strings.Cut(word, ":")
		return ok && known[server]
	})
	if err != nil {
		return msg, nil, err
	}
	for _, ref := range refs {
		f, err := readFileRef(ref, vision)
		if err != nil {
			return msg, nil, err
		}
		parts = append(parts, f.part)
		if f.image != nil {
			msg.Images = append(msg.Images, f.image)
		}
		atts = append(atts, f.att)
	}
	if len(parts) > 0 {
		msg.Content = text + "\n\n" + strings.Join(parts, "\n\n")
	}
	return msg, atts, nil
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// PromptMessages turns a prompt's messages into the conversation's:
// text as it is, embedded resources inline with a header naming them,
// images attached for a vision model and described otherwise.
func PromptMessages(res *tool.PromptResult, vision bool) []provider.Message {
	var out []provider.Message
	for _, pm := range res.Messages {
		role := provider.RoleUser
		if pm.Role == "assistant" {
			role = provider.RoleAssistant
		}
		msg := provider.Message{Role: role}
		c := pm.Content
		switch {
		case c.Kind == tool.Image && vision:
			msg.Images = [][]byte{c.Data}
			msg.Content = fmt.Sprintf("[image %s, %s, attached]", c.MIMEType, termtext.Bytes(len(c.Data)))
		case c.Kind == tool.Resource && c.Text != "":
			msg.Content = fmt.Sprintf("--- resource %s (%s) ---\n%s\n--- end of %s ---", c.URI, cmpOr(c.MIMEType, "text"), c.Text, c.URI)
		default:
			msg.Content = c.Describe()
		}
		out = append(out, msg)
	}
	return out
}

// RunPrompt fills in an MCP prompt (by any name ResolvePrompt accepts)
// with args, adds its messages to the conversation, and more as one more
// user message when not empty, and runs the turn.
func (c *Conversation) RunPrompt(ctx context.Context, name string, args map[string]string, more string, on func(Event)) (Result, error) {
	return c.RunPromptFiles(ctx, name, args, more, more, on)
}

// RunPromptFiles is [Conversation.RunPrompt] for a more of which only typed
// is the user's own: only what typed names is attached (see
// [Conversation.UserMessageFiles]).
func (c *Conversation) RunPromptFiles(ctx context.Context, name string, args map[string]string, more, typed string, on func(Event)) (Result, error) {
	if !c.HasModel() {
		return Result{}, ErrNoModel
	}
	res, err := c.h.GetPrompt(ctx, name, args)
	if err != nil {
		return Result{}, err
	}
	msgs := PromptMessages(res, c.Model().Has(provider.CapabilityVision))
	if strings.TrimSpace(more) != "" {
		msg, _, err := c.UserMessageFiles(ctx, more, typed)
		if err != nil {
			return Result{}, err
		}
		msgs = append(msgs, msg)
	}
	if len(msgs) == 0 {
		return Result{}, fmt.Errorf("prompt %s has no messages", name)
	}
	return c.PromptMessages(ctx, msgs, on)
}

// SetRoots changes the directories a server is offered as its roots (MCP
// roots) and tells it; a server that had none is restarted to learn that
// the client has roots.
func (h *Host) SetRoots(ctx context.Context, server string, dirs []string) error {
	return h.serverWork(ctx, func(ctx context.Context) error { return h.manager.SetRoots(ctx, server, dirs) })
}

// Roots returns the directories a server is offered as its roots.
func (h *Host) Roots(server string) []string { return h.manager.Roots(server) }

// SetOnChange makes f hear of the changes of servers' lists from now on;
// nil stops it.
func (h *Host) SetOnChange(f func(ListChange)) {
	h.onChange.Store(&f)
}

// changed is the manager's OnChange: whoever listens now.
func (h *Host) changed(c servers.Change) {
	if f := h.onChange.Load(); f != nil && *f != nil {
		(*f)(ListChange(c))
	}
}
