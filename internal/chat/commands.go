package chat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/termtext"
	"github.com/mcphost/mcphost/internal/ui"
	"github.com/mcphost/mcphost/provider"
)

// command is one slash command.
type command struct {
	name, args, help string
	run              func(c *Chat, ctx context.Context, w io.Writer, args []string) (quit bool)
}

// commands returns the slash commands in the order /help lists them.
// /mcp's subcommands are in mcpCommands.
func commands() []command {
	return []command{
		{"/help", "", "this help", (*Chat).cmdHelp},
		{"/tools", "[SERVER|TOOL]", "the tools, by server (✓ those the last turn offered, when not all); one tool in full", (*Chat).cmdTools},
		{"/servers", "", "the MCP servers and their state (also /mcp)", (*Chat).cmdServers},
		{"/mcp", "[restart|logs|disable|enable|login NAME]", "control an MCP server; login signs in to one", (*Chat).cmdMCP},
		{"/prompts", "[SERVER]", "the servers' prompts and their arguments", (*Chat).cmdPrompts},
		{"/prompt", "NAME [ARG=VALUE ...]", "add a server's prompt to the conversation and run it", (*Chat).cmdPrompt},
		{"/resources", "[SERVER]", "the servers' resources; @SERVER:URI in a prompt attaches one", (*Chat).cmdResources},
		{"/model", "[NAME]", "list the models, or switch to NAME; the conversation stays", (*Chat).cmdModel},
		{"/think", "[on|off|default]", "ask the model to think or not (--think)", (*Chat).cmdThink},
		{"/thinking", "", "the last turn's thinking in full (collapsed once the answer comes)", (*Chat).cmdThinking},
		{"/results", "", "the full results of the last turn's tool calls", (*Chat).cmdResults},
		{"/history", "", "the conversation so far", (*Chat).cmdHistory},
		{"/clear", "", "start a new conversation (with --session, in a new file)", (*Chat).cmdClear},
		{"/save", "FILE", "save the conversation (JSON: model and messages)", (*Chat).cmdSave},
		{"/load", "FILE", "load a saved conversation (with --session, later turns go to FILE)", (*Chat).cmdLoad},
		{"/sessions", "", "the saved conversations that can be resumed", (*Chat).cmdSessions},
		{"/usage", "", "tokens of the session and of the last turn", (*Chat).cmdUsage},
		{"/copy", "", "copy the last answer to the clipboard (OSC 52)", (*Chat).cmdCopy},
		{"/retry", "", "run the last prompt again, dropping its answer", (*Chat).cmdRetry},
		{"/undo", "", "drop the last turn: the prompt and all after it", (*Chat).cmdUndo},
		{"/compact", "[TURNS]", "have the model summarise older turns to free the window", (*Chat).cmdCompact},
		{"/quit", "", "leave (also /exit, Ctrl-D)", func(*Chat, context.Context, io.Writer, []string) bool { return true }},
	}
}

// mcpCommands are the subcommands of /mcp.
func mcpCommands() []string { return []string{"restart", "logs", "disable", "enable", "login"} }

// aliasOf maps other names to commands.
func aliasOf(name string) string {
	switch name {
	case "/exit", "/q":
		return "/quit"
	case "/?":
		return "/help"
	case "/mcp-servers":
		return "/servers"
	}
	return name
}

func isCommand(line string) bool {
	return strings.HasPrefix(line, "/") && !strings.HasPrefix(line, "//")
}

