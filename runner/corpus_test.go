package runner_test

// The recorded replies of toolcall/testdata/replies, replayed by the
// scripted Ollama server through the real Ollama backend and the runner
// against a real server-everything: each call must reach the server with
// the arguments the case wants, each reply that only talks about calls
// must stay the answer, and the streamed text must never show a call.

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/servers"
	"github.com/mcphost/mcphost/internal/toolcall"
	"github.com/mcphost/mcphost/internal/toolcall/corpus"
	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/ollamatest"
	"github.com/mcphost/mcphost/provider/ollama"
	"github.com/mcphost/mcphost/runner"
)

// callLeaks are pieces of call syntax that must not reach the user's
// screen once the call they belong to was recovered.
var callLeaks = append(toolcall.Markers(), `"name"`, "<parameter", "<arg_key>", "call:", "```", "<|message|>")

// familyScore counts one family's outcome.
type familyScore struct {
	calls, recovered int // calls wanted, calls that ran as wanted
	noCall, falseRun int // replies without calls, of which ran or refused something
}

func TestRecordedReplies(t *testing.T) {
	replies, err := corpus.Load(filepath.Join("..", "internal", "toolcall", "testdata", "replies"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	manager := servers.NewManager([]config.ServerSpec{mcptest.EverythingSpec(t, "everything")}, servers.Options{})
	defer manager.Close()
	if errs := manager.Start(ctx); len(errs) > 0 {
		t.Fatal(errs)
	}
	model := ollamatest.NewServer(ollamatest.Model{Name: "small", Capabilities: []string{"completion", "tools", "thinking"}})
	defer model.Close()
	backend, err := ollama.New(model.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	info, err := backend.Show(ctx, "small")
	if err != nil {
		t.Fatal(err)
	}
	info.Name = "small"

	scores := map[string]*familyScore{}
	for _, c := range replies {
		sc := scores[c.Family]
		if sc == nil {
			sc = &familyScore{}
			scores[c.Family] = sc
		}
		t.Run(c.Family+"/"+c.Name, func(t *testing.T) {
			model.Reset()
			model.Enqueue(ollamatest.Reply{Content: c.Content, Thinking: c.Thinking})
			if c.Want != nil {
				model.Enqueue(ollamatest.Reply{Content: "Done."})
			}
			r := runner.New(backend, manager, runner.Options{Model: info, NumCtx: 8192})
			var streamed strings.Builder
			var started []runner.ToolCallStarted
			var finished []runner.ToolCallFinished
			res, err := r.Run(ctx, "do it", func(ev runner.Event) {
				switch ev := ev.(type) {
				case runner.TextDelta:
					streamed.WriteString(ev.Text)
				case runner.ToolCallStarted:
					started = append(started, ev)
				case runner.ToolCallFinished:
					finished = append(finished, ev)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range finished {
				if f.Rejected || f.IsError {
					t.Errorf("%s %s was answered with an error: %s", f.Call.Name, corpus.Canonical(f.Call.Arguments), f.Output)
				}
			}
			// Calls start in the order the model made them.
			var ran []corpus.Call
			for _, s := range started {
				ran = append(ran, corpus.Call{Name: s.Call.Name, Args: corpus.Canonical(s.Call.Arguments)})
			}
			if c.Want == nil {
				sc.noCall++
				if len(finished) > 0 {
					sc.falseRun++
					t.Fatalf("a reply without calls ran %v", ran)
				}
				if res.Answer != c.Content || streamed.String() != c.Content {
					t.Errorf("answer %q, streamed %q; want the reply as it was", res.Answer, streamed.String())
				}
				return
			}
			sc.calls += len(c.Want)
			for i, w := range c.Want {
				if i < len(ran) && ran[i] == w {
					sc.recovered++
				}
			}
			if fmt.Sprint(ran) != fmt.Sprint(c.Want) {
				t.Fatalf("ran %v, want %v", ran, c.Want)
			}
			if res.Answer != "Done." || res.Recovered != len(c.Want) {
				t.Errorf("answer %q, %d recovered; want the model's next turn after %d recovered calls", res.Answer, res.Recovered, len(c.Want))
			}
			shown := strings.TrimSuffix(streamed.String(), "Done.")
			for _, leak := range callLeaks {
				if strings.Contains(shown, leak) {
					t.Errorf("the user saw the call: %q", shown)
					break
				}
			}
		})
	}
	logScores(t, scores)
}

// logScores logs recall and false calls per family, and in all.
func logScores(t *testing.T, scores map[string]*familyScore) {
	t.Helper()
	families := make([]string, 0, len(scores))
	for f := range scores {
		families = append(families, f)
	}
	sort.Strings(families)
	var all familyScore
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-12s %8s %12s %10s\n", "family", "recalled", "no-call", "false")
	for _, f := range families {
		s := scores[f]
		fmt.Fprintf(&b, "%-12s %4d/%-3d %8d %10d\n", f, s.recovered, s.calls, s.noCall, s.falseRun)
		all.calls += s.calls
		all.recovered += s.recovered
		all.noCall += s.noCall
		all.falseRun += s.falseRun
	}
	fmt.Fprintf(&b, "%-12s %4d/%-3d %8d %10d", "all", all.recovered, all.calls, all.noCall, all.falseRun)
	t.Log(b.String())
}
