package e2e

// End-to-end: the recorded replies of toolcall/testdata/replies (the call
// formats of today's open models, and replies that only talk about calls)
// replayed through the real binary against a real server-everything.

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/internal/toolcall"
	"github.com/mcphost/mcphost/internal/toolcall/corpus"
	"github.com/mcphost/mcphost/ollamatest"
)

func TestRecordedRepliesThroughTheBinary(t *testing.T) {
	t.Parallel()
	replies, err := corpus.Load(filepath.Join("internal", "toolcall", "testdata", "replies"))
	if err != nil {
		t.Fatal(err)
	}
	config := everythingJSON(t)
	leaks := append(toolcall.Markers(), `"name"`, "<parameter", "<arg_key>", "call:", "```", "<|message|>")
	// A reply with no text (only thinking) is an empty answer: exit 7.
	run := func(t *testing.T, wantCode int, replies ...ollamatest.Reply) (outcome, []api.ChatRequest) {
		model := ollamatest.NewServer(ollamatest.Model{Name: "qwen3", Capabilities: []string{"completion", "tools", "thinking"}})
		defer model.Close()
		model.Enqueue(replies...)
		dir := t.TempDir()
		writeConfig(t, dir, ".mcp.json", config)
		out := runBinary(t, invocation{args: []string{"-m", "qwen3", "-p", "do it", "--yolo", "--max-steps", "50"}, dir: dir, host: model.URL})
		if out.code != wantCode {
			t.Fatalf("exit %d, want %d; stdout %q, stderr %q", out.code, wantCode, out.stdout, out.stderr)
		}
		return out, model.Requests()
	}

	type score struct{ calls, recovered, noCall, falseRun int }
	var mu sync.Mutex
	scores := map[string]*score{}
	families := map[string][]corpus.Reply{}
	for _, c := range replies {
		scores[c.Family] = &score{}
		families[c.Family] = append(families[c.Family], c)
	}
	t.Run("replies", func(t *testing.T) {
		for family, cases := range families {
			sc := scores[family]
			// A family's calls are one run: the model makes them one
			// step after another, and answers when it has all results.
			var calls []corpus.Reply
			var script []ollamatest.Reply
			for _, c := range cases {
				if c.Want != nil {
					calls = append(calls, c)
					script = append(script, ollamatest.Reply{Content: c.Content, Thinking: c.Thinking})
				}
			}
			if len(calls) > 0 {
				t.Run(family+"/calls", func(t *testing.T) {
					t.Parallel()
					out, reqs := run(t, 0, append(script, ollamatest.Reply{Content: "Done."})...)
					wanted := 0
					for i, c := range calls {
						wanted += len(c.Want)
						var ran []corpus.Call
						if i+1 < len(reqs) {
							ran = lastCalls(t, reqs[i+1])
						}
						mu.Lock()
						sc.calls += len(c.Want)
						for j, w := range c.Want {
							if j < len(ran) && ran[j] == w {
								sc.recovered++
							}
						}
						mu.Unlock()
						if fmt.Sprint(ran) != fmt.Sprint(c.Want) {
							t.Errorf("%s: the model's history records %v, want %v", c.Name, ran, c.Want)
						}
					}
					if len(reqs) != len(calls)+1 {
						t.Fatalf("%d model calls for %d replies with calls; stderr %q", len(reqs), len(calls), out.stderr)
					}
					// Each call ran, marked as recovered, and none failed.
					if n := strings.Count(out.stderr, "(recovered from text)"); n != wanted || strings.Contains(out.stderr, "✗") {
						t.Errorf("%d calls marked as recovered, want %d, none failed: %q", n, wanted, out.stderr)
					}
					if !strings.HasSuffix(out.stdout, "Done.\n") {
						t.Errorf("stdout %q does not end with the model's answer", out.stdout)
					}
					for _, leak := range leaks {
						if strings.Contains(out.stdout, leak) {
							t.Errorf("stdout shows a call (%q): %q", leak, out.stdout)
							break
						}
					}
				})
			}
			for _, c := range cases {
				if c.Want != nil {
					continue
				}
				t.Run(family+"/"+c.Name, func(t *testing.T) {
					t.Parallel()
					wantCode := 0
					if strings.TrimSpace(c.Content) == "" {
						wantCode = 7
					}
					out, reqs := run(t, wantCode, ollamatest.Reply{Content: c.Content, Thinking: c.Thinking})
					if wantCode == 7 && !strings.Contains(out.stderr, "the model returned an empty answer") {
						t.Errorf("an answer of only thinking is not said to be empty: stderr %q", out.stderr)
					}
					ranAny := len(reqs) != 1 || strings.Contains(out.stderr, "everything ›")
					mu.Lock()
					sc.noCall++
					if ranAny {
						sc.falseRun++
					}
					mu.Unlock()
					if ranAny {
						t.Fatalf("a reply without calls made %d model calls; stderr %q", len(reqs), out.stderr)
					}
					if want := c.Content + "\n"; out.stdout != want && (c.Content != "" || out.stdout != "") {
						t.Errorf("stdout %q, want the reply as it was", out.stdout)
					}
				})
			}
		}
	})

	names := make([]string, 0, len(scores))
	for f := range scores {
		names = append(names, f)
	}
	sort.Strings(names)
	var b strings.Builder
	var all score
	fmt.Fprintf(&b, "\n%-12s %8s %8s %6s\n", "family", "recalled", "no-call", "false")
	for _, f := range names {
		s := scores[f]
		fmt.Fprintf(&b, "%-12s %4d/%-3d %8d %6d\n", f, s.recovered, s.calls, s.noCall, s.falseRun)
		all.calls, all.recovered, all.noCall, all.falseRun = all.calls+s.calls, all.recovered+s.recovered, all.noCall+s.noCall, all.falseRun+s.falseRun
	}
	fmt.Fprintf(&b, "%-12s %4d/%-3d %8d %6d", "all", all.recovered, all.calls, all.noCall, all.falseRun)
	t.Log(b.String())
}

// lastCalls returns the calls of the last assistant message of a request:
// the calls the model made in the step before, as the history records
// them.
func lastCalls(t *testing.T, req api.ChatRequest) []corpus.Call {
	t.Helper()
	for i := len(req.Messages) - 1; i >= 0; i-- {
		m := req.Messages[i]
		if m.Role != "assistant" {
			continue
		}
		var out []corpus.Call
		for _, tc := range m.ToolCalls {
			out = append(out, corpus.Call{Name: tc.Function.Name, Args: canonicalArgs(t, tc.Function.Arguments)})
		}
		return out
	}
	return nil
}

// canonicalArgs writes a call's arguments as corpus.Canonical does.
func canonicalArgs(t *testing.T, args api.ToolCallFunctionArguments) string {
	t.Helper()
	b, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return corpus.Canonical(m)
}
