package servers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/internal/termtext"
)

// catalog is everything a server lists: its tools (unfiltered, with their
// definitions as sent), prompts, resources and resource templates, and
// which of those lists it offers at all. It is what the cache keeps.
type catalog struct {
	info      mcp.Implementation
	offers    offers
	tools     []*mcp.Tool
	raw       *rawTools
	prompts   []*mcp.Prompt
	resources []*mcp.Resource
	templates []*mcp.ResourceTemplate
}

// offers says what a server said it offers in initialize, beyond tools.
type offers struct {
	Prompts     bool `json:"prompts,omitempty"`
	Resources   bool `json:"resources,omitempty"`
	Logging     bool `json:"logging,omitempty"`
	Completions bool `json:"completions,omitempty"`
}

func offersOf(caps *mcp.ServerCapabilities) offers {
	if caps == nil {
		return offers{}
	}
	return offers{Prompts: caps.Prompts != nil, Resources: caps.Resources != nil, Completions: caps.Completions != nil,
		//lint:ignore SA1019 logging is current in MCP 2025-11-25, the version mcphost speaks
		Logging: caps.Logging != nil}
}

// listKind is a set of the lists a server keeps: what a list_changed
// notification asks to list again.
type listKind uint8

const (
	listTools listKind = 1 << iota
	listPrompts
	listResources
)

// The names of the lists, as Change.Kind gives them.
const (
	KindTools     = "tools"
	KindPrompts   = "prompts"
	KindResources = "resources"
)

// file is the cache file of the catalogue (without its date).
func (cat *catalog) file() (cachedList, bool) {
	list := cachedList{Format: cacheFormat, Offers: cat.offers, Prompts: cat.prompts, Resources: cat.resources, Templates: cat.templates}
	list.Server.Name, list.Server.Version = cat.info.Name, cat.info.Version
	for _, t := range cat.tools {
		r := cat.raw.get(t.Name)
		if r == nil {
			b, err := json.Marshal(t)
			if err != nil {
				return list, false
			}
			r = b
		}
		list.Tools = append(list.Tools, r)
	}
	return list, true
}

// fingerprint is the catalogue as the cache would write it, to tell
// whether a live one differs from the cached one.
func (cat *catalog) fingerprint() string {
	if cat == nil {
		return ""
	}
	list, ok := cat.file()
	if !ok {
		return ""
	}
	b, _ := json.Marshal(list)
	return string(b)
}

// The bounds of one list a server sends (tools, prompts, resources,
// resource templates), beyond the bound on each message: a server that
// pages without end, or lists more than a model could ever be offered,
// would otherwise grow mcphost until it is killed (endless pagination took
// it to 1.7 GB in 15 s). A legitimate server stays far below them.
const (
	maxListPages = 100
	maxListItems = 10000
	// maxListBytes bounds the items of one list together, as they
	// encode: 100 pages of 16 MiB each would still be too much to hold.
	maxListBytes = 64 << 20
)

// listTooLongError is a list past one of its bounds, worded for the user.
type listTooLongError struct{ msg string }

func (e *listTooLongError) Error() string { return e.msg }

func tooLong(format string, args ...any) error {
	return &listTooLongError{msg: fmt.Sprintf(format, args...)}
}

