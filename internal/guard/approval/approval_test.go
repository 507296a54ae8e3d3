package approval

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mattn/go-runewidth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/servers"
	"github.com/mcphost/mcphost/tool"
)

func ptr[T any](v T) *T { return &v }

func TestPolicyMatch(t *testing.T) {
	p := Policy{
		Allow: []string{"fs__read_*", "everything__echo", "bash__ls"},
		Ask:   []string{"*__write_*", "fs__*"},
		Deny:  []string{"bash__*", "fs__read_*", "everything__echo"},
	}
	tests := []struct {
		names   []string
		want    Decision
		pattern string
		matched bool
	}{
		{[]string{"fs__read_file"}, Deny, "fs__read_*", true},            // same glob in allow and deny: deny
		{[]string{"everything__echo"}, Deny, "everything__echo", true},   // exact name in both: deny
		{[]string{"bash__ls"}, Allow, "bash__ls", true},                  // exact beats glob
		{[]string{"bash__rm"}, Deny, "bash__*", true},                    // only match
		{[]string{"fs__write_file"}, Ask, "*__write_*", true},            // "*__write_*" (9) beats "fs__*" (4)
		{[]string{"fs__stat"}, Ask, "fs__*", true},                       // only match
		{[]string{"git__status"}, Allow, "", false},                      // nothing matches
		{[]string{"in__touch_file", "in__touch.file"}, Allow, "", false}, // neither name matches
	}
	for _, tt := range tests {
		d, pat, ok := p.Match(tt.names...)
		if d != tt.want || pat != tt.pattern || ok != tt.matched {
			t.Errorf("Match(%q) = %s, %q, %v; want %s, %q, %v", tt.names, d, pat, ok, tt.want, tt.pattern, tt.matched)
		}
	}
	// The server's own name counts too: "touch.file" is exposed as touch_file.
	p = Policy{Deny: []string{"in__touch.file"}, Allow: []string{"in__*"}}
	if d, _, _ := p.Match("in__touch_file", "in__touch.file"); d != Deny {
		t.Errorf("a rule on the server's own tool name was not applied: %s", d)
	}
	// At equal specificity ask beats allow.
	p = Policy{Allow: []string{"x__*"}, Ask: []string{"x__*"}}
	if d, _, _ := p.Match("x__y"); d != Ask {
		t.Errorf("tie between allow and ask gave %s, want ask", d)
	}
}

// TestProjectRulesOnlyTighten: a project file's rules never loosen a
// rule of the user or the command line, whatever their specificity, but
// may make any verdict stricter.
func TestProjectRulesOnlyTighten(t *testing.T) {
	ro := &tool.Def{Annotations: &tool.Annotations{ReadOnlyHint: true}}
	tests := []struct {
		name    string
		user    Policy
		project Rules
		tool    string
		info    *tool.Def
		want    Decision
	}{
		{"exact project allow does not beat a user glob deny", Policy{Deny: []string{"sh__*"}}, Rules{Allow: []string{"sh__run"}}, "sh__run", nil, Deny},
		{"exact project allow does not beat a user ask", Policy{Ask: []string{"sh__*"}}, Rules{Allow: []string{"sh__run"}}, "sh__run", nil, Ask},
		{"project ask does not beat a user deny", Policy{Deny: []string{"sh__run"}}, Rules{Ask: []string{"sh__run"}}, "sh__run", nil, Deny},
		{"project deny tightens a user allow", Policy{Allow: []string{"fs__*"}}, Rules{Deny: []string{"fs__write_file"}}, "fs__write_file", nil, Deny},
		{"project ask tightens a user allow", Policy{Allow: []string{"fs__write_file"}}, Rules{Ask: []string{"fs__*"}}, "fs__write_file", nil, Ask},
		{"project deny tightens a default allow", Policy{}, Rules{Deny: []string{"srv__*"}}, "srv__read", ro, Deny},
		{"project allow decides where no user rule does", Policy{Deny: []string{"other__*"}}, Rules{Allow: []string{"srv__*"}}, "srv__write", nil, Allow},
		{"within the project, the most specific rule decides", Policy{}, Rules{Deny: []string{"srv__*"}, Allow: []string{"srv__read"}}, "srv__read", nil, Allow},
		{"yolo does not lift a user deny the project tries to allow", Policy{Deny: []string{"sh__*"}, Yolo: true}, Rules{Allow: []string{"sh__run"}}, "sh__run", nil, Deny},
	}
	for _, tt := range tests {
		p := tt.user
		p.Project = tt.project
		v := p.Decide(tt.info, false, tt.tool)
		if v.Decision != tt.want {
			t.Errorf("%s: %s (%s), want %s", tt.name, v.Decision, v.Why, tt.want)
		}
		if d, _, _ := p.Match(tt.tool); tt.want == Deny && d != Deny {
			t.Errorf("%s: Match = %s, so the tool would still be offered", tt.name, d)
		}
	}
	p := Policy{Allow: []string{"fs__*"}, Project: Rules{Deny: []string{"fs__write_file"}}}
	if why := p.Decide(nil, false, "fs__write_file").Why; !strings.Contains(why, "project") {
		t.Errorf("Why = %q, want it to name the project config", why)
	}
}

