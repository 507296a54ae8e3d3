package chat

// MCP in the chat beyond tools: /prompts and /prompt (Tab completes names
// and, through the server's completion/complete, argument values),
// /resources and @SERVER:URI attachments (Tab completes URIs), the
// question a server's sampling request asks, the wait for a URL
// elicitation to complete, and what changed when a server's lists change.

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/shellwords"
	"github.com/mcphost/mcphost/internal/termtext"
	"github.com/mcphost/mcphost/internal/ui"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/tool"
)

// MCP is what the chat uses of the servers' prompts and resources;
// *host.Host implements it. A Host that does not leaves those commands
// saying so.
type MCP interface {
	WaitStarting(ctx context.Context)
	Prompts() []host.PromptInfo
	ResolvePrompt(name string) (string, error)
	CompletePrompt(ctx context.Context, name, arg, value string, known map[string]string) (tool.Completion, error)
	Resources() []host.ResourceInfo
	ResourceTemplates() []host.TemplateInfo
	CompleteResource(ctx context.Context, server, template, variable, value string, known map[string]string) (tool.Completion, error)
}

// completeWait bounds a completion/complete request made for Tab.
const completeWait = 2 * time.Second

func (c *Chat) mcp() (MCP, bool) {
	m, ok := c.opts.Host.(MCP)
	return m, ok
}

// send runs a prompt with the resources it names attached.
func (c *Chat) send(ctx context.Context, prompt string, on func(host.Event)) (host.Result, error) {
	conv := c.opts.Conversation
	msg, atts, err := conv.UserMessage(ctx, prompt)
	if err != nil {
		return host.Result{}, err
	}
	for _, a := range atts {
		name := a.Server + ":" + a.URI
		if a.File != "" {
			name = a.File
		}
		fmt.Fprintf(c.opts.Err, "  attached %s (%s, %s)\n", ui.Sanitize(name), a.Kind, termtext.Bytes(a.Bytes))
	}
	return conv.PromptMessages(ctx, []provider.Message{msg}, on)
}

func (c *Chat) cmdPrompts(ctx context.Context, w io.Writer, args []string) bool {
	m, ok := c.mcp()
	if !ok {
		fmt.Fprintln(w, "No prompts here.")
		return false
	}
	c.waitLists(ctx, m, w, "prompts")
	prompts := m.Prompts()
	if len(args) > 0 {
		prompts = slices.DeleteFunc(prompts, func(p host.PromptInfo) bool { return p.Server != args[0] })
	}
	ui.FitOutput(w, c.opts.Width(), func(w io.Writer) { ui.PromptList(w, prompts) })
	if len(prompts) > 0 {
		fmt.Fprintln(w, "\n/prompt NAME ARG=VALUE … adds one to the conversation (Tab completes).")
	}
	return false
}

func (c *Chat) cmdPrompt(ctx context.Context, w io.Writer, args []string) bool {
	if len(args) == 0 {
		fmt.Fprintln(w, "usage: /prompt NAME [ARG=VALUE ...] (/prompts lists them; quote a value with spaces: city=\"New York\")")
		return false
	}
	// Values may be quoted as in a shell: the fields were split on spaces.
	words, err := shellwords.Split(strings.Join(args[1:], " "))
	if err != nil {
		fmt.Fprintf(w, "%s\n", ui.Sanitize(err.Error()))
		return false
	}
	values := map[string]string{}
	for _, a := range words {
		name, value, ok := strings.Cut(a, "=")
		if !ok || name == "" {
			fmt.Fprintf(w, "%q: give each argument as NAME=VALUE\n", a)
			return false
		}
		values[name] = value
	}
	c.turnWith(ctx, func(ctx context.Context, on func(host.Event)) (host.Result, error) {
		return c.opts.Conversation.RunPrompt(ctx, args[0], values, "", on)
	})
	return false
}

