package host_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/ollamatest"
)

// manyTools are Go tools enough that a 4,096-token window's quarter holds
// only some of them: the model is offered a selection and a search tool.
func manyTools() []host.Tool {
	var tools []host.Tool
	for _, topic := range []string{"backups", "invoices", "payroll", "inventory", "shipping", "calendar", "contacts", "tickets",
		"billing", "reports", "printers", "badges", "parking", "meetings", "vendors", "licenses"} {
		tools = append(tools, host.NewTool("manage_"+topic, "Keeps the company's "+topic+": adds, changes or removes one by its identifier, with every option a large system offers for "+topic+".",
			func(context.Context, struct {
				ID     string `json:"id" jsonschema:"the record's identifier"`
				Action string `json:"action" jsonschema:"create, update, list or delete"`
				Note   string `json:"note,omitempty" jsonschema:"free text kept with the record"`
			}) (string, error) {
				return "done", nil
			}, host.ReadOnly()))
	}
	return tools
}

// sentTools is the tools of one recorded request, each as its JSON.
func sentTools(req api.ChatRequest) []string {
	out := make([]string, len(req.Tools))
	for i, t := range req.Tools {
		b, _ := json.Marshal(t)
		out[i] = string(b)
	}
	return out
}

// sentMessages is the messages of one recorded request, each as its JSON.
func sentMessages(req api.ChatRequest) []string {
	out := make([]string, len(req.Messages))
	for i, m := range req.Messages {
		b, _ := json.Marshal(m)
		out[i] = string(b)
	}
	return out
}

// startsWith reports where b stops starting with a: -1 when it does.
func divergence(a, b []string) int {
	for i := range a {
		if i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	return -1
}

func toolName(js string) string {
	var t api.Tool
	_ = json.Unmarshal([]byte(js), &t)
	return t.Function.Name
}

// Local engines reuse their prompt cache only for the unchanged start of a
// request, and the tools come near its start: every request of a turn
// must start with the one before it (the same tools in the same order,
// new ones appended; the same messages), and so must the first request
// of the next turn while the tools still fit.
func TestEachRequestStartsWithThePreviousOne(t *testing.T) {
	h, model, _ := newHost(t, host.Options{Tools: manyTools()}, noServers, func(c *config.Settings) {
		c.NumCtx, c.ToolShare, c.SystemPrompt = 4096, 0.25, "You help the company's office staff."
	})
	model.Enqueue(
		// Turn 1: a search, the tool it found, the answer.
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("mcphost__search_tools", map[string]any{"query": "backups"})}},
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("manage_backups", map[string]any{"id": "b1", "action": "create"})}},
		ollamatest.Reply{Content: "Invoice created, backup made."},
		// Turn 2: about the same things.
		ollamatest.Reply{Content: "Updated."},
	)
	var selected []host.ToolsSelected
	record := func(ev host.Event) {
		if ev, ok := ev.(host.ToolsSelected); ok {
			selected = append(selected, ev)
		}
	}
	for _, prompt := range []string{"Create an invoice for ACME", "Now update that invoice for ACME"} {
		if _, err := h.PromptFunc(context.Background(), prompt, record); err != nil {
			t.Fatal(err)
		}
	}
	reqs := model.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	if len(selected) == 0 || len(reqs[0].Tools) >= len(manyTools()) {
		t.Fatalf("the first request offered %d of %d tools: the test needs a selection", len(reqs[0].Tools), len(manyTools()))
	}
	for i := 1; i < len(reqs); i++ {
		before, now := sentTools(reqs[i-1]), sentTools(reqs[i])
		if k := divergence(before, now); k >= 0 {
			got := "nothing"
			if k < len(now) {
				got = toolName(now[k])
			}
			t.Errorf("request %d's tools do not start with request %d's: tool %d was %s, is %s\nbefore: %v\nnow:    %v",
				i+1, i, k+1, toolName(before[k]), got, names(reqs[i-1]), names(reqs[i]))
		}
		if k := divergence(sentMessages(reqs[i-1]), sentMessages(reqs[i])); k >= 0 {
			t.Errorf("request %d's messages do not start with request %d's: message %d differs", i+1, i, k+1)
		}
	}
	if !slices.Contains(names(reqs[1]), "manage_backups") {
		t.Errorf("the tool the search found was not offered: %v", names(reqs[1]))
	}
}

