package runner

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/mcphost/mcphost/internal/budget"
	"github.com/mcphost/mcphost/internal/toolselect"
	"github.com/mcphost/mcphost/provider"
)

// SearchToolName is the tool the runner itself offers, beside the servers'
// tools, when it offers only some of them: the model calls it to find the
// others. No server's tool can be named so unless a server is named
// "mcphost"; the name then gets a number (mcphost__search_tools_2).
const SearchToolName = "mcphost__search_tools"

// Why a tool is offered when only some are (ToolsSelected.Reasons).
const (
	// ReasonNamed: the request names the tool.
	ReasonNamed = "named"
	// ReasonCalled: the model called it earlier in the conversation.
	ReasonCalled = "called"
	// ReasonFound: the search tool found it earlier in the turn.
	ReasonFound = "found"
	// ReasonRanked: it is among the best matches for the request.
	ReasonRanked = "ranked"
	// ReasonSpare: nothing in the request matched it, and there was room.
	ReasonSpare = "spare"
	// ReasonSearch: the search tool itself.
	ReasonSearch = "search"
	// ReasonKept: an earlier turn offered it and nothing in this request
	// matched it; it stays, in its place, so that the engine can reuse
	// its prompt cache.
	ReasonKept = "kept"
)

// The rankers of ToolsSelected.Ranker.
const (
	RankerLexical   = "lexical"
	RankerEmbedding = "embedding+lexical"
)

// ErrNoEmbeddingModel is what an Options.Embedder returns, wrapped, when
// it has no model to embed with (an embed-model of "auto" on an engine
// that has none): tools are then ranked by their words, without the
// warning a failing model gets.
var ErrNoEmbeddingModel = errors.New("no embedding model")

// searchResults is how many tools one search makes callable.
const searchResults = 5

// embedTimeout bounds one call to the embedding model; a model that has
// to be loaded first takes a few seconds.
const embedTimeout = 30 * time.Second

// maxEmbedQuery bounds the text of a request given to the embedding
// model: its start says what it wants.
const maxEmbedQuery = 2000

// selectionIndex is what choosing among one tool list needs: the ranking
// index, the search tool and, with an embedding model, each tool's vector.
type selectionIndex struct {
	index      *toolselect.Index
	pos        map[string]int // exposed name → position in offered
	search     provider.Tool
	searchCost int // raw estimate
	vectors    [][]float32
}

