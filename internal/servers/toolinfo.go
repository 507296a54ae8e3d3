package servers

import "github.com/mcphost/mcphost/tool"

// ToolInfo returns the definition of the tool exposed as name, as its
// server listed it (annotations included), so that approval can read hints
// such as readOnlyHint and listings can show it unchanged.
func (m *Manager) ToolInfo(name string) (tool.Def, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	ref, ok := m.table[name]
	if !ok {
		return tool.Def{}, false
	}
	s := m.byName[ref.Server]
	if s == nil {
		return tool.Def{}, false
	}
	for _, t := range s.tools {
		if t.Name == ref.Tool {
			return t, true
		}
	}
	return tool.Def{}, false
}