// listPages follows the pages of one list, what ("tools"), through page,
// within the bounds above; past one, the error says which and what to do.
func listPages[T any](ctx context.Context, what string, page func(ctx context.Context, cursor string) ([]T, string, error)) ([]T, error) {
	var (
		out    []T
		size   int
		cursor string
	)
	for pages := 1; ; pages++ {
		items, next, err := page(ctx, cursor)
		if err != nil {
			return nil, err
		}
		if len(out)+len(items) > maxListItems {
			return nil, tooLong("it lists more than %d %s, mcphost's limit; ask its maintainer to offer fewer", maxListItems, what)
		}
		if b, err := json.Marshal(items); err == nil {
			size += len(b)
		}
		if size > maxListBytes {
			return nil, tooLong("its list of %s is larger than %s, mcphost's limit; ask its maintainer to offer fewer", what, termtext.Bytes(maxListBytes))
		}
		out = append(out, items...)
		if next == "" {
			return out, nil
		}
		if pages >= maxListPages {
			return nil, tooLong("its list of %s goes on past %d pages, mcphost's limit (a server that pages without end is broken); ask its maintainer to fix it", what, maxListPages)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cursor = next
	}
}

// listCatalog lists what kinds ask for on connection c: tools (following
// pagination, each kept as sent), prompts, resources and templates when
// the server offers them, each list within the bounds of listPages. A
// server that offers prompts or resources but fails to list them only has
// none: its tools still work (a list past its bounds is also a warning).
func (m *Manager) listCatalog(ctx context.Context, c *conn, kinds listKind, into *catalog) error {
	sess := c.sess
	if kinds&listTools != 0 {
		tools, err := listPages(ctx, "tools", func(ctx context.Context, cursor string) ([]*mcp.Tool, string, error) {
			res, err := sess.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
			if err != nil {
				return nil, "", err
			}
			return res.Tools, res.NextCursor, nil
		})
		if err != nil {
			if _, ok := errors.AsType[*listTooLongError](err); ok {
				return err
			}
			return fmt.Errorf("listing tools: %w", err)
		}
		into.tools, into.raw = tools, c.raw
	}
	// failed drops a list the server offers but could not list.
	failed := func(what string, err error) {
		if _, ok := errors.AsType[*listTooLongError](err); ok {
			m.warn(fmt.Sprintf("server %q: %v: its %s are not offered", c.server, err, what))
			return
		}
		m.log.Debug("listing "+what+" failed", "server", c.server, "error", err)
	}
	if kinds&listPrompts != 0 && into.offers.Prompts {
		prompts, err := listPages(ctx, "prompts", func(ctx context.Context, cursor string) ([]*mcp.Prompt, string, error) {
			res, err := sess.ListPrompts(ctx, &mcp.ListPromptsParams{Cursor: cursor})
			if err != nil {
				return nil, "", err
			}
			return res.Prompts, res.NextCursor, nil
		})
		if err != nil {
			failed("prompts", err)
		}
		into.prompts = prompts
	}
	if kinds&listResources != 0 && into.offers.Resources {
		resources, err := listPages(ctx, "resources", func(ctx context.Context, cursor string) ([]*mcp.Resource, string, error) {
			res, err := sess.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
			if err != nil {
				return nil, "", err
			}
			return res.Resources, res.NextCursor, nil
		})
		if err != nil {
			failed("resources", err)
		}
		into.resources = resources
		templates, err := listPages(ctx, "resource templates", func(ctx context.Context, cursor string) ([]*mcp.ResourceTemplate, string, error) {
			res, err := sess.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: cursor})
			if err != nil {
				return nil, "", err
			}
			return res.ResourceTemplates, res.NextCursor, nil
		})
		if err != nil {
			failed("resource templates", err)
		}
		into.templates = templates
	}
	return ctx.Err()
}

// Change is a change of one server's list that the server announced
// (notifications/…/list_changed) and mcphost has listed again. Names are
// the server's own.
type Change struct {
	Server string
	// Kind is KindTools, KindPrompts or KindResources (resources and
	// resource templates).
	Kind           string
	Added, Removed []string
}

// listChanged handles a server's list_changed notification: the list is
// fetched again at once (one refresh at a time per server; notifications
// that come meanwhile are folded into one more, after the one in flight),
// so the lists are always fetched after the last notification, however
// many come.
func (m *Manager) listChanged(sess *mcp.ClientSession, kind listKind) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[sess]
	if s == nil || m.closed {
		return
	}
	s.dirty |= kind
	m.refreshLocked(s)
}

// refreshLocked starts the refresh of s's dirty lists unless one runs or
// s is not published yet (bringUp calls it again once it is). The caller
// holds m.mu.
func (m *Manager) refreshLocked(s *server) {
	if s.refreshing || s.dirty == 0 || s.cur == nil || m.closed {
		return
	}
	s.refreshing = true
	m.work.Add(1)
	go m.refresh(s)
}

