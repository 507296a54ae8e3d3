package ui

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/termtext"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/tool"
)

// The listings below are shared by the commands (mcphost servers, tools
// list, tools call) and the chat (/servers, /tools).

// ServerRecord is one server in machine-readable output: mcphost servers
// --output json, and the start event of --output stream-json.
type ServerRecord struct {
	Name      string  `json:"name"`
	State     string  `json:"state"`
	Transport string  `json:"transport"`
	Tools     int     `json:"tools"`
	StartMS   float64 `json:"start_ms"`
	Tokens    int     `json:"tokens"`
	Error     string  `json:"error,omitempty"`
	// Cached is true while the tools are the cached list of an earlier run.
	Cached bool `json:"cached,omitempty"`
}

// ServerRecords turns the servers' state into records; mask hides the
// config's secrets in their errors, which quote server output.
func ServerRecords(infos []host.ServerInfo, mask func(string) string) []ServerRecord {
	out := make([]ServerRecord, 0, len(infos))
	for _, s := range infos {
		r := ServerRecord{Name: s.Name, State: string(s.State), Transport: string(s.Transport), Cached: s.Cached}
		if s.State == host.StateReady || s.State == host.StateIdle {
			r.Tools, r.Tokens = s.ToolCount, s.Tokens
			r.StartMS = float64(s.Ready.Microseconds()) / 1000
		}
		if s.Err != nil {
			r.Error = mask(s.Err.Error())
		}
		out = append(out, r)
	}
	return out
}

// ToolRecord is one tool in "mcphost tools list --output json": the
// definition as the server sent it, under "tool", beside what mcphost
// derives (the name the model sees, the server, the token estimate).
type ToolRecord struct {
	Name   string          `json:"name"`
	Server string          `json:"server"`
	Tokens int             `json:"tokens"`
	Tool   json.RawMessage `json:"tool"`
	// Cached is true when the definition is from the cache of an earlier
	// run, the server not started this time.
	Cached bool `json:"cached"`
}

// ToolRecords turns tools into records.
func ToolRecords(tools []host.ToolInfo) []ToolRecord {
	out := make([]ToolRecord, 0, len(tools))
	for _, t := range tools {
		out = append(out, ToolRecord{Name: t.Name, Server: t.Server, Tokens: t.Tokens, Tool: t.Def.Raw, Cached: t.Cached})
	}
	return out
}

// ServerTable prints one line per server: name, state, transport, tools,
// how long it took to start and what its tools cost in tokens; live (the
// chat, where servers keep running) adds the uptime and PID and marks the
// states (● ready). Why a server failed follows the table, in full.
func ServerTable(w io.Writer, infos []host.ServerInfo, live bool, mask func(string) string) {
	ServerTableFit(w, infos, live, mask, 0)
}

