package servers

import (
	"context"

	"github.com/mcphost/mcphost/tool"
)

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

// LiveToolInfo is ToolInfo from the server's own list: a server whose
// tools are known only from the cache of an earlier run is started (or
// waited for, as a call would wait) first, and a list the server said
// changed is listed again first, so that approval decides on what the
// server says now, never on a cached or outdated definition. It is an
// error when the server cannot be had; false when it no longer has the
// tool.
func (m *Manager) LiveToolInfo(ctx context.Context, name string) (tool.Def, bool, error) {
	m.mu.RLock()
	ref, ok := m.table[name]
	s := m.byName[ref.Server]
	stale := s != nil && s.cached != nil
	m.mu.RUnlock()
	if !ok || s == nil {
		return tool.Def{}, false, nil
	}
	if stale {
		if _, err := m.readyConn(ctx, s); err != nil {
			return tool.Def{}, false, err
		}
	}
	m.awaitLists(ctx, s)
	def, ok := m.ToolInfo(name)
	return def, ok, nil
}