// A list that fails to be fetched again is tried again, refreshRetries
// times at most, after refreshDelay, then twice that, and so on: a
// server busy with its own flood of notifications may fail a request, and
// its lists must not stay stale for want of another notification.
const (
	refreshRetries = 4
	refreshDelay   = 200 * time.Millisecond
)

// refresh lists s's dirty lists again until none is dirty, publishing
// each result. What changed is told to OnChange apart (see tell), so a
// slow listener never holds up the next listing.
func (m *Manager) refresh(s *server) {
	defer m.work.Done()
	failures := 0
	for {
		m.mu.Lock()
		kinds, c := s.dirty, s.cur
		s.dirty = 0
		if kinds == 0 || c == nil || m.closed {
			s.refreshing = false
			s.notifyLocked() // for calls waiting for the lists to settle
			m.mu.Unlock()
			return
		}
		next := *s.cat
		m.mu.Unlock()

		ctx, cancel := context.WithTimeout(c.calls, startTimeout(s.spec))
		err := m.listCatalog(ctx, c, kinds, &next)
		cancel()
		if err != nil {
			m.log.Debug("listing again after list_changed failed", "server", s.spec.Name, "error", err)
			if c.calls.Err() != nil || m.life.Err() != nil {
				continue // stopped on purpose: the next connection lists anew
			}
			if _, tooLong := errors.AsType[*listTooLongError](err); tooLong || failures >= refreshRetries {
				m.warn(fmt.Sprintf("server %q said its lists changed, but listing them again failed: %v; mcphost goes on with the lists it had (/mcp restart %s lists them anew)", s.spec.Name, err, s.spec.Name))
				failures = 0
				continue
			}
			m.mu.Lock()
			s.dirty |= kinds // still to be listed, with whatever came meanwhile
			m.mu.Unlock()
			wait := time.NewTimer(refreshDelay << failures)
			failures++
			select {
			case <-wait.C:
			case <-c.calls.Done():
				wait.Stop()
			case <-m.life.Done():
				wait.Stop()
			}
			continue
		}
		failures = 0
		m.mu.Lock()
		if s.cur != c {
			m.mu.Unlock()
			continue
		}
		changes := diffCatalog(s.spec.Name, s.cat, &next)
		m.publishLocked(s, &next)
		for _, ch := range changes {
			m.log.Debug("server list changed", "server", ch.Server, "list", ch.Kind, "added", ch.Added, "removed", ch.Removed)
		}
		m.tellLocked(s, changes)
		m.mu.Unlock()
	}
}

// tellLocked hands changes to OnChange, one at a time per server, on a
// goroutine of their own. While the listener is busy, further changes of
// the same list are merged into the one waiting, so the news stays
// bounded however often the server changes. The caller holds m.mu.
func (m *Manager) tellLocked(s *server, changes []Change) {
	if m.onChange == nil || len(changes) == 0 {
		return
	}
	for _, ch := range changes {
		i := slices.IndexFunc(s.news, func(n Change) bool { return n.Kind == ch.Kind })
		if i < 0 {
			s.news = append(s.news, ch)
			continue
		}
		s.news[i] = mergeChanges(s.news[i], ch)
	}
	if s.telling || m.closed {
		return
	}
	s.telling = true
	m.work.Add(1)
	go m.tell(s, m.onChange)
}

// tell tells onChange of s's news until there is none.
func (m *Manager) tell(s *server, onChange func(Change)) {
	defer m.work.Done()
	for {
		m.mu.Lock()
		var ch Change
		for len(s.news) > 0 && ch.Server == "" {
			ch, s.news = s.news[0], s.news[1:]
			if len(ch.Added) == 0 && len(ch.Removed) == 0 {
				ch = Change{} // merged into nothing
			}
		}
		if ch.Server == "" {
			s.telling = false
			m.mu.Unlock()
			return
		}
		m.mu.Unlock()
		onChange(ch)
	}
}

