package main

// MCP without a model: "mcphost servers" checks that every configured
// server starts and what its tools cost; "mcphost tools list" shows the
// tools; "mcphost tools call" calls one. They run on the config's servers
// or on one given with --url or --stdio.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"os"
	"os/signal"
	"slices"
	"sort"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/pflag"

	"github.com/mcphost/mcphost/budget"
	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/elicit"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/runner"
	"github.com/mcphost/mcphost/secret"
	"github.com/mcphost/mcphost/servers"
	"github.com/mcphost/mcphost/tool"
	"github.com/mcphost/mcphost/ui"
)

// exitToolFailed is the exit code of "mcphost tools call" when the tool
// reported an error (isError) or the server answered the call with one.
const exitToolFailed = 6

// inspectUsage is printed with a usage error of "servers" or "tools".
const inspectUsage = `usage: mcphost servers | mcphost tools list [SERVER] | mcphost tools call TOOL [JSON-ARGS | -]`

// inspectCommand is a parsed "servers" or "tools" command line.
type inspectCommand struct {
	verb   string // "servers", "list" or "call"
	server string // list: only this server's tools
	tool   string // call: server__tool or a bare tool name
	args   string // call: JSON arguments, "-" for stdin, "" for none
}

func parseInspect(args []string) (inspectCommand, error) {
	switch {
	case args[0] == "servers" && len(args) == 1:
		return inspectCommand{verb: "servers"}, nil
	case args[0] == "servers":
		return inspectCommand{}, fmt.Errorf("unexpected argument %q after servers", args[1])
	case len(args) < 2:
		return inspectCommand{}, fmt.Errorf("tools needs list or call")
	case args[1] == "list" && len(args) <= 3:
		c := inspectCommand{verb: "list"}
		if len(args) == 3 {
			c.server = args[2]
		}
		return c, nil
	case args[1] == "call" && len(args) == 2:
		return inspectCommand{}, fmt.Errorf("tools call needs the name of a tool (see mcphost tools list)")
	case args[1] == "call" && len(args) <= 4:
		c := inspectCommand{verb: "call", tool: args[2]}
		if len(args) == 4 {
			c.args = args[3]
		}
		return c, nil
	case args[1] == "list" || args[1] == "call":
		return inspectCommand{}, fmt.Errorf("unexpected argument %q after tools %s", args[len(args)-1], args[1])
	}
	return inspectCommand{}, fmt.Errorf("unknown command tools %q: use tools list or tools call", args[1])
}

// inspector is one run of "servers" or "tools".
type inspector struct {
	settings *config.Settings
	logger   *slog.Logger
	mask     *secret.Masker
	adhoc    *config.ServerSpec
	stdin    *os.File
	stdout   *os.File
	stderr   io.Writer
	json     bool
}

// runInspect runs "mcphost servers" and "mcphost tools ..." and returns
// the exit code.
func runInspect(fs *pflag.FlagSet, adhoc adhocFlags, stdin, stdout, stderr *os.File) int {
	usage := func(err error) int {
		fmt.Fprintf(stderr, "mcphost: %v\n%s\n", err, inspectUsage)
		return exitUsage
	}
	cmd, err := parseInspect(fs.Args())
	if err != nil {
		return usage(err)
	}
	spec, err := adhoc.spec()
	if err != nil {
		return usage(err)
	}
	opts := config.LoadOptions{Flags: fs}
	if spec != nil {
		opts.Servers = []config.ServerSpec{*spec}
	}
	settings, err := config.Load(opts)
	if err != nil {
		fmt.Fprintf(stderr, "mcphost: %v\n", err)
		return exitUsage
	}
	if settings.Output == config.OutputStreamJSON {
		fmt.Fprintln(stderr, "mcphost: --output stream-json is for model runs; use --output json with servers and tools")
		return exitUsage
	}
	mask := secret.FromServers(settings.Servers)
	logger := newLogger(stderr, settings.Debug, mask)
	defer logResources(logger)

	in := &inspector{settings: settings, logger: logger, mask: mask, adhoc: spec,
		stdin: stdin, stdout: stdout, stderr: stderr, json: settings.Output == config.OutputJSON}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()

	var code int
	switch cmd.verb {
	case "servers":
		code, err = in.servers(ctx)
	case "list":
		code, err = in.list(ctx, cmd.server)
	case "call":
		code, err = in.call(ctx, cmd.tool, cmd.args)
	}
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "mcphost: interrupted")
			return exitInterrupted
		}
		fmt.Fprintf(stderr, "mcphost: %s\n", ui.Sanitize(mask.String(errorText(err))))
	}
	return code
}