func (c *Chat) cmdResources(ctx context.Context, w io.Writer, args []string) bool {
	m, ok := c.mcp()
	if !ok {
		fmt.Fprintln(w, "No resources here.")
		return false
	}
	c.waitLists(ctx, m, w, "resources")
	rs, ts := m.Resources(), m.ResourceTemplates()
	if len(args) > 0 {
		rs = slices.DeleteFunc(rs, func(r host.ResourceInfo) bool { return r.Server != args[0] })
		ts = slices.DeleteFunc(ts, func(t host.TemplateInfo) bool { return t.Server != args[0] })
	}
	ui.FitOutput(w, c.opts.Width(), func(w io.Writer) { ui.ResourceList(w, rs, ts) })
	if len(rs)+len(ts) > 0 {
		fmt.Fprintln(w, "\n@SERVER:URI in a prompt attaches a resource (Tab completes).")
	}
	return false
}

// waitLists waits for the servers still starting, no longer than the
// server wait, so that a list shows their prompts or resources (what) too;
// a server still starting then is named, not waited for: a hung server
// must not hold the chat.
func (c *Chat) waitLists(ctx context.Context, m MCP, w io.Writer, what string) {
	wctx, cancel := context.WithTimeout(ctx, max(c.opts.ServerWait, 0))
	m.WaitStarting(wctx)
	cancel()
	if ctx.Err() != nil || wctx.Err() == nil {
		return // all known (a server starting from its cached lists is)
	}
	var starting []string
	for _, s := range c.opts.Host.Servers() {
		if s.State == host.StateStarting && !s.Cached {
			starting = append(starting, termtext.Line(s.Name))
		}
	}
	if len(starting) > 0 {
		fmt.Fprintf(w, "(still starting, so not listed yet: %s; /%s again once /servers says it is ready)\n", strings.Join(starting, ", "), what)
	}
}

// completeMCP completes "/prompt NAME ARG=VALUE" and a trailing
// "@SERVER:URI"; ok is false for other input.
func (c *Chat) completeMCP(input string) (out []string, ok bool) {
	m, has := c.mcp()
	if !has || strings.Contains(input, "\n") {
		return nil, false
	}
	fields := strings.Fields(input)
	trailing := input == "" || strings.HasSuffix(input, " ")
	word := ""
	if !trailing && len(fields) > 0 {
		word = fields[len(fields)-1]
		fields = fields[:len(fields)-1]
	}
	prefix := strings.Join(fields, " ")
	if prefix != "" {
		prefix += " "
	}
	prompting := len(fields) > 0 && fields[0] == "/prompt"
	if !prompting && (!strings.HasPrefix(word, "@") || strings.HasPrefix(input, "/")) {
		return nil, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), completeWait)
	defer cancel()
	m.WaitStarting(ctx)
	if prompting {
		return withPrefix(prefix, c.completePrompt(m, fields[1:], word)), true
	}
	return withPrefix(prefix, completeResource(m, word)), true
}

// completePrompt proposes a prompt name, an argument name, or (through
// the server) an argument's value.
func (c *Chat) completePrompt(m MCP, given []string, word string) []string {
	prompts := m.Prompts()
	if len(given) == 0 {
		var out []string
		for _, p := range prompts {
			out = append(out, p.Name)
		}
		return startingWith(out, word)
	}
	name, err := m.ResolvePrompt(given[0])
	if err != nil {
		return nil
	}
	var prompt tool.Prompt
	for _, p := range prompts {
		if p.Name == name {
			prompt = p.Prompt
		}
	}
	known := map[string]string{}
	for _, g := range given[1:] {
		if k, v, ok := strings.Cut(g, "="); ok {
			known[k] = v
		}
	}
	arg, value, typingValue := strings.Cut(word, "=")
	if !typingValue {
		var out []string
		for _, a := range prompt.Arguments {
			if _, done := known[a.Name]; !done {
				out = append(out, a.Name+"=")
			}
		}
		return startingWith(out, word)
	}
	ctx, cancel := context.WithTimeout(context.Background(), completeWait)
	defer cancel()
	comp, err := m.CompletePrompt(ctx, name, arg, value, known)
	if err != nil {
		return nil
	}
	var out []string
	for _, v := range comp.Values {
		if !strings.ContainsAny(v, " \t\n") {
			out = append(out, arg+"="+v)
		}
	}
	return out
}

