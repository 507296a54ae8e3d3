package budget_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcphost/mcphost/internal/budget"
	"github.com/mcphost/mcphost/provider"
)

func TestEstimates(t *testing.T) {
	if got := budget.Text(strings.Repeat("a", 400)); got != 100 {
		t.Errorf("Text(400 bytes) = %d, want 100", got)
	}
	if got := budget.Text("abc"); got != 1 {
		t.Errorf("Text(3 bytes) = %d, want 1 (rounded up)", got)
	}
	params := json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}}}`) // 60 bytes
	tool := provider.Tool{Name: "everything__echo", Description: "Echoes back the input string", Parameters: params}
	// The JSON a request sends: 70 bytes of wrapping, the quoted name (18)
	// and description (30), the parameters (60); 178 bytes at 3 a token.
	if got, want := budget.Tool(tool), 60; got != want {
		t.Errorf("Tool = %d, want %d", got, want)
	}
	msg := provider.Message{Role: provider.RoleAssistant, Content: "ok", ToolCalls: []provider.ToolCall{{Name: "x", Arguments: map[string]any{"a": 1}}}}
	if got, want := budget.Message(msg), 4+1+1+10+5; got != want { // {"a":1} counted as 15 bytes
		t.Errorf("Message = %d, want %d", got, want)
	}
	if got := budget.Message(provider.Message{Images: [][]byte{{1}}}); got != 4+768 {
		t.Errorf("image message = %d", got)
	}
}

func TestEstimatorFollowsTheBackendCount(t *testing.T) {
	var e budget.Estimator
	if e.Tokens(1000) != 1000 {
		t.Errorf("uncorrected estimate changed")
	}
	e.Observe(1000, 1500, 8192)
	if e.Tokens(1000) != 1500 || e.Raw(1500) != 1000 {
		t.Errorf("after a count of 1.5x: Tokens(1000) = %d, Raw(1500) = %d", e.Tokens(1000), e.Raw(1500))
	}
	e.Observe(1000, 0, 8192) // not reported
	e.Observe(1000, 8100, 8192)
	if e.Ratio() != 1.5 {
		t.Errorf("a missing count or one at the window's edge (a cut prompt) changed the ratio to %v", e.Ratio())
	}
	e.Observe(100, 10000, 0)
	if e.Ratio() != 3 {
		t.Errorf("ratio %v not clamped to 3", e.Ratio())
	}
}

func msg(role provider.Role, content string, calls ...string) provider.Message {
	m := provider.Message{Role: role, Content: content}
	for _, c := range calls {
		m.ToolCalls = append(m.ToolCalls, provider.ToolCall{Name: c})
	}
	return m
}

func contents(ms []provider.Message) string {
	var s []string
	for _, m := range ms {
		s = append(s, m.Content)
	}
	return strings.Join(s, " ")
}

func TestFit(t *testing.T) {
	history := []provider.Message{
		msg(provider.RoleSystem, "sys"),
		msg(provider.RoleUser, "u1"), msg(provider.RoleAssistant, "a1"),
		msg(provider.RoleUser, "u2"), msg(provider.RoleAssistant, "c2", "t"), msg(provider.RoleTool, "r2"), msg(provider.RoleAssistant, "a2"),
		msg(provider.RoleUser, "u3"),
		msg(provider.RoleAssistant, "c3a", "t", "t"), msg(provider.RoleTool, "r3a1"), msg(provider.RoleTool, "r3a2"),
		msg(provider.RoleAssistant, "c3b", "t"), msg(provider.RoleTool, "r3b"),
	}
	tokens := make([]int, len(history))
	for i := range tokens {
		tokens[i] = 10
	}
	tests := []struct {
		limit   int
		want    string
		dropped int
		fits    bool
	}{
		{130, "sys u1 a1 u2 c2 r2 a2 u3 c3a r3a1 r3a2 c3b r3b", 0, true},
		{120, "sys u2 c2 r2 a2 u3 c3a r3a1 r3a2 c3b r3b", 2, true},
		// The second turn goes whole: its tool call never without its result.
		{100, "sys u3 c3a r3a1 r3a2 c3b r3b", 6, true},
		// Then the oldest call of the last turn, with both its results.
		{60, "sys u3 c3b r3b", 9, true},
		// Never the system prompt, the last user message or the latest call.
		{10, "sys u3 c3b r3b", 9, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint("limit=", tt.limit), func(t *testing.T) {
			kept, dropped, total := budget.Fit(history, tokens, tt.limit)
			if got := contents(kept); got != tt.want || dropped != tt.dropped {
				t.Errorf("kept %q (dropped %d), want %q (dropped %d)", got, dropped, tt.want, tt.dropped)
			}
			if total != 10*len(kept) || (total <= tt.limit) != tt.fits {
				t.Errorf("total %d for %d messages, fits %v, want fits %v", total, len(kept), total <= tt.limit, tt.fits)
			}
		})
	}
	if kept, _, _ := budget.Fit(history, tokens, 1000); &kept[0] != &history[0] {
		t.Errorf("a history that fits was copied")
	}
	// Without a system message the first turn is droppable as well.
	noSys := history[1:]
	if kept, _, _ := budget.Fit(noSys, tokens[1:], 60); contents(kept) != "u3 c3a r3a1 r3a2 c3b r3b" {
		t.Errorf("without system: kept %q", contents(kept))
	}
}

func TestCut(t *testing.T) {
	if got := budget.Cut("short", 100); got != "short" {
		t.Errorf("short text changed: %q", got)
	}
	if got := budget.Cut(strings.Repeat("x", 500), 0); len(got) != 500 {
		t.Errorf("limit 0 cut the text")
	}
	var lines []string
	for i := range 200 {
		lines = append(lines, fmt.Sprintf("line %03d", i))
	}
	text := strings.Join(lines, "\n") // 1799 bytes
	got := budget.Cut(text, 300)
	if !strings.HasPrefix(got, "line 000\n") || !strings.HasSuffix(got, "line 199") {
		t.Errorf("start or end lost: %q", got)
	}
	head, tail, ok := strings.Cut(got, "[… ")
	if !ok {
		t.Fatalf("no cut marker: %q", got)
	}
	var n int
	if _, err := fmt.Sscanf(tail, "%d bytes cut]", &n); err != nil {
		t.Fatalf("marker %q: %v", tail[:20], err)
	}
	kept := len(head) + len(tail[strings.Index(tail, "\n")+1:])
	if kept+n != len(text) || kept > 300 {
		t.Errorf("kept %d + cut %d != %d, or more than the budget kept", kept, n, len(text))
	}
	if !strings.HasSuffix(head, "\n") {
		t.Errorf("head not cut at a line break: %q", head[len(head)-10:])
	}
	// A cut never splits a character.
	runes := strings.Repeat("é", 1000)
	if c := budget.Cut(runes, 101); !utf8.ValidString(c) {
		t.Errorf("cut inside a character")
	}
}