// When the next turn's request needs tools that do not fit beside the
// ones offered so far, some of those are dropped; the others keep their
// order, before the new ones, so that the prompt's start up to the first
// tool dropped stays the same, and the tools called stay.
func TestANewTurnKeepsTheToolsItCanInTheirPlaces(t *testing.T) {
	h, model, _ := newHost(t, host.Options{Tools: manyTools()}, noServers, func(c *config.Settings) {
		c.NumCtx, c.ToolShare = 4096, 0.25
	})
	model.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("manage_invoices", map[string]any{"id": "i1", "action": "create"})}},
		ollamatest.Reply{Content: "Created."},
		ollamatest.Reply{Content: "Listed."},
	)
	for _, prompt := range []string{"Create an invoice for ACME", "Use manage_licenses, manage_vendors, manage_parking and manage_meetings to list them"} {
		if _, err := h.PromptFunc(context.Background(), prompt, nil); err != nil {
			t.Fatal(err)
		}
	}
	reqs := model.Requests()
	before, last := names(reqs[len(reqs)-2]), names(reqs[len(reqs)-1])
	for _, want := range []string{"manage_licenses", "manage_vendors", "manage_parking", "manage_meetings", "manage_invoices"} {
		if !slices.Contains(last, want) {
			t.Errorf("the second turn was not offered %s: %v", want, last)
		}
	}
	var stayed []string
	for _, n := range before {
		if slices.Contains(last, n) {
			stayed = append(stayed, n)
		}
	}
	if len(stayed) == len(before) {
		t.Fatalf("no tool was dropped: the test needs a second turn whose tools do not fit beside the first's\nbefore: %v\nafter:  %v", before, last)
	}
	if !slices.Equal(last[:len(stayed)], stayed) {
		t.Errorf("the tools kept from the first turn should come first, in their order\nbefore: %v\nafter:  %v", before, last)
	}
	k := 0
	for k < len(before) && slices.Contains(last, before[k]) {
		k++
	}
	if k == 0 {
		t.Errorf("the first tool of the first turn (%s) was dropped: the whole prompt is read again\nbefore: %v\nafter:  %v", before[0], before, last)
	}
}

func names(req api.ChatRequest) []string {
	out := make([]string, len(req.Tools))
	for i, t := range req.Tools {
		out[i] = t.Function.Name
	}
	return out
}

// The tools offered fit their share by the estimate /tools and the
// context warning show, and that estimate is what the request sends: the
// bytes of its tools' JSON at 3 a token, within 10%.
func TestTheToolEstimateIsWhatIsSent(t *testing.T) {
	h, model, _ := newHost(t, host.Options{Tools: manyTools()}, noServers, func(c *config.Settings) {
		c.NumCtx, c.ToolShare = 4096, 0.25
	})
	model.Enqueue(ollamatest.Reply{Content: "Done."})
	var selected *host.ToolsSelected
	c := h.Conversation()
	// Before any request: the estimate is not yet corrected by the
	// engine's counts, as the selection's was not.
	costs := c.ToolTokens()
	if _, err := c.PromptFunc(context.Background(), "Create an invoice for ACME", func(ev host.Event) {
		if ev, ok := ev.(host.ToolsSelected); ok {
			selected = &ev
		}
	}); err != nil {
		t.Fatal(err)
	}
	var body struct {
		Tools json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(model.RequestBodies()[0], &body); err != nil {
		t.Fatal(err)
	}
	sent := len(body.Tools) / 3
	if selected == nil {
		t.Fatal("no selection: the test needs one")
	}
	if selected.Tokens > selected.Budget {
		t.Errorf("the offered tools take %d tokens by the estimate, over their share of %d", selected.Tokens, selected.Budget)
	}
	if lo, hi := sent*9/10, sent*11/10; selected.Tokens < lo || selected.Tokens > hi {
		t.Errorf("the offered tools were estimated at %d tokens; the request sent %d bytes of them, %d at 3 a token", selected.Tokens, len(body.Tools), sent)
	}
	// /tools shows each tool's cost by the same estimate.
	listed := 0
	for _, name := range selected.Offered {
		listed += costs[name]
	}
	if search := len(selected.Offered) - 1; listed > selected.Tokens || listed < selected.Tokens*8/10 {
		t.Errorf("/tools gives the %d offered tools %d tokens; the selection counted %d with the search tool", search, listed, selected.Tokens)
	}
}
