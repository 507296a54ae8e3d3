package servers

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcphost/mcphost/ask"
	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/sampling"
	"github.com/mcphost/mcphost/mcptest"
	"github.com/mcphost/mcphost/tool"
)

// TestEverythingFeatures drives every MCP feature server-everything shows
// beyond tools, over stdio and Streamable HTTP: prompts (with arguments
// and completion), resources and templates, progress, tasks, sampling,
// URL elicitation and roots.
func TestEverythingFeatures(t *testing.T) {
	httpURL := mcptest.StartEverything(t, "streamableHttp")
	stdio := mcptest.EverythingSpec(t, "everything")
	stdio.Roots = []string{t.TempDir()}
	for _, spec := range []config.ServerSpec{stdio, {Name: "everything", Transport: config.TransportHTTP, URL: httpURL, Roots: stdio.Roots}} {
		t.Run(string(spec.Transport), func(t *testing.T) { everythingFeatures(t, spec) })
	}
}

func everythingFeatures(t *testing.T, spec config.ServerSpec) {
	var (
		mu       sync.Mutex
		sampled  []ask.SamplingRequest
		elicited []ask.FormRequest
		warnings []string
	)
	m := NewManager([]config.ServerSpec{spec}, Options{
		Sampling: func(_ context.Context, req ask.SamplingRequest) (sampling.Result, error) {
			mu.Lock()
			defer mu.Unlock()
			sampled = append(sampled, req)
			if strings.Contains(req.Summary(200), "refuse") {
				return sampling.Result{}, sampling.ErrDenied
			}
			return sampling.Result{Text: "forty-two", Model: "tiny"}, nil
		},
		Elicitation: func(_ context.Context, req ask.FormRequest) (ask.FormAnswer, error) {
			mu.Lock()
			defer mu.Unlock()
			elicited = append(elicited, req)
			if strings.Contains(req.Message, "interpretations") {
				return ask.FormAnswer{Action: ask.Accept, Content: map[string]any{"interpretation": "snake"}}, nil
			}
			return ask.FormAnswer{Action: ask.Accept}, nil
		},
		Warn: func(s string) {
			mu.Lock()
			defer mu.Unlock()
			warnings = append(warnings, s)
		},
	})
	t.Cleanup(func() { m.Close() })
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	if errs := m.Start(ctx); len(errs) > 0 {
		t.Fatal(errs)
	}

	t.Run("prompts", func(t *testing.T) {
		var names []string
		for _, p := range m.Prompts() {
			names = append(names, p.Name)
		}
		for _, want := range []string{"everything__simple-prompt", "everything__args-prompt", "everything__completable-prompt", "everything__resource-prompt"} {
			if !slices.Contains(names, want) {
				t.Errorf("prompts %q lack %s", names, want)
			}
		}
		res, err := m.GetPrompt(ctx, "everything__args-prompt", map[string]string{"city": "Paris", "state": "TX"})
		if err != nil || len(res.Messages) == 0 || !strings.Contains(res.Messages[0].Content.Text, "Paris") {
			t.Errorf("args-prompt = %+v, %v", res, err)
		}
		if _, err := m.GetPrompt(ctx, "everything__args-prompt", nil); err == nil || !strings.Contains(err.Error(), "city=") {
			t.Errorf("args-prompt without its city: %v", err)
		}
		res, err = m.GetPrompt(ctx, "everything__resource-prompt", map[string]string{"resourceType": "Text", "resourceId": "2"})
		if err != nil || !slices.ContainsFunc(res.Messages, func(pm tool.PromptMessage) bool { return pm.Content.Kind == tool.Resource && pm.Content.URI != "" }) {
			t.Errorf("resource-prompt = %+v, %v", res, err)
		}
		comp, err := m.CompletePrompt(ctx, "everything__completable-prompt", "department", "E", nil)
		if err != nil || !slices.Equal(comp.Values, []string{"Engineering"}) {
			t.Errorf("completion of department E = %+v, %v", comp, err)
		}
		comp, err = m.CompletePrompt(ctx, "everything__completable-prompt", "name", "", map[string]string{"department": "Sales"})
		if err != nil || !slices.Contains(comp.Values, "Eve") {
			t.Errorf("completion of a Sales name = %+v, %v", comp, err)
		}
		if _, err := m.GetPrompt(ctx, "everything__nope", nil); !errors.Is(err, ErrUnknownPrompt) {
			t.Errorf("unknown prompt: %v", err)
		}
	})

	t.Run("resources", func(t *testing.T) {
		rs := m.Resources()
		if len(rs) == 0 || len(m.Templates()) == 0 || !m.HasResources() {
			t.Fatalf("resources %d, templates %d", len(rs), len(m.Templates()))
		}
		var static string
		for _, r := range rs {
			if strings.Contains(r.Resource.URI, "static/document") {
				static = r.Resource.URI
			}
		}
		got, err := m.ReadResource(ctx, "everything", static)
		if err != nil || len(got) != 1 || got[0].Text == "" {
			t.Errorf("reading %s: %+v, %v", static, got, err)
		}
		got, err = m.ReadResource(ctx, "everything", "demo://resource/dynamic/blob/3")
		if err != nil || len(got) != 1 || len(got[0].Data) == 0 {
			t.Errorf("reading a blob: %+v, %v", got, err)
		}
		if _, err := m.ReadResource(ctx, "nope", "x://y"); err == nil || !strings.Contains(err.Error(), `no such server "nope"`) {
			t.Errorf("unknown server: %v", err)
		}
	})

	t.Run("progress", func(t *testing.T) {
		var seen []tool.Progress
		var returned bool
		pctx := tool.WithProgress(ctx, func(p tool.Progress) {
			if returned {
				t.Error("progress after the call returned")
			}
			seen = append(seen, p)
		})
		call := func() {
			res, err := m.Call(pctx, "everything__trigger-long-running-operation", map[string]any{"duration": 0.3, "steps": 3})
			returned = true
			if err != nil || res.IsError {
				t.Fatalf("call: %v %+v", err, res)
			}
		}
		call()
		// The last notification may race the result, and lose.
		if len(seen) < 2 || seen[0].Progress != 1 || seen[1].Progress != 2 || seen[0].Total != 3 {
			t.Errorf("progress = %+v", seen)
		}
	})

	t.Run("task", func(t *testing.T) {
		var statuses []string
		pctx := tool.WithProgress(ctx, func(p tool.Progress) { statuses = append(statuses, p.Status+": "+p.Message) })
		res, err := m.Call(pctx, "everything__simulate-research-query", map[string]any{"topic": "owls"})
		if err != nil || res.IsError || !strings.Contains(res.Text(), "Research Report: owls") {
			t.Fatalf("task call: %v %+v", err, res)
		}
		if len(statuses) < 2 || !strings.HasPrefix(statuses[0], "working") {
			t.Errorf("statuses = %q", statuses)
		}
		cctx, stop := context.WithCancel(ctx)
		time.AfterFunc(1500*time.Millisecond, stop)
		start := time.Now()
		_, err = m.Call(cctx, "everything__simulate-research-query", map[string]any{"topic": "bats"})
		if !errors.Is(err, context.Canceled) || time.Since(start) > 3500*time.Millisecond {
			t.Errorf("cancelled task: %v after %s", err, time.Since(start))
		}
	})

	t.Run("task asking for input", func(t *testing.T) {
		var statuses []string
		pctx := tool.WithProgress(ctx, func(p tool.Progress) { statuses = append(statuses, p.Status) })
		res, err := m.Call(pctx, "everything__simulate-research-query", map[string]any{"topic": "python", "ambiguous": true})
		if err != nil || res.IsError || !strings.Contains(res.Text(), "# Research Report: python (snake)") {
			t.Fatalf("task call: %v %.300s", err, res.Text())
		}
		mu.Lock()
		asked := slices.ContainsFunc(elicited, func(r ask.FormRequest) bool {
			return strings.Contains(r.Message, "could have multiple interpretations")
		})
		mu.Unlock()
		if !asked {
			t.Error("the task's elicitation never reached the handler")
		}
		if !slices.Contains(statuses, "input_required") {
			t.Logf("statuses seen: %q (input_required may pass between two polls)", statuses)
		}
	})

	t.Run("sampling", func(t *testing.T) {
		res, err := m.Call(ctx, "everything__trigger-sampling-request", map[string]any{"prompt": "what is six times seven?", "maxTokens": 50})
		if err != nil || !strings.Contains(res.Text(), "forty-two") {
			t.Fatalf("sampling call: %v %+v", err, res)
		}
		mu.Lock()
		req := sampled[len(sampled)-1]
		mu.Unlock()
		if req.Server != "everything" || req.MaxTokens != 50 || req.SystemPrompt == "" || !strings.Contains(req.Summary(200), "six times seven") {
			t.Errorf("sampling request = %+v", req)
		}
		res, err = m.Call(ctx, "everything__trigger-sampling-request", map[string]any{"prompt": "refuse this"})
		if err == nil && !res.IsError {
			t.Errorf("a refused sampling request: %+v", res)
		}
	})

	t.Run("url elicitation", func(t *testing.T) {
		res, err := m.Call(ctx, "everything__trigger-url-elicitation", map[string]any{"url": "https://example.com/login", "elicitationId": "e-1"})
		if err != nil || !strings.Contains(res.Text(), "User completed the URL elicitation") {
			t.Fatalf("url elicitation: %v %+v", err, res)
		}
		mu.Lock()
		req := elicited[len(elicited)-1]
		mu.Unlock()
		if req.Mode != "url" || req.URL != "https://example.com/login" || req.ElicitationID != "e-1" || req.Completed == nil {
			t.Errorf("elicitation request = %+v", req)
		}
	})

	t.Run("roots", func(t *testing.T) {
		res := call(t, m, "everything__get-roots-list", nil)
		if !strings.Contains(res, "file://"+spec.Roots[0]) {
			t.Fatalf("roots = %s", res)
		}
		other := t.TempDir()
		if err := m.SetRoots(ctx, "everything", []string{other}); err != nil {
			t.Fatal(err)
		}
		if !poll(20*time.Millisecond, func() bool { return strings.Contains(call(t, m, "everything__get-roots-list", nil), other) }) {
			t.Errorf("the server never saw the new roots")
		}
	})
}