func TestDefaults(t *testing.T) {
	ro := &tool.Def{Annotations: &tool.Annotations{ReadOnlyHint: true}}
	roClosed := &tool.Def{Annotations: &tool.Annotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)}}
	writes := &tool.Def{Annotations: &tool.Annotations{DestructiveHint: ptr(false), OpenWorldHint: ptr(false)}}
	tests := []struct {
		name    string
		info    *tool.Def
		builtin bool
		want    Decision
	}{
		{"configured read-only", ro, false, Allow},
		{"configured, no annotations", &tool.Def{}, false, Ask},
		{"unknown tool", nil, false, Ask},
		{"configured, writes", writes, false, Ask},
		{"builtin read-only closed world", roClosed, true, Allow},
		{"builtin read-only open world (fetch)", ro, true, Ask},
		{"builtin writes", writes, true, Ask},
	}
	for _, tt := range tests {
		if got := (Policy{}).Decide(tt.info, tt.builtin, "s__t").Decision; got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
		// --yolo turns each ask into allow.
		if got := (Policy{Yolo: true}).Decide(tt.info, tt.builtin, "s__t").Decision; got != Allow {
			t.Errorf("%s with --yolo: %s, want allow", tt.name, got)
		}
	}
	// Rules beat defaults, and --yolo never overrides a deny.
	if got := (Policy{Ask: []string{"s__*"}}).Decide(roClosed, true, "s__t").Decision; got != Ask {
		t.Errorf("ask rule on a read-only tool: %s", got)
	}
	if got := (Policy{Deny: []string{"s__t"}, Yolo: true}).Decide(ro, false, "s__t").Decision; got != Deny {
		t.Errorf("deny with --yolo: %s", got)
	}
}

// fixture is a real manager connected to an in-process MCP server whose
// tools count their calls.
type fixture struct {
	m     *servers.Manager
	calls map[string]*atomic.Int32
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	f := &fixture{calls: map[string]*atomic.Int32{}}
	for name, ann := range map[string]*mcp.ToolAnnotations{
		"read":  {ReadOnlyHint: true, OpenWorldHint: ptr(false)},
		"write": nil,
		"drop":  {DestructiveHint: ptr(true)},
	} {
		n := &atomic.Int32{}
		f.calls[name] = n
		mcp.AddTool(srv, &mcp.Tool{Name: name, Annotations: ann}, func(context.Context, *mcp.CallToolRequest, map[string]any) (*mcp.CallToolResult, any, error) {
			n.Add(1)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: name + " done"}}}, nil, nil
		})
	}
	f.m = servers.NewManager([]config.ServerSpec{{Name: "srv", Transport: config.TransportBuiltin, Builtin: "test"}},
		servers.Options{Builtin: func(context.Context, config.ServerSpec) (*mcp.Server, error) { return srv, nil }})
	t.Cleanup(func() { f.m.Close() })
	if errs := f.m.Start(context.Background()); len(errs) > 0 {
		t.Fatal(errs)
	}
	return f
}

// records collects what an Observer hears.
type records struct {
	mu   sync.Mutex
	list []Record
}

func (r *records) Observe(rec Record) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.list = append(r.list, rec)
}

func (r *records) outcomes() []Outcome {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Outcome
	for _, rec := range r.list {
		out = append(out, rec.Outcome)
	}
	return out
}

func text(res *tool.Result) string {
	if res == nil || len(res.Content) == 0 {
		return ""
	}
	return res.Content[0].Text
}