// warn prints a problem that does not stop the command.
func (in *inspector) warn(msg string) {
	ui.Warn(in.stderr, in.mask.String(msg))
}

// startOutcome is the exit code of a start that leaves nothing to work
// with: interrupted (130), or every server asked for failed (5).
func startOutcome(ctx context.Context, specs []config.ServerSpec, errs []error) (int, error) {
	if ctx.Err() != nil {
		return exitInterrupted, ctx.Err()
	}
	if len(errs) > 0 && len(errs) == countEnabled(specs) {
		return exitNoServers, errors.Join(errs...)
	}
	return exitOK, nil
}

// start starts specs and returns their manager (to be closed) and the
// start errors. An ad-hoc --url server that does not speak Streamable HTTP
// is tried again over SSE.
func (in *inspector) start(ctx context.Context, specs []config.ServerSpec) (*servers.Manager, []error) {
	for i := range specs {
		// The cut protects a model's context; a person calling a tool
		// asked for the whole result.
		specs[i].MaxResultBytes = math.MaxInt32
	}
	elicitation := elicit.Handler(in.settings.Elicitation, in.warn)
	m := newManager(specs, in.logger, elicitation)
	errs := m.Start(ctx)
	var dial *net.OpError
	if len(errs) == 0 || in.adhoc == nil || in.adhoc.Transport != config.TransportHTTP || ctx.Err() != nil ||
		(errors.As(errs[0], &dial) && dial.Op == "dial") || errors.Is(errs[0], servers.ErrAuth) {
		// Nothing listens there, or it wants credentials: SSE would
		// fail the same way.
		return m, errs
	}
	in.logger.Debug("trying SSE after Streamable HTTP failed", "url", in.adhoc.URL, "error", errs[0])
	m.Close()
	sse := specs[0]
	sse.Transport = config.TransportSSE
	m2 := newManager([]config.ServerSpec{sse}, in.logger, elicitation)
	errs2 := m2.Start(ctx)
	if len(errs2) == 0 {
		return m2, nil
	}
	m2.Close()
	// The closed manager still reports the server as failed.
	return m, []error{fmt.Errorf("cannot connect to %s as Streamable HTTP (%v) nor as SSE (%v)", in.adhoc.URL, errs[0], errs2[0])}
}

// serverRow is one line of "mcphost servers".
type serverRow struct {
	Name      string  `json:"name"`
	State     string  `json:"state"`
	Transport string  `json:"transport"`
	Tools     int     `json:"tools"`
	StartMS   float64 `json:"start_ms"`
	Tokens    int     `json:"tokens"`
	Error     string  `json:"error,omitempty"`
}

// servers starts every configured server and reports on each; it fails
// (exit 5) when any enabled server could not start.
func (in *inspector) servers(ctx context.Context) (int, error) {
	m, errs := in.start(ctx, in.settings.Servers)
	defer m.Close()
	if ctx.Err() != nil {
		return exitInterrupted, ctx.Err()
	}
	tokens := map[string]int{}
	for _, t := range m.Tools() {
		if server, _, ok := m.Lookup(t.Name); ok {
			tokens[server] += offeredTokens(t)
		}
	}
	failed := map[string]error{}
	for _, e := range errs {
		var se *servers.StartError
		if errors.As(e, &se) {
			failed[se.Server] = e
		} else if in.adhoc != nil {
			failed[in.adhoc.Name] = e
		}
	}
	var rows []serverRow
	for _, st := range m.Status() {
		r := serverRow{Name: st.Name, State: string(st.State), Transport: string(st.Transport)}
		if st.State == servers.StateReady {
			r.Tools, r.Tokens = st.ToolCount, tokens[st.Name]
			r.StartMS = float64(st.Ready.Microseconds()) / 1000
		}
		if e := failed[st.Name]; e != nil {
			r.State, r.Error = string(servers.StateFailed), in.mask.String(e.Error())
		}
		rows = append(rows, r)
	}
	if in.json {
		if err := writeJSON(in.stdout, map[string]any{"servers": orEmpty(rows)}); err != nil {
			return exitError, err
		}
	} else {
		in.serverTable(rows)
	}
	if len(failed) > 0 {
		return exitNoServers, fmt.Errorf("%d of %d servers could not start", len(failed), len(rows))
	}
	return exitOK, nil
}