// selectionFor returns ts's selection index, building it on first use:
// a run whose tools fit never pays for it.
func (ts *toolSet) selectionFor() *selectionIndex {
	if ts.selection != nil {
		return ts.selection
	}
	docs := make([]toolselect.Doc, len(ts.source))
	pos := make(map[string]int, len(ts.source))
	for i, t := range ts.source {
		e := ts.entries[i]
		docs[i] = toolselect.Doc{Name: t.Name, Server: e.server, Tool: e.tool, Description: t.Description, Schema: t.Parameters}
		pos[t.Name] = i
	}
	name := SearchToolName
	for n := 2; ts.byName[name] != nil; n++ {
		name = fmt.Sprintf("%s_%d", SearchToolName, n)
	}
	search := provider.Tool{
		Name: name,
		// No count of the tools: the declaration stays the same when a
		// server's tools join, and so does the start of the prompt the
		// engine has cached.
		Description: "Find tools for a task. Only some of the tools are offered now; this searches all of them by name and description, " +
			"lists the best matches and makes them callable from your next step. Use it when no offered tool fits.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","description":"what you need to do, in a few words (e.g. \"create a github issue\")"}},"required":["query"]}`),
	}
	ts.selection = &selectionIndex{index: toolselect.NewIndex(docs), pos: pos, search: search, searchCost: budget.Tool(search)}
	return ts.selection
}

// turnSelection is what a turn knows about choosing its tools: its
// request, the ranking made for it and the tools its searches found.
type turnSelection struct {
	prompt, previous string
	// ranked is the ranking of ts's tools for the request; named the
	// tools the request names.
	ts     *toolSet
	ranked []toolselect.Hit
	named  []int
	ranker string
	// found are the tools the search tool found in this turn, by name.
	found []string
	// last is the offered set last reported, to report only changes;
	// sent the names of the tools of the turn's last request that
	// offered only some, nil before the first.
	last, sent []string
}

// newTurnSelection starts a turn's selection for prompt; previous is the
// user's message before it, if any, which the ranking reads at half weight
// (a follow-up such as "and now the other file" says little by itself).
func (r *Runner) newTurnSelection(prompt string) *turnSelection {
	t := &turnSelection{prompt: prompt}
	for i := len(r.history) - 2; i >= 0; i-- {
		if r.history[i].Role == provider.RoleUser {
			t.previous = r.history[i].Content
			break
		}
	}
	return t
}

// offer returns the tools to send with this step and their raw token
// estimate. When all of them would take more than the share of the window
// Options.ToolShare allows, they are the tools the request names, those
// called earlier in the conversation, those found by a search in this
// turn, then the best matches for the request while there is room, and
// the search tool; a ToolsSelected event says which and why whenever the
// set changes. search is the search tool's name when it is offered.
//
// The tools keep their place from one request to the next (see
// stableOrder and keepOrder): local engines reuse their prompt cache only
// for the unchanged start of a request, and the tools are rendered near
// its start, so a tool moved or dropped makes the engine read the whole
// prompt again.
func (r *Runner) offer(ctx context.Context, ts *toolSet, turn *turnSelection, step int, emit func(Event)) (tools []provider.Tool, raw int, search string) {
	window := r.window()
	if r.opts.ToolShare <= 0 || window <= 0 || len(ts.offered) == 0 {
		return r.stableOrder(ts), ts.tokens, ""
	}
	share := int(r.opts.ToolShare * float64(window))
	if r.estimator.Tokens(ts.tokens) <= share {
		return r.stableOrder(ts), ts.tokens, ""
	}
	sel := ts.selectionFor()
	if turn.ts != ts {
		r.rank(ctx, ts, turn, emit)
	}
	order, reasons, used := r.keepOrder(ts, turn, r.estimator.Raw(share))
	names := make([]string, len(order))
	tools = make([]provider.Tool, len(order))
	for k, i := range order {
		if i < 0 {
			tools[k] = sel.search
		} else {
			tools[k] = ts.offered[i]
		}
		names[k] = tools[k].Name
	}
	r.sent = names
	turn.sent = names
	if !slices.Equal(names, turn.last) {
		turn.last = names
		emit(ToolsSelected{Step: step, Offered: names, Reasons: reasons, Total: len(ts.offered),
			Tokens: r.estimator.Tokens(used), Budget: share, Ranker: turn.ranker})
	}
	return tools, used, sel.search.Name
}

// stableOrder returns all of ts's tools, those of the last request first
// and in its order, then the others in the toolbox's order: a server
// whose tools join (or a list that changed) moves no tool already sent.
func (r *Runner) stableOrder(ts *toolSet) []provider.Tool {
	prev := r.sent
	inOrder := len(prev) <= len(ts.offered)
	for k := 0; inOrder && k < len(prev); k++ {
		inOrder = ts.offered[k].Name == prev[k]
	}
	if inOrder {
		if len(prev) < len(ts.offered) {
			// A new slice: the turn's selection may hold the old one
			// (turnSelection.sent), which must not change under it.
			r.sent = toolNames(ts.offered)
		}
		return ts.offered
	}
	out := make([]provider.Tool, 0, len(ts.offered))
	placed := make([]bool, len(ts.offered))
	for _, name := range prev {
		if e, ok := ts.byName[name]; ok {
			if i := e.pos; !placed[i] {
				placed[i] = true
				out = append(out, ts.offered[i])
			}
		}
	}
	for i, t := range ts.offered {
		if !placed[i] {
			out = append(out, t)
		}
	}
	r.sent = toolNames(out)
	return out
}

// toolNames returns the names of tools, in order.
func toolNames(tools []provider.Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name
	}
	return out
}

// keepOrder chooses the tools of a request that offers only some, as
// positions in ts.offered (-1 for the search tool) in the order they are
// sent, with why each is offered and their raw estimate; room is the
// share in raw units.
//
// Within a turn the request starts with the previous one: every tool it
// offered stays in its place and the new ones (named, called, found) are
// appended, even past the share, since they are what the model asked
// for. At a new turn the previous request's tools stay in their places
// too, while they fit with the new request's picks; when they do not, the
// least relevant of them for the new request are dropped (one miss of the
// engine's prompt cache) and the new picks appended.
func (r *Runner) keepOrder(ts *toolSet, turn *turnSelection, room int) (order []int, reasons []string, used int) {
	sel := ts.selectionFor()
	n := len(ts.offered)
	// rank[i] is tool i's place in the request's ranking; score its score.
	rank := make([]int, n)
	score := make([]float64, n)
	for k, h := range turn.ranked {
		rank[h.Doc], score[h.Doc] = k, h.Score
	}
	pinned := make([]string, n)
	for _, i := range turn.named {
		pinned[i] = cmp.Or(pinned[i], ReasonNamed)
	}
	for name := range r.calledTools() {
		if i, ok := sel.pos[name]; ok {
			pinned[i] = cmp.Or(pinned[i], ReasonCalled)
		}
	}
	for _, name := range turn.found {
		if i, ok := sel.pos[name]; ok {
			pinned[i] = cmp.Or(pinned[i], ReasonFound)
		}
	}
	reason := func(i int, kept bool) string {
		switch {
		case i < 0:
			return ReasonSearch
		case pinned[i] != "":
			return pinned[i]
		case score[i] > 0:
			return ReasonRanked
		case kept:
			return ReasonKept
		}
		return ReasonSpare
	}
	cost := func(i int) int {
		if i < 0 {
			return sel.searchCost
		}
		return ts.entries[i].tokens
	}

	within := turn.sent != nil
	prev := r.sent
	if within {
		prev = turn.sent
	}
	in := make([]bool, n)
	hasSearch := false
	for _, name := range prev {
		switch i, ok := sel.pos[name]; {
		case name == sel.search.Name && !hasSearch:
			hasSearch = true
			order = append(order, -1)
		case ok && !in[i]:
			in[i] = true
			order = append(order, i)
		}
	}
	for _, i := range order {
		used += cost(i)
	}
	if !hasSearch {
		used += sel.searchCost
	}
	// evict drops the least relevant tool of order that nothing pins and
	// that ranks below place, and says whether there was one. Of those
	// that match nothing in the request, it drops the last: the engine's
	// cache then keeps the longest start.
	evict := func(place int) bool {
		worst := -1
		for k, i := range order {
			if i < 0 || pinned[i] != "" || rank[i] <= place {
				continue
			}
			if worst < 0 || score[i] <= 0 || rank[i] > rank[order[worst]] && score[order[worst]] > 0 {
				worst = k
			}
		}
		if worst < 0 {
			return false
		}
		in[order[worst]] = false
		used -= cost(order[worst])
		order = slices.Delete(order, worst, worst+1)
		return true
	}
	var added []int
	add := func(i int) {
		in[i] = true
		used += cost(i)
		added = append(added, i)
	}
	for i := range n {
		if pinned[i] != "" && !in[i] {
			for !within && used+cost(i) > room && evict(-1) {
			}
			add(i)
		}
	}
	if !within {
		// A share that shrank (another model, a corrected estimate)
		// drops tools too.
		for used > room && evict(-1) {
		}
		for _, h := range turn.ranked {
			i := h.Doc
			if in[i] {
				continue
			}
			if h.Score > 0 {
				for used+cost(i) > room && evict(rank[i]) {
				}
			}
			if used+cost(i) <= room {
				add(i)
			}
		}
	}
	// The new tools go in the toolbox's order, so that each server's
	// tools stand together, those the request matches before those it
	// does not: a later turn drops these first, from the end.
	spare := func(i int) int {
		if pinned[i] == "" && score[i] <= 0 {
			return 1
		}
		return 0
	}
	slices.SortFunc(added, func(a, b int) int { return cmp.Or(spare(a)-spare(b), a-b) })
	order = append(order, added...)
	if !hasSearch {
		order = append(order, -1)
	}
	reasons = make([]string, len(order))
	for k, i := range order {
		reasons[k] = reason(i, !within && i >= 0 && !slices.Contains(added, i))
	}
	return order, reasons, used
}

// rank orders ts's tools for the turn's request, and finds those it
// names.
func (r *Runner) rank(ctx context.Context, ts *toolSet, turn *turnSelection, emit func(Event)) {
	sel := ts.selectionFor()
	q := toolselect.NewQuery(turn.prompt)
	if turn.previous != "" {
		q.Add(turn.previous, 0.5)
	}
	turn.ts = ts
	turn.named = sel.index.Named(turn.prompt)
	turn.ranked, turn.ranker = r.rankQuery(ctx, ts, q, turn.prompt, emit)
}

// rankQuery ranks ts's tools for q, by words and, with an embedding model
// that works, by the meaning of text too.
func (r *Runner) rankQuery(ctx context.Context, ts *toolSet, q *toolselect.Query, text string, emit func(Event)) ([]toolselect.Hit, string) {
	sel := ts.selectionFor()
	hits := sel.index.Rank(q)
	if r.opts.Embedder == nil || r.embedFailed {
		return hits, RankerLexical
	}
	sims, err := r.similarities(ctx, sel, text)
	if err != nil {
		if ctx.Err() != nil {
			return hits, RankerLexical
		}
		if errors.Is(err, ErrNoEmbeddingModel) {
			r.embedFailed = true
			return hits, RankerLexical
		}
		// One failure is enough: a missing or broken model would
		// otherwise cost every turn a failed request.
		r.embedFailed = true
		emit(Warning{Message: fmt.Sprintf("tool selection: the embedding model failed (%v); tools are ranked by their words for the rest of this conversation", err)})
		return hits, RankerLexical
	}
	return toolselect.Fuse(hits, sims), RankerEmbedding
}

// similarities returns how close in meaning each tool is to text,
// embedding the tools first if they are not yet.
func (r *Runner) similarities(ctx context.Context, sel *selectionIndex, text string) ([]float64, error) {
	ctx, cancel := context.WithTimeout(ctx, embedTimeout)
	defer cancel()
	if sel.vectors == nil {
		vecs, err := r.opts.Embedder.Embed(ctx, sel.index.Texts())
		if err != nil {
			return nil, err
		}
		sel.vectors = vecs
	}
	if len(text) > maxEmbedQuery {
		text = text[:maxEmbedQuery]
	}
	qv, err := r.opts.Embedder.Embed(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	return toolselect.Similarities(qv[0], sel.vectors), nil
}

// calledTools returns the names of the tools called in the conversation so
// far, reading only the history added since the last call.
func (r *Runner) calledTools() map[string]bool {
	if r.called == nil {
		r.called = map[string]bool{}
	}
	for ; r.calledSeen < len(r.history); r.calledSeen++ {
		m := &r.history[r.calledSeen]
		for _, c := range m.ToolCalls {
			r.called[c.Name] = true
		}
		if m.Role == provider.RoleTool && m.ToolName != "" {
			r.called[m.ToolName] = true
		}
	}
	return r.called
}

// forgetCalls drops what calledTools knows, for a new history.
func (r *Runner) forgetCalls() {
	clear(r.called)
	r.calledSeen = 0
}

// isSearchCall reports whether a call's name means the search tool, in
// the spellings models use for names (see toolcall.Catalog).
func isSearchCall(name, search string) bool {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, p := range []string{"functions.", "default_api.", "tools."} {
		n = strings.TrimPrefix(n, p)
	}
	n = strings.ReplaceAll(n, "-", "_")
	if n == search || n == "search_tools" {
		return true
	}
	for _, sep := range []string{"__", "_", ".", "/", ":"} {
		if n == "mcphost"+sep+"search_tools" {
			return true
		}
	}
	return false
}

// searchQuery reads the query of a search call: its "query" argument, or
// its only text argument (small models rename it).
func searchQuery(args map[string]any) (string, bool) {
	if q, ok := args["query"].(string); ok {
		return strings.TrimSpace(q), strings.TrimSpace(q) != ""
	}
	var only string
	for _, v := range args {
		s, ok := v.(string)
		if !ok || only != "" {
			return "", false
		}
		only = s
	}
	return strings.TrimSpace(only), strings.TrimSpace(only) != ""
}

// searchTools answers a call of the search tool: the tools that best match
// query, which are offered from the next step of the turn on.
func (r *Runner) searchTools(ctx context.Context, ts *toolSet, turn *turnSelection, query string, emit func(Event)) ToolOutput {
	sel := ts.selectionFor()
	named := sel.index.Named(query)
	hits, _ := r.rankQuery(ctx, ts, toolselect.NewQuery(query), query, emit)
	picked := slices.Clone(named)
	for _, h := range hits {
		if len(picked) >= searchResults || h.Score <= 0 {
			break
		}
		if !slices.Contains(picked, h.Doc) {
			picked = append(picked, h.Doc)
		}
	}
	if len(picked) == 0 {
		return ToolOutput{Text: fmt.Sprintf("No tool matches %q. Try other words for what you need to do; the tools come from these servers: %s.", query, serverList(ts))}
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "Found %d tools; call them by these names from your next step:\n", len(picked))
	for _, i := range picked {
		t := ts.offered[i]
		if !slices.Contains(turn.found, t.Name) {
			turn.found = append(turn.found, t.Name)
		}
		fmt.Fprintf(&sb, "- %s: %s", t.Name, firstSentences(t.Description, 200))
		if args := argSummary(t.Parameters); args != "" {
			fmt.Fprintf(&sb, " Arguments: %s.", args)
		}
		sb.WriteByte('\n')
	}
	return ToolOutput{Text: strings.TrimRight(sb.String(), "\n")}
}

// serverList names the servers of ts with their tool counts.
func serverList(ts *toolSet) string {
	counts := map[string]int{}
	var order []string
	for _, e := range ts.entries {
		if counts[e.server] == 0 {
			order = append(order, e.server)
		}
		counts[e.server]++
	}
	parts := make([]string, len(order))
	for i, s := range order {
		parts[i] = fmt.Sprintf("%s (%d)", s, counts[s])
	}
	return strings.Join(parts, ", ")
}

// firstSentences cuts a description to about n bytes, at a sentence or
// word end.
func firstSentences(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	cut := s[:n]
	if i := strings.LastIndex(cut, ". "); i > n/2 {
		return cut[:i+1]
	}
	if i := strings.LastIndexByte(cut, ' '); i > 0 {
		cut = cut[:i]
	}
	return cut + "…"
}

// argSummary lists a schema's arguments: name, type, and whether required.
func argSummary(schema json.RawMessage) string {
	var s struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil || len(s.Properties) == 0 {
		return ""
	}
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		p := name
		if t, ok := s.Properties[name].Type.(string); ok {
			p += " (" + t
			if slices.Contains(s.Required, name) {
				p += ", required"
			}
			p += ")"
		} else if slices.Contains(s.Required, name) {
			p += " (required)"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}