// poll calls cond until it is true, for 10s at most.
func poll(interval time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(interval)
	}
	return cond()
}

// TestListChangeLogsProgressAndSchemas drives the fault server's tools
// that change its tool list, log at each level, report progress and
// return structured content that breaks its schema.
func TestListChangeLogsProgressAndSchemas(t *testing.T) {
	var (
		mu       sync.Mutex
		warnings []string
	)
	changes := make(chan Change, 10)
	cache := t.TempDir()
	spec := faultSpec("fault")
	spec.ToolTimeout = 400 * time.Millisecond
	spec.ToolTotalTimeout = 2 * time.Second
	m := startManager(t, Options{
		CacheDir: cache,
		Warn: func(s string) {
			mu.Lock()
			defer mu.Unlock()
			warnings = append(warnings, s)
		},
		OnChange: func(c Change) { changes <- c },
	}, spec)

	t.Run("list change", func(t *testing.T) {
		call(t, m, "fault__grow", map[string]any{"name": "sprout"})
		// The call returns once the new list is known: the model's next
		// request offers the new tool.
		if _, _, ok := m.Lookup("fault__sprout"); !ok {
			t.Error("the new tool is not offered once the call that added it returned")
		}
		select {
		case c := <-changes:
			if c.Server != "fault" || c.Kind != KindTools || !slices.Equal(c.Added, []string{"sprout"}) || len(c.Removed) > 0 {
				t.Errorf("change = %+v", c)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no change reported")
		}
		if got := call(t, m, "fault__sprout", nil); got != "grown tool sprout ran" {
			t.Errorf("the new tool answered %q", got)
		}
		// The cache holds the new list: a lazy manager knows it unstarted.
		lazy := NewManager([]config.ServerSpec{spec}, Options{CacheDir: cache, Lazy: true})
		defer lazy.Close()
		if _, _, ok := lazy.Lookup("fault__sprout"); !ok {
			t.Errorf("the cached list lacks the new tool")
		}
	})

	t.Run("logs", func(t *testing.T) {
		call(t, m, "fault__log", nil)
		// Notifications are handled apart from the result: wait for the
		// last one.
		poll(5*time.Millisecond, func() bool { return strings.Contains(strings.Join(m.Logs("fault"), "\n"), "a error message") })
		logs := strings.Join(m.Logs("fault"), "\n")
		if !strings.Contains(logs, "[warning] faultlog: a warning message") || !strings.Contains(logs, "[error] faultlog: a error message") {
			t.Errorf("logs = %s", logs)
		}
		if strings.Contains(logs, "a debug message") || strings.Contains(logs, "an info message") {
			t.Errorf("messages below warning were sent: %s", logs)
		}
		mu.Lock()
		defer mu.Unlock()
		if !slices.ContainsFunc(warnings, func(w string) bool { return strings.Contains(w, `server "fault" logged ERROR: a error message`) }) {
			t.Errorf("warnings = %q", warnings)
		}
		if slices.ContainsFunc(warnings, func(w string) bool { return strings.Contains(w, "a warning message") }) {
			t.Errorf("a warning-level log became a warning: %q", warnings)
		}
	})

	t.Run("progress keeps a call alive", func(t *testing.T) {
		// Ten steps of 150ms: 1.5s in all, beyond the 400ms tool timeout.
		var steps int
		ctx := tool.WithProgress(t.Context(), func(tool.Progress) { steps++ })
		res, err := m.Call(ctx, "fault__progress", map[string]any{"steps": 10, "ms": 150})
		if err != nil || res.Text() != "done after 10 steps" || steps < 9 {
			t.Errorf("call: %v %+v after %d steps", err, res, steps)
		}
		_, err = m.Call(t.Context(), "fault__progress", map[string]any{"steps": 1, "ms": 600})
		if !errors.Is(err, ErrToolTimeout) || !strings.Contains(err.Error(), "did not answer within 400ms") {
			t.Errorf("silent call: %v", err)
		}
		_, err = m.Call(t.Context(), "fault__progress", map[string]any{"steps": 30, "ms": 100})
		if !errors.Is(err, ErrToolTimeout) || !strings.Contains(err.Error(), "still running after 2s") {
			t.Errorf("endless call: %v", err)
		}
	})

	t.Run("structured content against its schema", func(t *testing.T) {
		res, err := m.Call(t.Context(), "fault__weather", nil)
		if err != nil || res.Text() != `{"temperature":"warm"}` {
			t.Fatalf("call: %v %+v", err, res)
		}
		mu.Lock()
		defer mu.Unlock()
		if !slices.ContainsFunc(warnings, func(w string) bool {
			return strings.Contains(w, `tool "weather" returned structured content that does not match its output schema`)
		}) {
			t.Errorf("warnings = %q", warnings)
		}
	})
}
