package servers

import "github.com/modelcontextprotocol/go-sdk/mcp"

// ToolInfo returns the MCP definition of the tool exposed as name, as its
// server listed it (annotations included), so that approval can read hints
// such as readOnlyHint. The definition is a shallow copy: its nested values
// are shared and must not be modified.
func (m *Manager) ToolInfo(name string) (*mcp.Tool, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	ref, ok := m.table[name]
	if !ok {
		return nil, false
	}
	s := m.byName[ref.Server]
	if s == nil {
		return nil, false
	}
	for _, t := range s.tools {
		if t.Name == ref.Tool {
			c := *t
			return &c, true
		}
	}
	return nil, false
}
