package host

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"reflect"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/mcphost/mcphost/internal/servers"
	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/runner"
	"github.com/mcphost/mcphost/tool"
)

// maxToolName is the longest tool name that Ollama and the
// OpenAI-compatible engines accept, as for the servers' tools.
const maxToolName = 64

// Tool is a Go function the model may call, made by [NewTool] and given
// to a [Host] in [Options.Tools]. The zero Tool is not usable.
type Tool struct {
	def tool.Def
	run func(ctx context.Context, args map[string]any) (res *tool.Result, panicked *toolPanic)
	// err is why NewTool could not make the tool: New reports it as a
	// configuration error, since NewTool itself returns no error.
	err error
}

// toolPanic is a panic of a Go tool's function, kept for the Host's
// warning and debug log.
type toolPanic struct {
	value any
	stack []byte
}

// ToolOption changes a tool made by [NewTool].
type ToolOption struct{ apply func(*tool.Def) }

// ReadOnly marks a tool as one that only reads (MCP's readOnlyHint), as a
// server marks its own. The approval policy then lets the model call it
// without asking, unless a rule says otherwise; a tool without it needs
// approval, so it is refused when no one can be asked (no
// [Options.Asker]).
func ReadOnly() ToolOption {
	return ToolOption{func(d *tool.Def) {
		if d.Annotations == nil {
			d.Annotations = &tool.Annotations{}
		}
		d.Annotations.ReadOnlyHint = true
	}}
}

// NewTool makes fn a tool the model may call by name, to give to a [Host] in
// [Options.Tools]. The model sees name as it is: no "server__" prefix. name
// may hold letters, digits, '_' and '-', at most 64 of them, as engines
// require; a name that breaks these rules, or that the model could not
// tell from another tool's, makes [New] fail with an error matching
// [ErrConfig].
//
// The tool's input schema is inferred from In with jsonschema-go, as the
// MCP go-sdk's mcp.AddTool does: In must be a struct (or a pointer to
// one) or a map, so that the arguments are a JSON object; field names
// come from the json tags, fields without omitempty are required, and a
// jsonschema tag gives a field's description. In may also be any, which
// takes any object and gets it as a map[string]any.
//
// What the model gets back depends on Out:
//   - a string type: the string itself, as the result's text;
//   - any: a string held in it as text, any other value as its JSON,
//     which is the result's structured content and, written compactly,
//     its text; no output schema is declared;
//   - any other type (a struct, a map, a slice, a number): its JSON, as
//     the structured content and as the text, with an output schema
//     inferred from Out. A nil pointer gives the zero value of its type.
//
// An error from fn, or a panic in it, becomes a tool error the model
// reads (IsError set), not a failed turn; a panic is also reported to
// [Options.Warn], with the stack in the debug log, since it is a bug of
// the program. ctx is cancelled when the turn is; its [tool.ProgressOf],
// when not nil, reports progress as [ToolProgress] events. A tool not
// marked [ReadOnly] needs approval, as a server's tool without that
// annotation does.
//
// Calls go through the same path as a server's tools: the arguments are
// checked against the schema and repaired where a model got them nearly
// right, the approval policy decides (its rules match the name, and also
// "mcphost__NAME", [HostServer] being the tools' server in events, the
// audit log and hooks), hooks run, the audit log records the call, and
// tool selection offers it like any other. [Host.CallTool] reaches it
// too, and checks the arguments against the schema.
func NewTool[In, Out any](name, description string, fn func(ctx context.Context, in In) (Out, error), opts ...ToolOption) Tool {
	t := Tool{def: tool.Def{Name: name, Description: description}}
	if err := checkToolName(name); err != nil {
		t.err = err
		return t
	}
	if fn == nil {
		t.err = fmt.Errorf("the Go tool %q has no function: give the Go function the model calls", name)
		return t
	}
	in, err := inputSchema[In]()
	if err != nil {
		t.err = fmt.Errorf("the Go tool %q: %w", name, err)
		return t
	}
	out, err := outputOf[Out]()
	if err != nil {
		t.err = fmt.Errorf("the Go tool %q: %w", name, err)
		return t
	}
	t.def.InputSchema, _ = json.Marshal(in.Schema())
	if out.schema != nil {
		t.def.OutputSchema, _ = json.Marshal(out.schema)
	}
	for _, o := range opts {
		if o.apply != nil {
			o.apply(&t.def)
		}
	}
	t.def.Raw = rawDef(t.def)
	t.run = func(ctx context.Context, args map[string]any) (res *tool.Result, panicked *toolPanic) {
		var arg In
		if err := decodeArgs(args, in, &arg); err != nil {
			return errorResult(fmt.Sprintf("the arguments do not fit the input schema of tool %q: %v", name, err)), nil
		}
		defer func() {
			if r := recover(); r != nil {
				panicked = &toolPanic{value: r, stack: debug.Stack()}
				res = errorResult(fmt.Sprintf("tool %q failed unexpectedly (a bug in the program that gives it, not in the arguments); do not call it again with the same arguments", name))
			}
		}()
		v, err := fn(ctx, arg)
		if err != nil {
			return errorResult(err.Error()), nil
		}
		return out.result(name, v), nil
	}
	return t
}

