package servers

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/internal/termtext"
	"github.com/mcphost/mcphost/tool"
)

// schemaCache holds output schemas resolved for validation, by their
// text: a tool's schema is resolved once, not at every call.
type schemaCache struct {
	mu       sync.Mutex
	resolved map[string]*jsonschema.Resolved
	bad      map[string]error
}

// get resolves schema, once.
func (c *schemaCache) get(schema json.RawMessage) (*jsonschema.Resolved, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := string(schema)
	if r, ok := c.resolved[key]; ok {
		return r, nil
	}
	if err, ok := c.bad[key]; ok {
		return nil, err
	}
	if c.resolved == nil {
		c.resolved, c.bad = map[string]*jsonschema.Resolved{}, map[string]error{}
	}
	var s jsonschema.Schema
	err := json.Unmarshal(schema, &s)
	var r *jsonschema.Resolved
	if err == nil {
		r, err = s.Resolve(nil)
	}
	if err != nil {
		c.bad[key] = err
		return nil, err
	}
	c.resolved[key] = r
	return r, nil
}

// checkStructured validates a result's structured content against the
// tool's output schema. A mismatch is the server's mistake, worth a
// warning but not worth losing the result over: the model still gets it.
func (m *Manager) checkStructured(s *server, def tool.Def, res *mcp.CallToolResult) {
	if res == nil || res.IsError || len(def.OutputSchema) == 0 || res.StructuredContent == nil {
		return
	}
	resolved, err := m.schemas.get(def.OutputSchema)
	if err != nil {
		m.log.Debug("output schema cannot be read", "server", s.spec.Name, "tool", def.Name, "error", err)
		return
	}
	// Validate the value as JSON decodes it, whatever Go type the SDK
	// gave it.
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return
	}
	var v any
	if json.Unmarshal(b, &v) != nil {
		return
	}
	if err := resolved.Validate(v); err != nil {
		m.warn(fmt.Sprintf("server %q: tool %q returned structured content that does not match its output schema (%s); it is passed on as it is",
			s.spec.Name, def.Name, termtext.Line(err.Error())))
	}
}