func TestDeniedToolsAreNotOffered(t *testing.T) {
	f := newFixture(t)
	obs := &records{}
	tb := New(f.m, Options{Policy: Policy{Deny: []string{"srv__dr*"}}, Info: f.m, Observer: obs})
	var names []string
	for _, t := range tb.Tools() {
		names = append(names, t.Name)
	}
	if strings.Join(names, ",") != "srv__read,srv__write" && strings.Join(names, ",") != "srv__write,srv__read" {
		t.Errorf("offered %q, want read and write without the denied drop", names)
	}
	// A model that calls it anyway (from an old conversation) is refused.
	res, err := tb.Call(context.Background(), "srv__drop", nil)
	if err != nil || !res.IsError || !strings.Contains(text(res), "denied") {
		t.Errorf("call of a denied tool: %v, %q", err, text(res))
	}
	if f.calls["drop"].Load() != 0 {
		t.Error("the denied tool ran")
	}
	if got := obs.outcomes(); len(got) != 1 || got[0] != Denied {
		t.Errorf("outcomes = %v", got)
	}
}

func TestNoAskerRefusesAndSaysHowToAllow(t *testing.T) {
	f := newFixture(t)
	obs := &records{}
	var notices []string
	tb := New(f.m, Options{Info: f.m, Observer: obs, Notice: func(s string) { notices = append(notices, s) }})
	ctx := context.Background()

	res, err := tb.Call(ctx, "srv__read", map[string]any{})
	if err != nil || res.IsError || text(res) != "read done" {
		t.Fatalf("read-only tool: %v, %+v", err, res)
	}
	for range 2 {
		res, err = tb.Call(ctx, "srv__write", map[string]any{"x": 1})
		if err != nil || !res.IsError || !strings.Contains(text(res), "no one can be asked") {
			t.Errorf("write without an asker: %v, %q", err, text(res))
		}
	}
	if n := f.calls["write"].Load(); n != 0 {
		t.Errorf("write ran %d times without approval", n)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "--allow-tool 'srv__write'") || !strings.Contains(notices[0], "'srv__*'") {
		t.Errorf("notices = %q, want one naming the flag", notices)
	}
	if got := obs.outcomes(); len(got) != 3 || got[0] != Allowed || got[1] != Refused || got[2] != Refused {
		t.Errorf("outcomes = %v", got)
	}

	// An allow rule from the config or --allow-tool lets it run.
	tb = New(f.m, Options{Info: f.m, Policy: Policy{Allow: []string{"srv__write"}}})
	if res, _ := tb.Call(ctx, "srv__write", nil); res.IsError || f.calls["write"].Load() != 1 {
		t.Errorf("allowed write: %q, ran %d times", text(res), f.calls["write"].Load())
	}
}

// scriptedAsker answers from a list and records the questions.
type scriptedAsker struct {
	mu      sync.Mutex
	answers []ask.Approval
	asked   []ask.CallRequest
}

func (s *scriptedAsker) Ask(_ context.Context, req ask.CallRequest) (ask.Approval, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked = append(s.asked, req)
	if len(s.answers) == 0 {
		return ask.Approval{}, errors.New("asked more often than expected")
	}
	a := s.answers[0]
	s.answers = s.answers[1:]
	return a, nil
}

func TestAskerAnswers(t *testing.T) {
	f := newFixture(t)
	obs := &records{}
	asker := &scriptedAsker{answers: []ask.Approval{
		{Choice: ask.YesOnce},
		{Choice: ask.No},
		{Choice: ask.No, Reason: "use the staging copy"},
		{Choice: ask.YesSession},
		{Choice: ask.No},
	}}
	tb := New(f.m, Options{Info: f.m, Observer: obs})
	tb.SetAsker(asker)
	ctx := context.Background()
	call := func(name string) string {
		t.Helper()
		res, err := tb.Call(ctx, name, map[string]any{"path": "a.txt"})
		if err != nil {
			t.Fatal(err)
		}
		return text(res)
	}

	if got := call("srv__write"); got != "write done" {
		t.Errorf("yes once: %q", got)
	}
	if got := call("srv__write"); !strings.Contains(got, "the user refused") {
		t.Errorf("no: %q", got)
	}
	if got := call("srv__drop"); !strings.Contains(got, "use the staging copy") {
		t.Errorf("no with a reason: %q", got)
	}
	if got := call("srv__drop"); got != "drop done" {
		t.Errorf("yes for the session: %q", got)
	}
	if got := call("srv__drop"); got != "drop done" {
		t.Errorf("second call after yes for the session: %q", got)
	}
	if got := call("srv__read"); got != "read done" {
		t.Errorf("read-only: %q", got)
	}
	if len(asker.asked) != 4 {
		t.Errorf("asked %d times, want 4 (not for the remembered tool or the read-only one)", len(asker.asked))
	}
	q := asker.asked[0]
	if q.Name != "srv__write" || q.Server != "srv" || q.Tool != "write" || q.Arguments["path"] != "a.txt" || q.Why == "" {
		t.Errorf("request = %+v", q)
	}
	want := []Outcome{AskedYes, AskedNo, AskedNo, AskedYes, AskedYes, Allowed}
	if got := obs.outcomes(); len(got) != len(want) {
		t.Errorf("outcomes = %v, want %v", got, want)
	} else {
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("outcomes = %v, want %v", got, want)
				break
			}
		}
	}
	if f.calls["write"].Load() != 1 || f.calls["drop"].Load() != 2 {
		t.Errorf("write ran %d, drop %d times", f.calls["write"].Load(), f.calls["drop"].Load())
	}

	tb.ForgetSession()
	if got := call("srv__drop"); !strings.Contains(got, "refused") || len(asker.asked) != 5 {
		t.Errorf("after ForgetSession the tool was not asked again: %q", got)
	}
}