// checkToolName applies the rules of the names the model sees.
func checkToolName(name string) error {
	if name == "" {
		return fmt.Errorf("a Go tool needs a name, e.g. %q", "get_weather")
	}
	if len(name) > maxToolName {
		return fmt.Errorf("the Go tool name %q is %d characters long; engines accept at most %d", name, len(name), maxToolName)
	}
	var bad []string
	for _, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-'
		if q := fmt.Sprintf("%q", r); !ok && !strings.Contains(strings.Join(bad, ""), q) {
			bad = append(bad, q)
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("the Go tool name %q holds %s: engines accept only letters, digits, '_' and '-' in a tool name", name, strings.Join(bad, ", "))
	}
	return nil
}

// inputSchema is the resolved schema inferred from In, which must be a
// JSON object; any takes any object.
func inputSchema[In any]() (*jsonschema.Resolved, error) {
	rt := reflect.TypeFor[In]()
	var s *jsonschema.Schema
	if rt == reflect.TypeFor[any]() {
		s = &jsonschema.Schema{Type: "object"}
	} else {
		if rt.Kind() == reflect.Pointer {
			rt = rt.Elem()
		}
		var err error
		if s, err = jsonschema.ForType(rt, &jsonschema.ForOptions{}); err != nil {
			return nil, fmt.Errorf("no input schema can be inferred from %s: %w", rt, err)
		}
		if s.Type != "object" {
			return nil, fmt.Errorf("its input %s must be a struct or a map, since a tool's arguments are a JSON object", rt)
		}
	}
	resolved, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		return nil, fmt.Errorf("the input schema inferred from %s is not usable: %w", rt, err)
	}
	return resolved, nil
}

// decodeArgs checks args against the input schema, with its defaults
// applied, and reads them into dst. They take a trip through JSON, as
// they would from a server, so that numbers and nested objects land in
// In's own types.
func decodeArgs(args map[string]any, in *jsonschema.Resolved, dst any) error {
	if args == nil {
		args = map[string]any{}
	}
	data, err := json.Marshal(args)
	if err != nil {
		return err
	}
	var v any = map[string]any{}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	if err := in.ApplyDefaults(&v); err != nil {
		return err
	}
	if err := in.Validate(&v); err != nil {
		return err
	}
	if data, err = json.Marshal(v); err != nil {
		return err
	}
	return json.Unmarshal(data, dst)
}

// output is how a tool's Out becomes its result.
type output struct {
	// text is true for a string Out: the string is the result.
	text bool
	// schema is the output schema inferred from Out; nil for a string or
	// any.
	schema *jsonschema.Schema
	// zero is the value of a nil pointer Out: its element's zero value.
	zero any
}

// outputOf infers what Out gives the model.
func outputOf[Out any]() (output, error) {
	rt := reflect.TypeFor[Out]()
	switch {
	case rt == reflect.TypeFor[any]():
		return output{}, nil
	case rt.Kind() == reflect.String:
		return output{text: true}, nil
	}
	var o output
	if rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
		o.zero = reflect.Zero(rt).Interface()
	}
	s, err := jsonschema.ForType(rt, &jsonschema.ForOptions{})
	if err != nil {
		return output{}, fmt.Errorf("no output schema can be inferred from %s: %w", rt, err)
	}
	o.schema = s
	return o, nil
}

// result is v as the model gets it.
func (o output) result(name string, v any) *tool.Result {
	if o.text {
		return textResult(reflect.ValueOf(v).String())
	}
	if s, ok := v.(string); ok {
		return textResult(s)
	}
	if rv := reflect.ValueOf(v); o.zero != nil && rv.Kind() == reflect.Pointer && rv.IsNil() {
		v = o.zero
	}
	data, err := json.Marshal(v)
	if err != nil {
		return errorResult(fmt.Sprintf("tool %q returned a value that cannot be written as JSON: %v", name, err))
	}
	var structured any
	if err := json.Unmarshal(data, &structured); err != nil {
		return errorResult(fmt.Sprintf("tool %q returned a value that cannot be read back from JSON: %v", name, err))
	}
	res := &tool.Result{Structured: structured, Content: []tool.Content{{Kind: tool.Text, Text: string(data)}}}
	res.Raw, _ = json.Marshal(map[string]any{"content": []map[string]any{{"type": "text", "text": string(data)}},
		"structuredContent": json.RawMessage(data)})
	return res
}

// errorResult is a tool error the model reads.
func errorResult(msg string) *tool.Result {
	return &tool.Result{IsError: true, Content: []tool.Content{{Kind: tool.Text, Text: msg}}}
}

// rawDef is the definition as an MCP server would list it, for listings
// that show definitions unchanged.
func rawDef(d tool.Def) json.RawMessage {
	m := map[string]any{"name": d.Name, "description": d.Description, "inputSchema": d.InputSchema}
	if d.OutputSchema != nil {
		m["outputSchema"] = d.OutputSchema
	}
	if d.Annotations != nil {
		m["annotations"] = map[string]any{"readOnlyHint": d.Annotations.ReadOnlyHint}
	}
	raw, _ := json.Marshal(m)
	return raw
}

