package host_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/ollamatest"
)

// approvalsOnly asks about tool calls (and says yes); every other
// question is Nobody's.
type approvalsOnly struct {
	ask.Nobody
	mu    *sync.Mutex
	asked *[]string
}

func (a approvalsOnly) ApproveCall(_ context.Context, req ask.CallRequest) (ask.Approval, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	*a.asked = append(*a.asked, req.Name)
	return ask.Approval{Choice: ask.YesOnce}, nil
}

// A program that asks only about tool calls embeds ask.Nobody: it is
// asked about the calls, and the servers' forms and sampling requests get
// the answers of a run without a person (declined, denied, each with a
// warning saying how to change it).
func TestAnAskerOfSomeQuestionsLeavesTheRestToThePolicies(t *testing.T) {
	var (
		mu       sync.Mutex
		asked    []string
		warnings []string
	)
	h, model, _ := newHost(t, host.Options{
		Asker: approvalsOnly{mu: &mu, asked: &asked},
		Warn: func(msg string) {
			mu.Lock()
			defer mu.Unlock()
			warnings = append(warnings, msg)
		},
	}, withServers(mcptest.EverythingSpec(t, "everything")), allowing("everything__trigger-*"),
		func(c *config.Settings) { c.Approval.Ask = []string{"everything__echo"} })
	model.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__echo", map[string]any{"message": "hello"})}},
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__trigger-elicitation-request", map[string]any{})}},
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("everything__trigger-sampling-request", map[string]any{"prompt": "Say hi."})}},
		ollamatest.Reply{Content: "Done."},
	)
	res, err := h.Prompt(context.Background(), "go")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ToolCalls) != 3 {
		t.Fatalf("tool calls %+v", res.ToolCalls)
	}
	if got := res.ToolCalls[0].Output; res.ToolCalls[0].IsError || !strings.Contains(got, "hello") {
		t.Errorf("the approved echo returned %q", got)
	}
	if got := res.ToolCalls[1].Output; !strings.Contains(got, "decline") {
		t.Errorf("the form was not declined: %q", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 1 || asked[0] != "everything__echo" {
		t.Errorf("the program was asked about %q", asked)
	}
	all := strings.Join(warnings, "\n")
	if !strings.Contains(all, `server "everything" asked for input`) || !strings.Contains(all, "--sampling allow") {
		t.Errorf("warnings %q", warnings)
	}
}

// An Asker that cannot ask about a tool call (ask.Nobody's ApproveCall)
// gets it refused as a Host without an Asker does, and the user told how
// to allow it.
func TestNobodyRefusesToolCallsAsWithoutAnAsker(t *testing.T) {
	var warnings []string
	h, model, _ := newHost(t, host.Options{
		Asker: ask.Nobody{},
		Warn:  func(msg string) { warnings = append(warnings, msg) },
	})
	model.Enqueue(
		ollamatest.Reply{ToolCalls: []api.ToolCall{ollamatest.Call("fs__write_file", map[string]any{"path": "x.txt", "content": "x"})}},
		ollamatest.Reply{Content: "done"},
	)
	res, err := h.Prompt(context.Background(), "write")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ToolCalls) != 1 || !strings.Contains(res.ToolCalls[0].Output, "no one can be asked") {
		t.Errorf("the call was not refused for want of someone to ask: %+v", res.ToolCalls)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "--allow-tool") {
		t.Errorf("warnings %q", warnings)
	}
}
