package servers

import (
	"sync"
	"testing"

	"github.com/mcphost/mcphost/config"
)

// TestStartTellsEachServerAsItAnswers: OnStart hears which servers start,
// then each one's outcome, a failure with its error.
func TestStartTellsEachServerAsItAnswers(t *testing.T) {
	var (
		mu   sync.Mutex
		news []StartNews
	)
	m := NewManager([]config.ServerSpec{faultSpec("good"), faultSpec("bad", "-exit-at-start")}, Options{
		OnStart: func(n StartNews) {
			mu.Lock()
			defer mu.Unlock()
			news = append(news, n)
		},
	})
	t.Cleanup(func() { _ = m.Close() })
	m.Start(t.Context())
	mu.Lock()
	defer mu.Unlock()
	if len(news) != 3 || len(news[0].Starting) != 2 || news[0].Starting[0] != "good" || news[0].Starting[1] != "bad" {
		t.Fatalf("news %+v", news)
	}
	outcome := map[string]error{}
	for _, n := range news[1:] {
		outcome[n.Server] = n.Err
	}
	if err, ok := outcome["good"]; !ok || err != nil {
		t.Errorf("good: %v, %v", ok, err)
	}
	if err, ok := outcome["bad"]; !ok || err == nil {
		t.Errorf("bad: %v, %v", ok, err)
	}
}