// goTools are the program's Go tools, as the host's toolbox offers them.
// The tools are fixed in New; only the memory of clashes reported changes.
type goTools struct {
	byName map[string]*Tool
	// offered are their declarations, in the order of Options.Tools.
	offered []provider.Tool
	// folded maps each name, folded as the model's calls are resolved
	// (case, '-' and '_'), to the name.
	folded map[string]string
	// mayClash is true when a name holds "__", as every name the servers'
	// tools are offered under does: otherwise no server tool can clash,
	// and Tools need not look.
	mayClash bool
	warn     func(string)
	logger   *slog.Logger

	mu     sync.Mutex
	warned map[string]bool // server tools hidden behind a Go tool, reported
}

// newGoTools checks the program's tools: each made by NewTool without
// error, and each a name the model can tell from the others'.
func newGoTools(tools []Tool, warn func(string), logger *slog.Logger) (*goTools, error) {
	g := &goTools{byName: map[string]*Tool{}, folded: map[string]string{}, warn: warn, logger: logger, warned: map[string]bool{}}
	// The host's own tools keep their names.
	for _, name := range []string{ListResourcesTool, ReadResourceTool, runner.SearchToolName} {
		g.folded[foldName(name)] = name
	}
	for i := range tools {
		t := &tools[i]
		switch {
		case t.err != nil:
			return nil, configError(t.err)
		case t.run == nil:
			return nil, configError(fmt.Errorf("the program's Go tool number %d is not a tool: make each with the host package's NewTool", i+1))
		}
		if other, taken := g.folded[foldName(t.def.Name)]; taken {
			return nil, configError(fmt.Errorf("the program's Go tools: the model cannot tell tool %q from %q (names are matched regardless of case and of '-' versus '_'): rename one", t.def.Name, other))
		}
		g.folded[foldName(t.def.Name)] = t.def.Name
		g.byName[t.def.Name] = t
		g.offered = append(g.offered, provider.Tool{Name: t.def.Name, Description: t.def.Description, Parameters: t.def.InputSchema})
		g.mayClash = g.mayClash || strings.Contains(t.def.Name, "__")
	}
	return g, nil
}

// foldName is how the model's calls compare names (toolcall.Catalog):
// case and the choice between '-' and '_' do not count.
func foldName(s string) string {
	return strings.ReplaceAll(strings.ToLower(s), "-", "_")
}

// clash returns the Go tool that a server's tool offered as name would be
// confused with, if any.
func (g *goTools) clash(name string) (string, bool) {
	if !g.mayClash || !strings.Contains(name, "__") {
		return "", false
	}
	goName, ok := g.folded[foldName(name)]
	return goName, ok && g.byName[goName] != nil
}

// checkServers is the configuration error of a Go tool that clashes with
// a server's tool known once the servers started (or from the cache).
func (g *goTools) checkServers(m *servers.Manager) error {
	for _, t := range m.Tools() {
		if goName, ok := g.clash(t.Name); ok {
			server, own, _ := m.Lookup(t.Name)
			return configError(fmt.Errorf("the program's Go tool %q has the name the model sees for tool %q of server %q: rename the Go tool", goName, own, server))
		}
	}
	return nil
}

// hide drops the servers' tools that clash with a Go tool, which came
// after New had checked (a server started in the background, or its list
// changed): the program's tool keeps its name, and the program hears once
// of each tool hidden.
func (g *goTools) hide(tools []provider.Tool, m *servers.Manager) []provider.Tool {
	if !g.mayClash {
		return tools
	}
	kept := tools[:0]
	for _, t := range tools {
		goName, ok := g.clash(t.Name)
		if !ok {
			kept = append(kept, t)
			continue
		}
		g.mu.Lock()
		first := !g.warned[t.Name]
		g.warned[t.Name] = true
		g.mu.Unlock()
		if first {
			server, own, _ := m.Lookup(t.Name)
			g.warn(fmt.Sprintf("tool %q of server %q is not offered to the model: the program's Go tool %q has its name; rename the Go tool", own, server, goName))
		}
	}
	return kept
}

// call runs the Go tool name. A tool that failed because ctx ended
// (the turn was cancelled, the Host closed) is that error, as a server's
// call would be.
func (g *goTools) call(ctx context.Context, t *Tool, args map[string]any) (*tool.Result, error) {
	res, panicked := t.run(ctx, args)
	if panicked != nil {
		g.warn(fmt.Sprintf("Go tool %q panicked: %v; the model was told the call failed (the stack is in the debug log)", t.def.Name, panicked.value))
		g.logger.Debug("Go tool panicked", "tool", t.def.Name, "panic", fmt.Sprint(panicked.value), "stack", string(panicked.stack))
	}
	if err := ctx.Err(); err != nil && res.IsError {
		return nil, fmt.Errorf("tool %q: %w", t.def.Name, err)
	}
	return res, nil
}
