package servers

import (
	"context"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/tool"
)

// progressTable routes progress notifications to the calls they are
// about, by progress token. Every tools/call gets a token of its own.
type progressTable struct {
	mu    sync.Mutex
	next  uint64
	calls map[string]*progressCall
}

// progressCall is one call that listens to its progress.
type progressCall struct {
	// mu orders reports against the end of the call: once done is set,
	// which the call does before it returns, no report reaches report.
	mu     sync.Mutex
	done   bool
	report tool.ProgressFunc // nil when the caller did not ask
	alive  func()            // resets the call's idle timeout
}

// add registers a call and returns its token.
func (t *progressTable) add(report tool.ProgressFunc, alive func()) (string, *progressCall) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.calls == nil {
		t.calls = map[string]*progressCall{}
	}
	t.next++
	token := fmt.Sprintf("mcphost-%d", t.next)
	pc := &progressCall{report: report, alive: alive}
	t.calls[token] = pc
	return token, pc
}

// remove ends a call's reports: after it returns, the call's report
// function is not called again.
func (t *progressTable) remove(token string, pc *progressCall) {
	t.mu.Lock()
	delete(t.calls, token)
	t.mu.Unlock()
	pc.mu.Lock()
	pc.done = true
	pc.mu.Unlock()
}

// deliver hands one piece of news to the call of token, if it still runs.
func (t *progressTable) deliver(token string, p tool.Progress) {
	t.mu.Lock()
	pc := t.calls[token]
	t.mu.Unlock()
	if pc != nil {
		pc.deliver(p)
	}
}

// deliver hands p to the call unless it has returned; news resets the
// call's idle timeout.
func (pc *progressCall) deliver(p tool.Progress) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if pc.done {
		return
	}
	if pc.alive != nil {
		pc.alive()
	}
	if pc.report != nil {
		pc.report(p)
	}
}

// progressNotification handles notifications/progress.
func (m *Manager) progressNotification(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	if req == nil || req.Params == nil {
		return
	}
	p := req.Params
	m.progress.deliver(fmt.Sprint(p.ProgressToken), tool.Progress{Progress: p.Progress, Total: p.Total, Message: p.Message})
}