func findCommand(name string) (command, bool) {
	name = aliasOf(name)
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// Command runs a slash command, writing its output to the chat's Out. It
// reports whether the chat should end.
func (c *Chat) Command(ctx context.Context, line string) (quit bool) {
	fields := strings.Fields(line)
	cmd, ok := findCommand(fields[0])
	if !ok {
		fmt.Fprintf(c.opts.Out, "unknown command %s: /help lists the commands\n", fields[0])
		return false
	}
	return cmd.run(c, ctx, c.opts.Out, fields[1:])
}

func (c *Chat) cmdHelp(_ context.Context, w io.Writer, _ []string) bool {
	writeHelp(w, commands(), c.opts.Width())
	return false
}

// tools lists the tools the model sees.
func (c *Chat) tools() []host.ToolInfo {
	if c.opts.Host == nil {
		return nil
	}
	return c.opts.Host.Tools()
}

func (c *Chat) cmdTools(_ context.Context, w io.Writer, args []string) bool {
	statuses := c.statuses()
	if len(args) > 0 && !slices.ContainsFunc(statuses, func(s host.ServerInfo) bool { return s.Name == args[0] }) {
		if !c.describeTool(w, args[0]) {
			fmt.Fprintf(w, "no server or tool %q: /tools lists them\n", args[0])
		}
		return false
	}
	only := ""
	if len(args) > 0 {
		only = args[0]
	}
	offered := c.lastOffered(w)
	ui.ToolSummary(w, statuses, c.tools(), c.opts.Conversation.ToolTokens(), only, offered, c.opts.Width())
	return false
}

// describeTool prints one tool in full: its description and arguments.
// name is the exposed name or the server's own tool name.
func (c *Chat) describeTool(w io.Writer, name string) bool {
	found := false
	for _, t := range c.tools() {
		if t.Name != name && t.Def.Name != name {
			continue
		}
		if found {
			fmt.Fprintln(w)
		}
		found = true
		ui.ToolDetail(w, t)
	}
	return found
}

func (c *Chat) statuses() []host.ServerInfo {
	if c.opts.Host == nil {
		return nil
	}
	return c.opts.Host.Servers()
}

func (c *Chat) cmdServers(_ context.Context, w io.Writer, _ []string) bool {
	statuses := c.statuses()
	if len(statuses) == 0 {
		fmt.Fprintln(w, "No MCP servers are configured.")
		return false
	}
	ui.ServerTableFit(w, statuses, true, c.opts.Mask, c.opts.Width())
	return false
}

func (c *Chat) cmdMCP(ctx context.Context, w io.Writer, args []string) bool {
	if len(args) == 0 {
		return c.cmdServers(ctx, w, nil)
	}
	if !slices.Contains(mcpCommands(), args[0]) {
		fmt.Fprintf(w, "unknown /mcp command %q: use /mcp restart|logs|disable|enable|login NAME\n", args[0])
		return false
	}
	if len(args) < 2 {
		fmt.Fprintf(w, "which server? /mcp %s NAME (/servers lists them)\n", args[0])
		return false
	}
	name := args[1]
	if !slices.ContainsFunc(c.statuses(), func(s host.ServerInfo) bool { return s.Name == name }) {
		fmt.Fprintf(w, "no server %q: /servers lists them\n", name)
		return false
	}
	if args[0] == "login" {
		return c.mcpLogin(ctx, w, name)
	}
	var err error
	switch args[0] {
	case "logs":
		lines := c.opts.Host.ServerLogs(name)
		if len(lines) == 0 {
			fmt.Fprintf(w, "%s has written nothing to stderr.\n", name)
		}
		for _, l := range lines {
			fmt.Fprintln(w, ui.Sanitize(l))
		}
		return false
	case "restart":
		fmt.Fprintf(w, "restarting %s…\n", name)
		err = c.opts.Host.RestartServer(ctx, name)
	case "disable":
		err = c.opts.Host.DisableServer(name)
	case "enable":
		err = c.opts.Host.EnableServer(ctx, name)
	}
	if err != nil {
		fmt.Fprintf(w, "%s %s: %s\n", args[0], name, ui.Sanitize(err.Error()))
		return false
	}
	tools := 0
	for _, t := range c.tools() {
		if t.Server == name {
			tools++
		}
	}
	switch args[0] {
	case "disable":
		fmt.Fprintf(w, "%s disabled: the model no longer sees its tools.\n", name)
	default:
		fmt.Fprintf(w, "%s is ready: %d tools.\n", name, tools)
	}
	return false
}

func (c *Chat) cmdModel(ctx context.Context, w io.Writer, args []string) bool {
	conv := c.opts.Conversation
	if len(args) == 0 {
		return c.listModels(ctx, w)
	}
	// A prefix ParseModel takes for a slip may be an engine the config
	// names, which only the Host knows: SetModel says which it is.
	if _, _, err := provider.ParseModel(args[0]); err != nil && !errors.Is(err, provider.ErrUnknownEngine) {
		fmt.Fprintln(w, err)
		return false
	}
	first := !conv.HasModel()
	info, err := conv.SetModel(ctx, args[0])
	if errors.Is(err, host.ErrModelNotFound) {
		fmt.Fprintln(w, ui.Sanitize(err.Error()))
		c.suggestModels(ctx, w, args[0])
		if !c.offerPull(ctx, w, args[0]) {
			fmt.Fprintf(w, "%s.\n", upperFirst(c.stillUsing()))
			return false
		}
		info, err = conv.SetModel(ctx, args[0])
	}
	if err != nil {
		fmt.Fprintf(w, "%s; %s.\n", ui.Sanitize(err.Error()), c.stillUsing())
		return false
	}
	name := info.Name
	if first {
		fmt.Fprintf(w, "model: %s (the chat goes on with it)\n", name)
	} else {
		fmt.Fprintf(w, "model: %s (the conversation goes on)\n", name)
	}
	if !info.Has(provider.CapabilityTools) {
		fmt.Fprintf(w, "warning: %s does not support tools: it answers without them\n", name)
	}
	return false
}

func (c *Chat) cmdResults(_ context.Context, w io.Writer, _ []string) bool {
	if len(c.lastCalls) == 0 {
		fmt.Fprintln(w, "The last turn called no tools.")
		return false
	}
	for i, call := range c.lastCalls {
		fmt.Fprintf(w, "%d. %s\n%s\n\n", i+1, ui.ToolLine(call), ui.Sanitize(call.Output))
	}
	return false
}

func (c *Chat) cmdHistory(_ context.Context, w io.Writer, _ []string) bool {
	msgs := c.opts.Conversation.History()
	if len(msgs) == 0 {
		fmt.Fprintln(w, "The conversation is empty.")
	}
	for _, m := range msgs {
		switch {
		case m.Role == provider.RoleTool:
			fmt.Fprintf(w, "  tool %s: %s\n", m.ToolName, ui.Preview(m.Content, 80))
		case len(m.ToolCalls) > 0:
			var names []string
			for _, tc := range m.ToolCalls {
				names = append(names, tc.Name)
			}
			fmt.Fprintf(w, "assistant: [calls %s] %s\n", strings.Join(names, ", "), ui.Preview(m.Content, 60))
		case m.Role == provider.RoleUser:
			fmt.Fprintf(w, "you: %s\n", ui.Preview(m.Content, 100))
		default:
			fmt.Fprintf(w, "%s: %s\n", m.Role, previewAnswer(m.Content, 100))
		}
	}
	return false
}

func (c *Chat) cmdSave(_ context.Context, w io.Writer, args []string) bool {
	if len(args) != 1 {
		fmt.Fprintln(w, "usage: /save FILE")
		return false
	}
	conv := c.opts.Conversation
	save := conv.Save
	held := c.opts.Session
	if held != nil && samePath(held.Path(), args[0]) {
		// This chat holds that file: taking its lock again would wait for
		// ourselves.
		save = func(string) error { return held.Save(conv.Model().Name, conv.History()) }
	}
	if err := save(args[0]); err != nil {
		fmt.Fprintln(w, ui.Sanitize(err.Error()))
		return false
	}
	fmt.Fprintf(w, "Saved %d messages to %s.\n", len(conv.History()), args[0])
	if held != nil && !samePath(held.Path(), args[0]) {
		fmt.Fprintf(w, "Later turns are still saved to %s.\n", held.Path())
	}
	return false
}

func (c *Chat) cmdUsage(_ context.Context, w io.Writer, _ []string) bool {
	fmt.Fprintf(w, "last turn: %d prompt + %d completion tokens\nsession:   %d prompt + %d completion tokens\n",
		c.usageLast.PromptTokens, c.usageLast.CompletionTokens, c.usageTotal.PromptTokens, c.usageTotal.CompletionTokens)
	return false
}

// Complete returns the completions of a partly typed input: command names,
// /mcp subcommands, server names and tool names, @SERVER:URI resources and
// @path files.
func (c *Chat) Complete(input string) []string {
	home, _ := os.UserHomeDir()
	paths := completeAtPath(input, home)
	if out, ok := c.completeMCP(input); ok {
		return append(out, paths...)
	}
	if paths != nil {
		return paths
	}
	if !strings.HasPrefix(input, "/") {
		return c.completeToolName(input)
	}
	if strings.Contains(input, "\n") {
		return nil
	}
	fields := strings.Fields(input)
	trailing := strings.HasSuffix(input, " ")
	word := ""
	if !trailing && len(fields) > 0 {
		word = fields[len(fields)-1]
		fields = fields[:len(fields)-1]
	}
	var pool []string
	switch {
	case len(fields) == 0:
		for _, cmd := range commands() {
			pool = append(pool, cmd.name)
		}
	case fields[0] == "/mcp" && len(fields) == 1:
		pool = mcpCommands()
	case fields[0] == "/mcp" && len(fields) == 2, fields[0] == "/tools" && len(fields) == 1:
		for _, s := range c.statuses() {
			pool = append(pool, s.Name)
		}
		if fields[0] == "/tools" {
			for _, t := range c.tools() {
				pool = append(pool, t.Def.Name)
			}
		}
	default:
		pool = c.argCompletions(fields)
	}
	prefix := strings.Join(fields, " ")
	if prefix != "" {
		prefix += " "
	}
	var out []string
	for _, p := range pool {
		if strings.HasPrefix(p, word) {
			out = append(out, prefix+p)
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

func (c *Chat) serversLine() string {
	ready, starting, total := 0, 0, 0
	for _, s := range c.statuses() {
		total++
		switch s.State {
		case host.StateReady:
			ready++
		case host.StateStarting:
			starting++
		}
	}
	// Servers start in the background; saying so keeps "0/1 ready" from
	// reading as a failure while they are still on their way.
	line := fmt.Sprintf("%d/%d servers ready, %d tools", ready, total, len(c.tools()))
	if starting > 0 {
		line = fmt.Sprintf("%d/%d servers ready (%d starting), %d tools", ready, total, starting, len(c.tools()))
	}
	if names := c.needSignIn(); len(names) > 0 {
		line += fmt.Sprintf(" · %s needs a sign-in: /mcp login %s", strings.Join(names, ", "), names[0])
	}
	return line
}

// needSignIn names the servers that did not start for want of an OAuth
// sign-in, which /mcp login gives them.
func (c *Chat) needSignIn() []string {
	var names []string
	for _, s := range c.statuses() {
		if s.State != host.StateReady && (errors.Is(s.Err, host.ErrSignIn) || errors.Is(s.StartErr, host.ErrSignIn)) {
			names = append(names, termtext.Line(s.Name))
		}
	}
	return names
}

// samePath reports whether a and b name the same file.
func samePath(a, b string) bool {
	if a == b {
		return true
	}
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ia, ib)
}

// upperFirst starts s with a capital letter, for a sentence.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
