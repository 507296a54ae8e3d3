// MCP 2026-07-28 (SEP-2577) deprecates roots, sampling and logging; mcphost
// negotiates 2025-11-25, where they are current, and its users ask for them.
//lint:file-ignore SA1019 roots, sampling and logging are part of the protocol version mcphost speaks

package servers

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/internal/termtext"
)

// newClient returns a go-sdk client with every handler the manager has:
// what servers may ask (elicitation, sampling, roots) and what they may
// tell (list changes, log messages, progress). With roots, the client
// offers them (and says when they change); without, it offers none.
func (m *Manager) newClient(roots []string) *mcp.Client {
	caps := &mcp.ClientCapabilities{}
	if len(roots) > 0 {
		caps.RootsV2 = &mcp.RootCapabilities{ListChanged: true}
	}
	opts := &mcp.ClientOptions{
		Logger:       m.log,
		Capabilities: caps,
		ToolListChangedHandler: func(_ context.Context, req *mcp.ToolListChangedRequest) {
			m.listChanged(req.Session, listTools)
		},
		PromptListChangedHandler: func(_ context.Context, req *mcp.PromptListChangedRequest) {
			m.listChanged(req.Session, listPrompts)
		},
		ResourceListChangedHandler: func(_ context.Context, req *mcp.ResourceListChangedRequest) {
			m.listChanged(req.Session, listResources)
		},
		LoggingMessageHandler:       m.logMessage,
		ProgressNotificationHandler: m.progressNotification,
	}
	if m.elicit != nil {
		// A handler makes the SDK advertise elicitation; both modes are
		// offered, since the chat can show a URL.
		opts.ElicitationHandler = m.elicitHandler(m.elicit)
		opts.ElicitationCompleteHandler = m.elicitationComplete
		caps.Elicitation = &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}}
	}
	if m.sample != nil {
		opts.CreateMessageHandler = m.samplingHandler
	}
	c := mcp.NewClient(m.impl, opts)
	c.AddRoots(rootsOf(roots)...)
	addTaskMethods(c)
	return c
}

// rootsOf turns directories into MCP roots: file URIs of their absolute
// paths, named by their last element.
func rootsOf(dirs []string) []*mcp.Root {
	var out []*mcp.Root
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			abs = d
		}
		p := filepath.ToSlash(abs)
		if !strings.HasPrefix(p, "/") {
			p = "/" + p // a Windows drive: file:///C:/dir
		}
		out = append(out, &mcp.Root{URI: (&url.URL{Scheme: "file", Path: p}).String(), Name: filepath.Base(abs)})
	}
	return out
}

// SetRoots changes the directories offered to server name as its roots
// (MCP roots) and tells the server they changed. A server that was not
// offered roots before learns of them when it is restarted, which
// happens at once when it runs; nil or empty takes them all away.
func (m *Manager) SetRoots(ctx context.Context, name string, dirs []string) error {
	m.mu.Lock()
	s := m.byName[name]
	if s == nil {
		m.mu.Unlock()
		return fmt.Errorf("no server %q", name)
	}
	old, client := s.roots, s.client
	s.roots = slices.Clone(dirs)
	offered := client != m.client
	if !offered && len(dirs) > 0 {
		s.client = m.newClient(dirs)
	}
	running := s.cur != nil
	m.mu.Unlock()
	switch {
	case offered:
		// The SDK tells the server, once per change.
		var gone []string
		for _, r := range rootsOf(old) {
			gone = append(gone, r.URI)
		}
		client.RemoveRoots(gone...)
		client.AddRoots(rootsOf(dirs)...)
		return nil
	case len(dirs) > 0 && running:
		return m.Restart(ctx, name)
	}
	return nil
}

// Roots returns the directories offered to server name as its roots.
func (m *Manager) Roots(name string) []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if s := m.byName[name]; s != nil {
		return slices.Clone(s.roots)
	}
	return nil
}

// logLevels orders MCP's log levels (RFC 5424's, least severe first).
var logLevels = []mcp.LoggingLevel{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// severity is the place of level among logLevels; -1 for an unknown one.
func severity(level mcp.LoggingLevel) int { return slices.Index(logLevels, level) }

// setLogLevel asks a server that offers logging to send the messages of
// the manager's level and above. A refusal only leaves the server's own
// choice.
func (m *Manager) setLogLevel(ctx context.Context, s *server, sess *mcp.ClientSession) {
	if err := sess.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: mcp.LoggingLevel(m.logLevel)}); err != nil {
		m.log.Debug("logging/setLevel failed", "server", s.spec.Name, "level", m.logLevel, "error", err)
	}
}

// logMessage puts a server's log message (notifications/message) into
// its log, and shows those at error level and above as warnings.
func (m *Manager) logMessage(_ context.Context, req *mcp.LoggingMessageRequest) {
	if req == nil || req.Params == nil {
		return
	}
	m.mu.RLock()
	s := m.sessions[req.Session]
	m.mu.RUnlock()
	if s == nil {
		return
	}
	p := req.Params
	text := logText(p.Data)
	line := fmt.Sprintf("[%s] %s", p.Level, text)
	if p.Logger != "" {
		line = fmt.Sprintf("[%s] %s: %s", p.Level, p.Logger, text)
	}
	m.log.Debug("server log message", "server", s.spec.Name, "level", p.Level, "logger", p.Logger, "message", text)
	if severity(p.Level) >= severity("error") {
		m.warn(fmt.Sprintf("server %q logged %s: %s", s.spec.Name, strings.ToUpper(string(p.Level)), termtext.Line(text)))
	}
	s.logs.add(termtext.Line(line))
}

// logText is a log message's data as one line: a string as it is,
// anything else as JSON.
func logText(data any) string {
	if s, ok := data.(string); ok {
		return s
	}
	b, err := json.Marshal(data)
	if err != nil {
		return fmt.Sprint(data)
	}
	return string(b)
}
