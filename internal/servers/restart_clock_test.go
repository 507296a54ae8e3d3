package servers

import (
	"context"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/config"
)

// TestRestartPacingOnTheClock runs the automatic restarts of a built-in
// server (in-process, over an in-memory pipe) on synctest's fake clock,
// with the real pacing: the first restart 0.5s after a crash, each
// further one within a minute twice as late, none past the spec's budget
// of restarts within a minute, and a budget that frees up as the minute
// passes. The process-based tests (TestRestartBudget) shorten the delays;
// this one checks the durations a user sees.
func TestRestartPacingOnTheClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		begin := time.Now()
		var mu sync.Mutex
		var starts []time.Duration // when the server was started, from begin
		builtin := func(context.Context, config.ServerSpec) (*mcp.Server, error) {
			mu.Lock()
			starts = append(starts, time.Since(begin))
			mu.Unlock()
			srv := mcp.NewServer(&mcp.Implementation{Name: "crashy", Version: "1"}, nil)
			mcp.AddTool(srv, &mcp.Tool{Name: "crash"}, func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
				// The server goes away under the call, as a crash would.
				go req.Session.Close()
				return &mcp.CallToolResult{}, nil, nil
			})
			return srv, nil
		}
		spec := config.ServerSpec{Name: "f", Transport: config.TransportBuiltin, Builtin: "crashy", MaxRestarts: 3}
		m := NewManager([]config.ServerSpec{spec}, Options{Builtin: builtin})
		defer m.Close()
		if errs := m.Start(context.Background()); len(errs) != 0 {
			t.Fatal(errs)
		}
		crash := func() {
			t.Helper()
			_, _ = m.Call(context.Background(), "f__crash", nil)
			synctest.Wait()
		}
		// restartsAfter crashes the server and checks that it is started
		// again after exactly wait, not a moment sooner.
		restartsAfter := func(wait time.Duration, restarts int) {
			t.Helper()
			crash()
			st := status(m, "f")
			if st.State != StateRestarting || time.Until(st.NextRestart) != wait {
				t.Fatalf("after a crash: %s, next try in %v; want restarting in %v", st.State, time.Until(st.NextRestart), wait)
			}
			time.Sleep(wait - time.Millisecond)
			synctest.Wait()
			if st := status(m, "f"); st.State != StateRestarting {
				t.Fatalf("%s before its %v wait was over", st.State, wait)
			}
			time.Sleep(time.Millisecond)
			synctest.Wait()
			if st := status(m, "f"); st.State != StateReady || st.Restarts != restarts {
				t.Fatalf("%v after the crash: %s after %d restarts, want ready after %d", wait, st.State, st.Restarts, restarts)
			}
		}
		restartsAfter(500*time.Millisecond, 1) // crashed at 0s
		restartsAfter(time.Second, 2)          // at 0.5s
		restartsAfter(2*time.Second, 3)        // at 1.5s, ready at 3.5s
		// At 60.2s the restart of 0s has left the minute: two are left
		// in it, and the wait is the third's.
		time.Sleep(60200*time.Millisecond - 3500*time.Millisecond)
		restartsAfter(2*time.Second, 4) // ready at 62.2s
		// At 62.2s only the restart of 60.2s is within the minute.
		restartsAfter(time.Second, 5)   // ready at 63.2s
		restartsAfter(2*time.Second, 6) // ready at 65.2s
		// A fourth crash within a minute is past the budget of 3.
		crash()
		st := status(m, "f")
		if st.State != StateFailed || st.Err == nil || !strings.Contains(st.Err.Error(), "not restarted again: 3 restarts within a minute") {
			t.Fatalf("past the budget: %s, %v", st.State, st.Err)
		}
		time.Sleep(time.Hour)
		synctest.Wait()
		if st := status(m, "f"); st.State != StateFailed {
			t.Fatalf("a server past its budget came back: %s", st.State)
		}
		// A restart on request is always allowed, and resets the budget.
		if err := m.Restart(context.Background(), "f"); err != nil {
			t.Fatal(err)
		}
		restartsAfter(500*time.Millisecond, 7)
		mu.Lock()
		defer mu.Unlock()
		at := func(ms int) time.Duration { return time.Duration(ms) * time.Millisecond }
		h := time.Hour / time.Millisecond
		want := []time.Duration{0, at(500), at(1500), at(3500), at(62200), at(63200), at(65200), at(65200 + int(h)), at(65700 + int(h))}
		if len(starts) != len(want) {
			t.Fatalf("started at %v, want at %v", starts, want)
		}
		for i := range want {
			if starts[i] != want[i] {
				t.Errorf("started at %v, want at %v", starts, want)
				break
			}
		}
	})
}