// mergeChanges is the change from before a to after b: a name added and
// then removed is neither, and so is one removed and then added again.
func mergeChanges(a, b Change) Change {
	out := Change{Server: a.Server, Kind: a.Kind}
	for _, n := range a.Added {
		if !slices.Contains(b.Removed, n) {
			out.Added = append(out.Added, n)
		}
	}
	for _, n := range b.Added {
		if !slices.Contains(a.Removed, n) && !slices.Contains(out.Added, n) {
			out.Added = append(out.Added, n)
		}
	}
	for _, n := range a.Removed {
		if !slices.Contains(b.Added, n) {
			out.Removed = append(out.Removed, n)
		}
	}
	for _, n := range b.Removed {
		if !slices.Contains(a.Added, n) && !slices.Contains(out.Removed, n) {
			out.Removed = append(out.Removed, n)
		}
	}
	return out
}

// refreshWait bounds how long a call waits for its server's lists to be
// listed again after the server said, during the call, that they changed.
const refreshWait = 5 * time.Second

// awaitLists waits until s has no list left to list again, so that a call
// that changed the server's tools returns only once the model can see the
// new ones. It returns at once when nothing changed.
func (m *Manager) awaitLists(ctx context.Context, s *server) {
	var timeout <-chan time.Time
	for {
		m.mu.RLock()
		busy, changed := s.refreshing || (s.dirty != 0 && s.cur != nil), s.changed
		m.mu.RUnlock()
		if !busy {
			return
		}
		if timeout == nil {
			t := time.NewTimer(refreshWait)
			defer t.Stop()
			timeout = t.C
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return
		case <-timeout:
			return
		}
	}
}

// publishLocked makes cat the server's catalogue: its tools (filtered),
// prompts and resources as the others see them, the exposed names, and
// the cache when it differs. The caller holds m.mu.
func (m *Manager) publishLocked(s *server, cat *catalog) {
	s.cat = cat
	s.setTools(cat.tools, cat.raw)
	s.setLists(cat)
	if fp := cat.fingerprint(); fp != s.cacheFP && s.cached == nil {
		s.cacheFP = fp
		m.cache.store(s.spec, cat)
	}
	m.rebuildLocked()
}

// diffCatalog says what changed from old to new, list by list.
func diffCatalog(server string, old, new *catalog) []Change {
	var out []Change
	add := func(kind string, before, after []string) {
		added, removed := diffNames(before, after)
		if len(added) > 0 || len(removed) > 0 {
			out = append(out, Change{Server: server, Kind: kind, Added: added, Removed: removed})
		}
	}
	if old == nil {
		old = &catalog{}
	}
	add(KindTools, names(old.tools, func(t *mcp.Tool) string { return t.Name }), names(new.tools, func(t *mcp.Tool) string { return t.Name }))
	add(KindPrompts, names(old.prompts, func(p *mcp.Prompt) string { return p.Name }), names(new.prompts, func(p *mcp.Prompt) string { return p.Name }))
	add(KindResources,
		append(names(old.resources, func(r *mcp.Resource) string { return r.URI }), names(old.templates, func(t *mcp.ResourceTemplate) string { return t.URITemplate })...),
		append(names(new.resources, func(r *mcp.Resource) string { return r.URI }), names(new.templates, func(t *mcp.ResourceTemplate) string { return t.URITemplate })...))
	return out
}

func names[T any](items []T, name func(T) string) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		out = append(out, name(it))
	}
	return out
}

// diffNames returns the names only in after, and those only in before.
func diffNames(before, after []string) (added, removed []string) {
	for _, n := range after {
		if !slices.Contains(before, n) {
			added = append(added, n)
		}
	}
	for _, n := range before {
		if !slices.Contains(after, n) {
			removed = append(removed, n)
		}
	}
	return added, removed
}

// errNoSuchServer is wrapped by the errors of calls naming an unknown
// server.
var errNoSuchServer = errors.New("no such server")

// serverNamed returns the server of that name.
func (m *Manager) serverNamed(name string) (*server, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	s := m.byName[name]
	if s == nil {
		var known []string
		for _, o := range m.servers {
			known = append(known, o.spec.Name)
		}
		return nil, fmt.Errorf("%w %q (servers: %s)", errNoSuchServer, name, orNone(known))
	}
	return s, nil
}