// ServerTableFit is ServerTable for a terminal width columns wide (0: any
// width): each row of the table is cut to fit, ending in "…", and why a
// server failed is word-wrapped, kept whole.
func ServerTableFit(w io.Writer, infos []host.ServerInfo, live bool, mask func(string) string, width int) {
	if len(infos) == 0 {
		fmt.Fprintln(w, "no MCP servers configured")
		return
	}
	var table strings.Builder
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
	header := "SERVER\tSTATE\tTRANSPORT\tTOOLS\tSTART\t~TOKENS"
	if live {
		header += "\tUPTIME\tPID"
	}
	fmt.Fprintln(tw, header)
	for _, s := range infos {
		tools, start, tokens := "-", "-", "-"
		switch s.State {
		case host.StateReady:
			tools, tokens = fmt.Sprint(s.ToolCount), fmt.Sprint(s.Tokens)
			start = s.Ready.Round(time.Millisecond).String()
		case host.StateIdle:
			tools, tokens = fmt.Sprint(s.ToolCount)+" (cached)", fmt.Sprint(s.Tokens)
		}
		line := fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s", termtext.Line(s.Name), stateLabel(s, live), s.Transport, tools, start, tokens)
		if live {
			uptime, pid := "-", "-"
			if s.State == host.StateReady && !s.StartedAt.IsZero() {
				uptime = time.Since(s.StartedAt.Add(s.Ready)).Round(time.Second).String()
			}
			if s.PID > 0 {
				pid = fmt.Sprint(s.PID)
			}
			line += "\t" + uptime + "\t" + pid
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
	io.WriteString(w, Fit(table.String(), width))
	for _, s := range infos {
		if s.Err != nil && (s.State == host.StateFailed || s.State == host.StateRestarting) {
			fmt.Fprintf(w, "\n%s\n", wrapText(Sanitize(mask(s.Err.Error())), width))
		}
	}
}

// stateLabel is a server's state; live, with a mark and, for a server
// that is restarting, when it will try again.
func stateLabel(s host.ServerInfo, live bool) string {
	state := string(s.State)
	if !live {
		return state
	}
	switch s.State {
	case host.StateReady:
		return "● ready"
	case host.StateIdle:
		return "◌ idle"
	case host.StateDisabled:
		return "○ disabled"
	case host.StateStarting:
		return "… starting"
	case host.StateFailed:
		return "✗ failed"
	case host.StateRestarting:
		state = "↻ restarting"
		if !s.NextRestart.IsZero() {
			state += fmt.Sprintf(" (next try in %s)", time.Until(s.NextRestart).Round(100*time.Millisecond))
		}
	}
	return state
}

// ToolSummary prints the tools the model sees, grouped by server, one line
// each, with what each server's tools cost (costs: tokens by tool name);
// only, when not empty, keeps one server. Servers without tools say why.
// offered, when not nil, holds the names of the tools offered to the
// model in the last turn, when tool selection offered only some: those
// are marked "✓". Every line is cut to width columns (0: any width),
// ending in "…" where cut.
func ToolSummary(w io.Writer, infos []host.ServerInfo, tools []host.ToolInfo, costs map[string]int, only string, offered map[string]bool, width int) {
	FitOutput(w, width, func(w io.Writer) { toolSummary(w, infos, tools, costs, only, offered) })
}

func toolSummary(w io.Writer, infos []host.ServerInfo, tools []host.ToolInfo, costs map[string]int, only string, offered map[string]bool) {
	if len(infos) == 0 {
		fmt.Fprintln(w, "No MCP servers are configured: the model has no tools.")
		return
	}
	by := map[string][]host.ToolInfo{}
	for _, t := range tools {
		by[t.Server] = append(by[t.Server], t)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, s := range infos {
		if only != "" && s.Name != only {
			continue
		}
		name := termtext.Line(s.Name)
		state := s.State
		if state == host.StateStarting && len(by[s.Name]) > 0 {
			// Its tools are known from the cache and offered already.
			state = host.StateIdle
		}
		switch state {
		case host.StateReady, host.StateRestarting, host.StateIdle:
			cost := 0
			for _, t := range by[s.Name] {
				cost += costs[t.Name]
			}
			fmt.Fprintf(tw, "● %s (%d tools, ~%d tokens of context)\n", name, len(by[s.Name]), cost)
			for _, t := range by[s.Name] {
				mark := "    "
				if offered[t.Name] {
					mark = "  ✓ "
				}
				fmt.Fprintf(tw, "%s%s\n", mark, Preview(t.Def.Name+"\t"+firstLine(t.Offered.Description), 100))
			}
		case host.StateDisabled:
			fmt.Fprintf(tw, "○ %s (disabled: its tools are hidden from the model; /mcp enable %s)\n", name, name)
		default:
			fmt.Fprintf(tw, "✗ %s (%s: no tools)\n", name, s.State)
		}
	}
	tw.Flush()
}

// ToolDetail prints one tool for a person: the name the model calls it,
// its estimated cost, its description and its arguments (type, required,
// description, choices, default).
func ToolDetail(w io.Writer, t host.ToolInfo) {
	from := ""
	if t.Cached {
		from = ", as cached: the server was not started"
	}
	fmt.Fprintf(w, "%s  (~%d tokens%s)\n", Sanitize(t.Name), t.Tokens, from)
	if d := strings.TrimSpace(t.Def.Description); d != "" {
		for _, line := range strings.Split(Sanitize(d), "\n") {
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
	args := SchemaArgs(t.Def.InputSchema)
	if len(args) == 0 {
		fmt.Fprintln(w, "  no arguments")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, a := range args {
		fmt.Fprintf(tw, "    %s\t%s\t%s\n", Sanitize(a.Name), Sanitize(a.Kind), Sanitize(a.About))
	}
	tw.Flush()
}

// Arg is one argument of a tool, for a listing.
type Arg struct {
	Name string
	// Kind is its type, "boolean|string" for a union, with ", required".
	Kind string
	// About joins its description, choices and default.
	About string
}

// SchemaArgs lists the properties of an input schema: required ones
// first, in the schema's order, then the others by name.
func SchemaArgs(schema json.RawMessage) []Arg {
	var s struct {
		Properties map[string]map[string]any `json:"properties"`
		Required   []string                  `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	var names []string
	for n := range s.Properties {
		if !slices.Contains(s.Required, n) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var out []Arg
	for i, n := range append(slices.Clone(s.Required), names...) {
		p, ok := s.Properties[n]
		if !ok {
			continue
		}
		kind := schemaKind(p)
		if i < len(s.Required) {
			kind += ", required"
		}
		var about []string
		if d, _ := p["description"].(string); d != "" {
			about = append(about, strings.Join(strings.Fields(d), " "))
		}
		if e, ok := p["enum"].([]any); ok {
			about = append(about, "one of "+compactJSON(e))
		}
		if d, ok := p["default"]; ok {
			about = append(about, "default "+compactJSON(d))
		}
		out = append(out, Arg{Name: n, Kind: kind, About: strings.Join(about, "; ")})
	}
	return out
}

// schemaKind names the type of a property: its "type", a list of types
// joined with "|", or the types of its anyOf/oneOf branches.
func schemaKind(p map[string]any) string {
	switch t := p["type"].(type) {
	case string:
		return t
	case []any:
		var kinds []string
		for _, k := range t {
			kinds = append(kinds, fmt.Sprint(k))
		}
		return strings.Join(kinds, "|")
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		branches, ok := p[key].([]any)
		if !ok {
			continue
		}
		var kinds []string
		for _, b := range branches {
			if m, ok := b.(map[string]any); ok {
				if k := schemaKind(m); k != "any" && !slices.Contains(kinds, k) {
					kinds = append(kinds, k)
				}
			}
		}
		if len(kinds) > 0 {
			return strings.Join(kinds, "|")
		}
	}
	if _, ok := p["enum"]; ok {
		return "enum"
	}
	return "any"
}

func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// ToolResult prints a tool result for a person or a program reading a
// pipe: text as it is, byte for byte (see WriteContents), other content as
// one line each ("[image image/png, 3.9 KB]"), structured content alone as
// indented JSON. On a terminal, control characters are stripped.
func ToolResult(w io.Writer, res *tool.Result, tty bool) error {
	if len(res.Content) == 0 && res.Structured != nil {
		data, err := json.MarshalIndent(res.Structured, "", "  ")
		if err != nil {
			return err
		}
		if tty {
			data = []byte(Sanitize(string(data)))
		}
		_, err = w.Write(append(data, '\n'))
		return err
	}
	return WriteContents(w, res.Content, tty)
}

// WriteContents prints contents: the text of text content and of a text
// resource exactly as it is, not a byte added or dropped (a file without
// a final newline stays without one), anything else as a line describing
// it. Between two pieces a newline separates them when the first does
// not end with one. On a terminal, control characters are stripped and
// a last newline is added when missing, so the shell's prompt starts on a
// line of its own.
func WriteContents(w io.Writer, contents []tool.Content, tty bool) error {
	var b strings.Builder
	for i, c := range contents {
		s := c.Describe()
		text := c.Kind == tool.Text || (c.Kind == tool.Resource && c.Data == nil)
		if text {
			s = c.Text
		} else if !strings.HasSuffix(s, "\n") {
			s += "\n"
		}
		if tty {
			s = Sanitize(s)
		}
		if i > 0 && b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		b.WriteString(s)
	}
	if tty && b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// GenerationLine describes generation parameters for a person:
// "temperature 0.2, top-k 20, max-tokens 512", or what is left to the model.
func GenerationLine(s provider.GenerationOptions) string {
	var parts []string
	if s.Temperature != nil {
		parts = append(parts, fmt.Sprintf("temperature %g", *s.Temperature))
	}
	if s.TopP != nil {
		parts = append(parts, fmt.Sprintf("top-p %g", *s.TopP))
	}
	if s.TopK != nil {
		parts = append(parts, fmt.Sprintf("top-k %d", *s.TopK))
	}
	if s.MaxTokens > 0 {
		parts = append(parts, fmt.Sprintf("max-tokens %d", s.MaxTokens))
	}
	if s.Seed != nil {
		parts = append(parts, fmt.Sprintf("seed %d", *s.Seed))
	}
	if len(s.Stop) > 0 {
		parts = append(parts, "stop at "+compactJSON(s.Stop))
	}
	if len(parts) == 0 {
		return "the model's own defaults"
	}
	return strings.Join(parts, ", ")
}

// HookList prints the configured hooks, by event, each with its matcher,
// command, timeout and file.
func HookList(w io.Writer, rules config.Hooks) {
	n := 0
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, event := range config.HookEvents() {
		for _, rule := range rules[event] {
			matcher := rule.Matcher
			if matcher == "" {
				matcher = "*"
			}
			for _, c := range rule.Commands {
				if n == 0 {
					fmt.Fprintln(tw, "EVENT\tMATCHER\tCOMMAND\tTIMEOUT\tFILE")
				}
				n++
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", event, Sanitize(matcher), termtext.Line(c.Command), c.Timeout, termtext.Line(rule.File))
			}
		}
	}
	tw.Flush()
	if n == 0 {
		fmt.Fprintln(w, "No hooks are configured (hooks.yml in the config directory, .mcphost/hooks.yml, or hooks: in a config file).")
	}
}

// HookCheck reports on "mcphost hooks validate": each problem (a program
// that is not there) as an error line on errw, or, with none, how many
// hooks were checked on w. It reports whether all were well formed.
func HookCheck(w, errw io.Writer, rules config.Hooks, problems []string) bool {
	for _, p := range problems {
		fmt.Fprintf(errw, "mcphost: %s\n", termtext.Line(p))
	}
	if len(problems) > 0 {
		return false
	}
	n := 0
	for _, event := range rules {
		for _, r := range event {
			n += len(r.Commands)
		}
	}
	fmt.Fprintf(w, "%d hooks, all well formed.\n", n)
	return true
}

// ToolsReport prints tools for "mcphost tools list": each in detail, or
// as JSON records.
func ToolsReport(w io.Writer, tools []host.ToolInfo, jsonOut bool) error {
	if jsonOut {
		return WriteJSON(w, map[string]any{"tools": ToolRecords(tools)})
	}
	if len(tools) == 0 {
		fmt.Fprintln(w, "no tools")
	}
	for i, t := range tools {
		if i > 0 {
			fmt.Fprintln(w)
		}
		ToolDetail(w, t)
	}
	return nil
}

// ServersReport prints "mcphost servers": a table, or JSON records, of
// every server, and returns how many failed. A server that failed its
// start counts as failed even if it is restarting already: this is a
// check of the config.
func ServersReport(w io.Writer, infos []host.ServerInfo, jsonOut bool, mask func(string) string) (failed int, err error) {
	for i, s := range infos {
		if s.State == host.StateFailed || (s.StartErr != nil && s.State != host.StateReady) {
			infos[i].State = host.StateFailed
			if s.StartErr != nil {
				infos[i].Err = s.StartErr
			}
			failed++
		}
	}
	if jsonOut {
		return failed, WriteJSON(w, map[string]any{"servers": ServerRecords(infos, mask)})
	}
	ServerTable(w, infos, false, mask)
	return failed, nil
}