// completeResource proposes "@server:" and then the server's resource
// URIs, its URI templates, and values for a template's first variable.
func completeResource(m MCP, word string) []string {
	typed := strings.TrimPrefix(word, "@")
	server, uri, hasServer := strings.Cut(typed, ":")
	rs, ts := m.Resources(), m.ResourceTemplates()
	if !hasServer {
		var out []string
		for _, r := range rs {
			out = append(out, "@"+r.Server+":")
		}
		for _, t := range ts {
			out = append(out, "@"+t.Server+":")
		}
		return startingWith(out, word)
	}
	var out []string
	for _, r := range rs {
		if r.Server == server {
			out = append(out, "@"+server+":"+r.Resource.URI)
		}
	}
	for _, t := range ts {
		if t.Server != server {
			continue
		}
		tmpl := t.Template.URITemplate
		out = append(out, "@"+server+":"+tmpl)
		open := strings.IndexByte(tmpl, '{')
		end := strings.IndexByte(tmpl, '}')
		if open < 0 || end < open || !strings.HasPrefix(uri, tmpl[:open]) || strings.ContainsAny(uri[open:], "/?#") {
			continue
		}
		// The URI so far fits the template up to its first variable: the
		// server may know its values.
		variable := strings.TrimLeft(tmpl[open+1:end], "+#./;?&")
		ctx, cancel := context.WithTimeout(context.Background(), completeWait)
		comp, err := m.CompleteResource(ctx, server, tmpl, variable, uri[open:], nil)
		cancel()
		if err != nil {
			continue
		}
		for _, v := range comp.Values {
			out = append(out, "@"+server+":"+tmpl[:open]+v+tmpl[end+1:])
		}
	}
	return startingWith(out, word)
}

