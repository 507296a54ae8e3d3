package openai

import (
	"encoding/json"
	"testing"

	"github.com/mcphost/mcphost/provider"
)

// --think=false reaches each kind of server in the field it reads.
func TestNoThinkPerKind(t *testing.T) {
	tests := []struct {
		kind Kind
		want map[string]any // the fields asking for no thinking; nil: none
	}{
		{KindLlamaCpp, map[string]any{"chat_template_kwargs": map[string]any{"enable_thinking": false}}},
		{KindVLLM, map[string]any{"chat_template_kwargs": map[string]any{"enable_thinking": false}}},
		{KindLMStudio, map[string]any{"chat_template_kwargs": map[string]any{"enable_thinking": false}}},
		{KindOllama, map[string]any{"reasoning_effort": "none"}},
		{KindOpenAI, nil},
	}
	for _, tt := range tests {
		t.Run(string(tt.kind), func(t *testing.T) {
			p, err := New(Options{Kind: tt.kind, URL: "http://127.0.0.1:1/v1"})
			if err != nil {
				t.Fatal(err)
			}
			for _, noThink := range []bool{false, true} {
				body, err := p.encodeRequest(provider.Request{Model: "m", NoThink: noThink,
					Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}}, nil)
				if err != nil {
					t.Fatal(err)
				}
				var got map[string]any
				if err := json.Unmarshal(body, &got); err != nil {
					t.Fatal(err)
				}
				for _, key := range []string{"chat_template_kwargs", "reasoning_effort"} {
					want, wanted := tt.want[key]
					if !noThink {
						want, wanted = nil, false
					}
					have, ok := got[key]
					if ok != wanted || (ok && !jsonEqual(have, want)) {
						t.Errorf("NoThink %v: %s = %v (sent %v), want %v (sent %v)", noThink, key, have, ok, want, wanted)
					}
				}
			}
		})
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