// blockingAsker answers ask.YesSession, and records how many questions were
// open at once.
type blockingAsker struct {
	open, most, total atomic.Int32
	entered           chan struct{} // one send per question
	release           chan struct{}
}

func (b *blockingAsker) Ask(ctx context.Context, _ ask.CallRequest) (ask.Approval, error) {
	n := b.open.Add(1)
	defer b.open.Add(-1)
	b.total.Add(1)
	b.entered <- struct{}{}
	for {
		m := b.most.Load()
		if n <= m || b.most.CompareAndSwap(m, n) {
			break
		}
	}
	select {
	case <-b.release:
		return ask.Approval{Choice: ask.YesSession}, nil
	case <-ctx.Done():
		return ask.Approval{}, ctx.Err()
	}
}

// countingInfo signals every annotation lookup, so a test knows how far
// concurrent calls have got.
type countingInfo struct {
	ToolInfoSource
	looked chan struct{}
}

func (c countingInfo) ToolInfo(name string) (tool.Def, bool) {
	c.looked <- struct{}{}
	return c.ToolInfoSource.ToolInfo(name)
}

func TestConcurrentCallsAskOneAtATime(t *testing.T) {
	f := newFixture(t)
	asker := &blockingAsker{entered: make(chan struct{}, 5), release: make(chan struct{})}
	info := countingInfo{f.m, make(chan struct{}, 100)}
	tb := New(f.m, Options{Info: info, Asker: asker})
	var wg sync.WaitGroup
	for range 5 {
		wg.Go(func() {
			if res, err := tb.Call(context.Background(), "srv__write", nil); err != nil || res.IsError {
				t.Errorf("call: %v, %q", err, text(res))
			}
		})
	}
	// Hold the first question open until every call has been decided (five
	// lookups; the question shows the definition its call was decided on):
	// the other four are now on their way to asking.
	<-asker.entered
	for range 5 {
		<-info.looked
	}
	// No event says "blocked on the question lock", so give a second
	// question a moment to appear; the test passes without it either way.
	select {
	case <-asker.entered:
		t.Error("a second question was opened while the first was on screen")
	case <-time.After(50 * time.Millisecond):
	}
	close(asker.release)
	wg.Wait()
	if asker.most.Load() != 1 {
		t.Errorf("%d questions were open at once, want 1", asker.most.Load())
	}
	if asker.total.Load() != 1 {
		t.Errorf("asked %d times; after yes for the session the waiting calls should run unasked", asker.total.Load())
	}
	if f.calls["write"].Load() != 5 {
		t.Errorf("write ran %d times, want 5", f.calls["write"].Load())
	}
}

func TestAskCancelled(t *testing.T) {
	f := newFixture(t)
	asker := &blockingAsker{entered: make(chan struct{}, 1), release: make(chan struct{})}
	tb := New(f.m, Options{Info: f.m, Asker: asker})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := tb.Call(ctx, "srv__write", nil); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if f.calls["write"].Load() != 0 {
		t.Error("a cancelled question ran the tool")
	}
}