func startingWith(pool []string, word string) []string {
	var out []string
	for _, p := range pool {
		if strings.HasPrefix(p, word) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

func withPrefix(prefix string, words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = prefix + w
	}
	return out
}

// ApproveSampling asks the user whether a server may have the model
// answer it (MCP sampling): it shows which server asks (and during which
// of its tool calls, when one runs), its system prompt,
// its messages and its token limit, and takes y or n. Ctrl-C refuses.
// It is the chat's answer to ask.Asker's sampling question.
func (c *Chat) ApproveSampling(ctx context.Context, req ask.SamplingRequest) (bool, error) {
	w := c.opts.Err
	who := "a server"
	if req.Server != "" {
		who = "server " + termtext.Reveal(req.Server)
	}
	c.mu.Lock()
	inTurn := c.turnOut != nil
	c.mu.Unlock()
	if !inTurn {
		// The line editor owns the keyboard: no question can be asked.
		c.notice(fmt.Sprintf("%s asked the model for a completion (%s) outside a turn; refused", who, req.Summary(60)))
		return false, nil
	}
	// The screen and the keys are the question's until it is answered:
	// not another question's, nor typed ahead.
	done, err := c.question(ctx)
	if err != nil {
		return false, err
	}
	defer func() {
		c.resumeTurn()
		done()
	}()
	who += c.during(req.Server)
	limit := ""
	if req.MaxTokens > 0 {
		limit = fmt.Sprintf(", at most %d tokens", req.MaxTokens)
	}
	fmt.Fprintf(w, "\n%s\n", c.style().Question(fmt.Sprintf("? %s asks the model for a completion%s:", who, limit)))
	if req.SystemPrompt != "" {
		fmt.Fprintf(w, "    system: %s\n", termtext.RevealText(ui.Preview(req.SystemPrompt, c.opts.Width()-14)))
	}
	for _, m := range req.Messages {
		for _, ct := range m.Content {
			text := ct.Describe()
			fmt.Fprintf(w, "%s\n", indent(c.formatArguments(map[string]any{m.Role: text}, askRows), "    "))
		}
	}
	fmt.Fprintf(w, "  %s: [y] let the model answer  [n/Esc] refuse: ", who)
	for {
		key, err := c.readKey(ctx)
		if err != nil {
			fmt.Fprintln(w)
			return false, err
		}
		switch key {
		case 'y', 'Y':
			fmt.Fprintln(w, "yes")
			return true, nil
		case 'n', 'N', 3, escKey:
			fmt.Fprintln(w, "refused")
			return false, nil
		}
	}
}

// OnChange tells the user what changed when a server's tools, prompts or
// resources changed: at once during a turn, else before the next prompt.
func (c *Chat) OnChange(ch host.ListChange) {
	var parts []string
	if len(ch.Added) > 0 {
		parts = append(parts, "new "+ch.Kind+": "+termtext.Line(strings.Join(ch.Added, ", ")))
	}
	if len(ch.Removed) > 0 {
		parts = append(parts, "gone: "+termtext.Line(strings.Join(ch.Removed, ", ")))
	}
	if len(parts) == 0 {
		return
	}
	c.notice(fmt.Sprintf("server %s changed its %s: %s", termtext.Line(ch.Server), ch.Kind, strings.Join(parts, "; ")))
}

// awaitURL waits, in the background, for the server to say the URL flow
// the user agreed to is done, and says so.
func (c *Chat) awaitURL(req ask.FormRequest) {
	if req.Completed == nil {
		return
	}
	who := "the server"
	if req.Server != "" {
		who = "server " + termtext.Line(req.Server)
	}
	fmt.Fprintf(c.opts.Err, "  waiting for %s to say it is done (you can go on meanwhile)\n", who)
	go func() {
		<-req.Completed
		c.notice(fmt.Sprintf("%s says the flow at %s is done", who, termtext.Line(req.URL)))
	}()
}

// notice shows news from a server: at once while a turn runs (its output
// is plain lines), else queued for before the next prompt, since the line
// editor owns the screen.
func (c *Chat) notice(msg string) {
	c.mu.Lock()
	var editor *tea.Program
	switch {
	case c.turnOut != nil:
		out, wait := c.turnOut, c.turnWait
		show := func() { fmt.Fprintf(c.opts.Err, "· %s\n", msg) }
		out.Interrupt(func() {
			// The line of servers still starting is cleared first too,
			// and drawn again below the notice if it still has news.
			if wait != nil {
				wait.line.Interrupt(show)
				return
			}
			show()
		})
	case c.editor != nil:
		editor = c.editor
	default:
		c.notices = append(c.notices, msg)
	}
	c.mu.Unlock()
	if editor != nil {
		// Send gives up once the editor has ended.
		editor.Send(noticeMsg("· " + msg))
	}
}

// editing makes notices go through the line editor p, whose model is ed,
// until the returned function is called. Notices queued since the last
// flush (news that came while the prompt was being set up) start ed's
// frame: otherwise they would wait, unseen, for the next prompt.
func (c *Chat) editing(p *tea.Program, ed *editor) func() {
	c.mu.Lock()
	c.editor = p
	for _, n := range c.notices {
		ed.notices = append(ed.notices, "· "+n)
	}
	c.notices = nil
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		c.editor = nil
		c.mu.Unlock()
	}
}

// flushNotices shows the queued notices.
func (c *Chat) flushNotices() {
	c.mu.Lock()
	notes := c.notices
	c.notices = nil
	c.mu.Unlock()
	for _, n := range notes {
		fmt.Fprintf(c.opts.Err, "· %s\n", n)
	}
}