// serverTable prints the rows for a person, the errors below the table.
func (in *inspector) serverTable(rows []serverRow) {
	if len(rows) == 0 {
		fmt.Fprintln(in.stdout, "no MCP servers configured")
		return
	}
	tw := tabwriter.NewWriter(in.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SERVER\tSTATE\tTRANSPORT\tTOOLS\tSTART\t~TOKENS")
	for _, r := range rows {
		tools, start, tokens := "-", "-", "-"
		if r.State == string(servers.StateReady) {
			tools, tokens = fmt.Sprint(r.Tools), fmt.Sprint(r.Tokens)
			start = (time.Duration(r.StartMS*1000) * time.Microsecond).Round(time.Millisecond).String()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", ui.Sanitize(r.Name), r.State, r.Transport, tools, start, tokens)
	}
	tw.Flush()
	for _, r := range rows {
		if r.Error != "" {
			fmt.Fprintf(in.stdout, "\n%s\n", ui.Sanitize(r.Error))
		}
	}
}

// only returns the spec named name, or an error listing the names.
func only(specs []config.ServerSpec, name string) ([]config.ServerSpec, error) {
	var names []string
	for _, s := range specs {
		if s.Name == name {
			return []config.ServerSpec{s}, nil
		}
		names = append(names, s.Name)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no server named %q: no MCP servers are configured", name)
	}
	return nil, fmt.Errorf("no server named %q; configured: %s", name, strings.Join(names, ", "))
}

// toolRow is one tool of "mcphost tools list --output json": the MCP
// definition as the server sent it, and the name the model sees.
type toolRow struct {
	Name   string          `json:"name"`
	Server string          `json:"server"`
	Tokens int             `json:"tokens"`
	Tool   json.RawMessage `json:"tool"`
	def    tool.Def
}

// list prints the tools of every server, or of one.
func (in *inspector) list(ctx context.Context, server string) (int, error) {
	specs := in.settings.Servers
	if server != "" {
		var err error
		if specs, err = only(specs, server); err != nil {
			return exitUsage, err
		}
	}
	m, errs := in.start(ctx, specs)
	defer m.Close()
	if code, err := startOutcome(ctx, specs, errs); err != nil {
		return code, err
	}
	for _, e := range errs {
		in.warn(e.Error())
	}
	var rows []toolRow
	for _, t := range m.Tools() {
		srv, _, _ := m.Lookup(t.Name)
		def, _ := m.ToolInfo(t.Name)
		rows = append(rows, toolRow{Name: t.Name, Server: srv, Tokens: offeredTokens(t), Tool: def.Raw, def: def})
	}
	if in.json {
		if err := writeJSON(in.stdout, map[string]any{"tools": orEmpty(rows)}); err != nil {
			return exitError, err
		}
		return exitOK, nil
	}
	if len(rows) == 0 {
		fmt.Fprintln(in.stdout, "no tools")
	}
	for i, r := range rows {
		if i > 0 {
			fmt.Fprintln(in.stdout)
		}
		in.printTool(r)
	}
	return exitOK, nil
}

// printTool shows one tool for a person: name, description, arguments.
func (in *inspector) printTool(r toolRow) {
	w := in.stdout
	fmt.Fprintf(w, "%s  (~%d tokens)\n", ui.Sanitize(r.Name), r.Tokens)
	if d := strings.TrimSpace(r.def.Description); d != "" {
		for _, line := range strings.Split(ui.Sanitize(d), "\n") {
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
	args := schemaArgs(r.def.InputSchema)
	if len(args) == 0 {
		fmt.Fprintln(w, "  no arguments")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, a := range args {
		fmt.Fprintf(tw, "    %s\t%s\t%s\n", ui.Sanitize(a.name), ui.Sanitize(a.kind), ui.Sanitize(a.about))
	}
	tw.Flush()
}

// argInfo is one argument of a tool, for printing.
type argInfo struct{ name, kind, about string }

// schemaArgs lists the properties of an input schema: required ones
// first, in the schema's order, then the others by name.
func schemaArgs(schema any) []argInfo {
	var s struct {
		Properties map[string]map[string]any `json:"properties"`
		Required   []string                  `json:"required"`
	}
	data, err := json.Marshal(schema)
	if err != nil || json.Unmarshal(data, &s) != nil {
		return nil
	}
	var names []string
	for n := range s.Properties {
		if !slices.Contains(s.Required, n) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var out []argInfo
	for i, n := range append(slices.Clone(s.Required), names...) {
		p, ok := s.Properties[n]
		if !ok {
			continue
		}
		kind := "any"
		switch t := p["type"].(type) {
		case string:
			kind = t
		case []any:
			var kinds []string
			for _, k := range t {
				kinds = append(kinds, fmt.Sprint(k))
			}
			kind = strings.Join(kinds, "|")
		}
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
		out = append(out, argInfo{name: n, kind: kind, about: strings.Join(about, "; ")})
	}
	return out
}

func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// call calls one tool and prints its result.
func (in *inspector) call(ctx context.Context, tool, rawArgs string) (int, error) {
	args, err := in.toolArgs(rawArgs)
	if err != nil {
		return exitUsage, err
	}
	specs := in.settings.Servers
	// server__tool needs only its server started; server names cannot
	// hold "__", so the first one separates them.
	if prefix, _, ok := strings.Cut(tool, "__"); ok {
		if one, err := only(specs, prefix); err == nil {
			specs = one
		}
	}
	m, errs := in.start(ctx, specs)
	defer m.Close()
	if code, err := startOutcome(ctx, specs, errs); err != nil {
		return code, err
	}
	name, err := resolveTool(m, tool)
	if err != nil {
		for _, e := range errs {
			in.warn(e.Error()) // the tool may be on a server that failed
		}
		return exitUsage, err
	}
	res, err := m.Call(ctx, name, args)
	if err != nil {
		if ctx.Err() != nil {
			return exitInterrupted, ctx.Err()
		}
		if errors.Is(err, servers.ErrServerUnavailable) {
			return exitNoServers, err
		}
		return exitToolFailed, err
	}
	if in.json {
		err = writeJSON(in.stdout, res.Raw)
	} else {
		err = in.printResult(res)
	}
	if err != nil {
		return exitError, err
	}
	if res.IsError {
		return exitToolFailed, fmt.Errorf("tool %s reported an error", name)
	}
	return exitOK, nil
}

// toolArgs reads the arguments of a call: JSON text, "-" for stdin, or
// nothing for none.
func (in *inspector) toolArgs(raw string) (map[string]any, error) {
	source := "the arguments"
	if raw == "-" {
		data, err := io.ReadAll(in.stdin)
		if err != nil {
			return nil, fmt.Errorf("reading the arguments from stdin: %w", err)
		}
		raw, source = string(data), "the arguments on stdin"
	}
	if strings.TrimSpace(raw) == "" {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber() // large integers stay exact
	var args map[string]any
	if err := dec.Decode(&args); err != nil || dec.More() || args == nil {
		return nil, fmt.Errorf(`%s must be one JSON object, e.g. '{"message": "hi"}'`, source)
	}
	return args, nil
}

// resolveTool finds the exposed name of tool: server__tool as listed, or
// a tool's own name when only one server has it.
func resolveTool(m *servers.Manager, tool string) (string, error) {
	if _, _, ok := m.Lookup(tool); ok {
		return tool, nil
	}
	var matches, all []string
	for _, t := range m.Tools() {
		all = append(all, t.Name)
		if _, own, ok := m.Lookup(t.Name); ok && own == tool {
			matches = append(matches, t.Name)
		}
	}
	switch {
	case len(matches) == 1:
		return matches[0], nil
	case len(matches) > 1:
		return "", fmt.Errorf("tool %q is ambiguous: give one of %s", tool, strings.Join(matches, ", "))
	case len(all) == 0:
		return "", fmt.Errorf("no tool %q: the servers have no tools", tool)
	}
	return "", fmt.Errorf("no tool %q; run mcphost tools list to see the %d tools", tool, len(all))
}

// printResult prints a tool result for a person: text as text, other
// content as a one-line summary; structured content alone as JSON.
func (in *inspector) printResult(res *tool.Result) error {
	tty := isTerminal(in.stdout)
	var b strings.Builder
	line := func(s string) {
		if tty {
			s = ui.Sanitize(s)
		}
		b.WriteString(s)
		if !strings.HasSuffix(s, "\n") {
			b.WriteByte('\n')
		}
	}
	for _, c := range res.Content {
		line(c.Describe())
	}
	if len(res.Content) == 0 && res.Structured != nil {
		data, err := json.MarshalIndent(res.Structured, "", "  ")
		if err != nil {
			return err
		}
		line(string(data))
	}
	_, err := io.WriteString(in.stdout, b.String())
	return err
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// orEmpty makes a nil slice encode as [] rather than null.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// offeredTokens estimates what a tool costs in every request: its
// declaration as the runner sends it (normalised schema, trimmed
// description), as the README promises.
func offeredTokens(t provider.Tool) int {
	offered, _ := runner.Offer(t)
	return budget.Tool(offered)
}