func TestFormatArguments(t *testing.T) {
	args := map[string]any{
		"path":    "notes\x1b[31m.txt\x07",
		"content": "line one\nline\ttwo \u202eevil\n",
		"count":   3,
		"long":    strings.Repeat("x", 50),
	}
	got := FormatArguments(args, ArgumentsFormat{Width: 30})
	// The arguments that fit on one row come first: a file's path is
	// read before its content.
	want := strings.Join([]string{
		"▸ count: 3",
		"▸ path: notes␛[31m.txt␇",
		"▸ content: line one⏎",
		"┆ line⇥two <U+202E>evil⏎",
		"▸ long: xxxxxxxxxxxxxxxxxxxxx",
		"┆ xxxxxxxxxxxxxxxxxxxxxxxxxxx",
		"┆ xx",
	}, "\n")
	if got != want {
		t.Errorf("FormatArguments =\n%s\nwant\n%s", got, want)
	}
}

// TestFormattedArgumentsCannotForgeTheQuestion: whatever a value holds,
// every row starts with a mark, the value's own rows with the continuation
// mark, and no row is wider than asked (so the terminal does not wrap one
// into a row without a mark).
func TestFormattedArgumentsCannotForgeTheQuestion(t *testing.T) {
	forged := "ok\n? fs › read_file wants to run:\n▸ path: /etc/hosts\r  [y] yes once\x1b[1A\x1b[2K" + strings.Repeat("界", 100)
	out := FormatArguments(map[string]any{"command": forged, "z": "last"}, ArgumentsFormat{Width: 40})
	rows := strings.Split(out, "\n")
	for i, r := range rows {
		switch {
		case i == 0 && r != ArgumentMark+"z: last":
			t.Errorf("row %d = %q, want the short argument first", i, r)
		case i == 1 && !strings.HasPrefix(r, ArgumentMark+"command: "):
			t.Errorf("row %d = %q, want the argument's first row", i, r)
		case i > 1 && !strings.HasPrefix(r, ContinuationMark):
			t.Errorf("row %d = %q does not start with the continuation mark", i, r)
		case strings.ContainsAny(r, "\x1b\r\a"):
			t.Errorf("row %d = %q holds a control character", i, r)
		}
		if w := runewidth.StringWidth(r); w > 40 {
			t.Errorf("row %d is %d columns wide, more than 40: %q", i, w, r)
		}
	}
}

func TestFormatArgumentsFoldsLongValues(t *testing.T) {
	var lines []string
	for i := range 100 {
		lines = append(lines, fmt.Sprintf("line %02d", i))
	}
	out := FormatArguments(map[string]any{"content": strings.Join(lines, "\n")}, ArgumentsFormat{Width: 80, MaxRows: 10})
	rows := strings.Split(out, "\n")
	if len(rows) != 10 {
		t.Fatalf("%d rows, want 10:\n%s", len(rows), out)
	}
	for _, want := range []string{"▸ content (100 lines, 799 bytes): line 00", "line 05", "… 91 more rows (728 bytes) not shown; [v] shows everything …", "line 97", "line 99"} {
		if !strings.Contains(out, want) {
			t.Errorf("folded value lacks %q:\n%s", want, out)
		}
	}
}

// BenchmarkDecide measures the policy decision every call pays, with a
// dozen rules.
func BenchmarkDecide(b *testing.B) {
	p := Policy{
		Allow: []string{"fs__read_*", "fs__list_*", "everything__echo", "git__status", "git__log"},
		Ask:   []string{"*__write_*", "*__edit_*", "github__*"},
		Deny:  []string{"bash__*", "*__delete_*", "fetch__*", "everything__toggle-*"},
	}
	info := &tool.Def{Annotations: &tool.Annotations{ReadOnlyHint: true}}
	for b.Loop() {
		p.Decide(info, false, "everything__get-sum")
	}
}

// TestFormatArgumentsShowsHiddenCharacters: every character a terminal
// does not draw (format characters such as zero-width spaces and joiners,
// tag characters, bidi controls, line and paragraph separators, variation
// selectors) is shown by its code, so an approved value holds nothing the
// person did not see.
func TestFormatArgumentsShowsHiddenCharacters(t *testing.T) {
	hidden := []rune{0x200B, 0x200C, 0x200D, 0x200E, 0x2060, 0x2064, 0xFEFF, 0x202A, 0x2066, 0x2069,
		0x2028, 0x2029, 0xE0001, 0xE0041, 0xE007F, 0x00AD, 0xFE0F, 0x3164}
	for _, r := range hidden {
		got := FormatArguments(map[string]any{"command": "echo a" + string(r) + "b"}, ArgumentsFormat{})
		want := fmt.Sprintf("▸ command: echo a<U+%04X>b", r)
		if got != want {
			t.Errorf("U+%04X: FormatArguments = %q, want %q", r, got, want)
		}
	}
}
