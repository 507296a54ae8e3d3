package runner

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/tool"
)

// sumTools offers one tool, with server-everything's get-sum schema.
type sumTools struct{}

func (sumTools) Tools() []provider.Tool {
	return []provider.Tool{{Name: "everything__get-sum", Description: "Returns the sum of two numbers",
		Parameters: json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`)}}
}

func (sumTools) Call(context.Context, string, map[string]any) (*tool.Result, error) {
	return &tool.Result{}, nil
}

func (sumTools) Lookup(name string) (string, string, bool) { return strings.Cut(name, "__") }

// BenchmarkTextRecovery is the text work of a step with tools offered, for
// a 4 KB reply streamed in 16-byte pieces: the holdback over every piece
// (an event each), looking for calls, and for a reply that ends in one,
// resolving its name and typing its arguments. "none" is a reply without
// a call: the difference to it is what a call written as text adds. (The
// step's other work is BenchmarkTextCallStep's and the root
// BenchmarkAgentStep's.)
func BenchmarkTextRecovery(b *testing.B) {
	para := "The sum tool adds two numbers; the echo tool repeats a message. I will read the files first, then answer.\n"
	prose := strings.Repeat(para, 4000/len(para))
	for name, call := range map[string]string{
		"none":      "",
		"hermes":    "<tool_call>\n{\"name\": \"everything__get-sum\", \"arguments\": {\"a\": 1, \"b\": 2}}\n</tool_call>",
		"qwen3 xml": "<tool_call>\n<function=everything__get-sum>\n<parameter=a>\n1\n</parameter>\n<parameter=b>\n2\n</parameter>\n</function>\n</tool_call>",
		"harmony":   "<|start|>assistant<|channel|>commentary to=functions.everything__get-sum <|constrain|>json<|message|>{\"a\":1,\"b\":2}<|call|>",
	} {
		reply := prose + call
		var pieces []string
		for c := reply; c != ""; {
			n := min(16, len(c))
			pieces, c = append(pieces, c[:n]), c[n:]
		}
		r := New(nil, sumTools{}, Options{})
		ts := r.toolSet()
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				h := newHoldback(func(Event) {}, true, r.markers)
				for _, p := range pieces {
					h.delta(provider.Delta{Content: p})
				}
				msg, format := r.recoverCalls(provider.Message{Content: reply}, ts)
				recovered := format != ""
				h.finish(msg.Content, recovered)
				if recovered != (call != "") {
					b.Fatalf("recovered = %v", recovered)
				}
			}
		})
	}
}
