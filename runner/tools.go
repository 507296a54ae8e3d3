package runner

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"

	"github.com/mcphost/mcphost/internal/budget"
	"github.com/mcphost/mcphost/internal/toolcall"
	"github.com/mcphost/mcphost/internal/toolschema"
	"github.com/mcphost/mcphost/provider"
)

// emptyObjectSchema is what a tool whose schema cannot be read is offered
// with: callable without arguments, rather than not at all.
var emptyObjectSchema = json.RawMessage(`{"type":"object","properties":{}}`)

// toolSet is the toolbox's tool list prepared for one model: schemas
// normalised, names indexed, token costs counted. It is rebuilt only when
// the list changes, so a step costs a comparison, not a rebuild.
type toolSet struct {
	// source is the list as the toolbox returned it, to notice changes.
	source []provider.Tool
	// offered is what the model is sent.
	offered []provider.Tool
	catalog *toolcall.Catalog
	byName  map[string]*toolEntry
	// entries are byName's entries in the order of offered.
	entries []*toolEntry
	// tokens is the raw estimate of all declarations; servers their share,
	// largest first.
	tokens  int
	servers []serverCost
	// selection is what choosing among the tools needs, made when a
	// request first has to (see select.go).
	selection *selectionIndex
}

type toolEntry struct {
	server, tool string
	schema       *toolcall.Schema
	tokens       int // raw estimate of the declaration as offered
	pos          int // place in toolSet.offered
}

type serverCost struct {
	server string
	tokens int
}

// toolSet returns the prepared tools, rebuilding them when the toolbox's
// list changed since the last call.
func (r *Runner) toolSet() *toolSet {
	if r.tools == nil {
		if r.prepared == nil {
			r.prepared = &toolSet{catalog: toolcall.NewCatalog(nil), byName: map[string]*toolEntry{}}
		}
		return r.prepared
	}
	list := r.tools.Tools()
	if r.prepared != nil && sameTools(r.prepared.source, list) {
		return r.prepared
	}
	r.prepared = r.prepareTools(list)
	return r.prepared
}

// sameTools compares two tool lists. The manager hands out the same
// Parameters bytes each time, which bytes.Equal compares by pointer first.
func sameTools(a, b []provider.Tool) bool {
	return slices.EqualFunc(a, b, func(x, y provider.Tool) bool {
		return x.Name == y.Name && x.Description == y.Description && bytes.Equal(x.Parameters, y.Parameters)
	})
}

// Offer is a tool as the model is sent it: the schema normalised for small
// models and Ollama (toolschema; an object schema with no properties when
// it cannot be read) and the description trimmed. wrapped says a
// non-object root was wrapped, and names the property it was wrapped in
// (empty otherwise). Arguments are still checked against the original
// schema.
func Offer(t provider.Tool) (offered provider.Tool, wrapped string) {
	norm, err := toolschema.Normalize(t.Parameters, toolschema.Options{})
	schema := norm.Schema
	if err != nil {
		schema, norm.Wrapped = emptyObjectSchema, ""
	}
	return provider.Tool{
		Name:        t.Name,
		Description: toolschema.TrimDescription(t.Description, toolschema.DefaultMaxToolDescription),
		Parameters:  schema,
	}, norm.Wrapped
}

func (r *Runner) prepareTools(list []provider.Tool) *toolSet {
	ts := &toolSet{
		source:  list,
		offered: make([]provider.Tool, len(list)),
		byName:  make(map[string]*toolEntry, len(list)),
		entries: make([]*toolEntry, len(list)),
	}
	names := make([]toolcall.Tool, len(list))
	perServer := map[string]int{}
	for i, t := range list {
		server, tool, ok := r.tools.Lookup(t.Name)
		if !ok {
			tool = t.Name
		}
		names[i] = toolcall.Tool{Exposed: t.Name, Server: server, Name: tool}
		offered, wrapped := Offer(t)
		ts.offered[i] = offered
		cost := budget.Tool(offered)
		e := &toolEntry{server: server, tool: tool, schema: toolcall.NewSchema(t.Parameters, offered.Parameters, wrapped), tokens: cost, pos: i}
		ts.byName[t.Name] = e
		ts.entries[i] = e
		ts.tokens += cost
		perServer[server] += cost
	}
	ts.catalog = toolcall.NewCatalog(names)
	for s, n := range perServer {
		ts.servers = append(ts.servers, serverCost{s, n})
	}
	slices.SortFunc(ts.servers, func(a, b serverCost) int {
		return cmp.Or(b.tokens-a.tokens, cmp.Compare(a.server, b.server))
	})
	return ts
}

// ToolTokens returns the estimated token cost of each tool's declaration
// as the model is sent it (normalised), by exposed name: what a tool
// listing shows so that users can see which servers fill the context
// window. The estimate is corrected by the backend's counts once a model
// call has been made. Like Run, it must not be called while a Run is in
// progress.
func (r *Runner) ToolTokens() map[string]int {
	ts := r.toolSet()
	out := make(map[string]int, len(ts.byName))
	for name, e := range ts.byName {
		out[name] = r.estimator.Tokens(e.tokens)
	}
	return out
}
