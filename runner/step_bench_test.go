package runner_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcphost/mcphost/provider"
	"github.com/mcphost/mcphost/runner"
	"github.com/mcphost/mcphost/tool"
)

// instantTools answers every call at once, so that a run's time is the
// host's own.
type instantTools struct{ tools []provider.Tool }

func (t instantTools) Tools() []provider.Tool { return t.tools }

func (t instantTools) Call(context.Context, string, map[string]any) (*tool.Result, error) {
	return &tool.Result{Content: []tool.Content{{Kind: tool.Text, Text: "ok"}}}, nil
}

func (t instantTools) Lookup(name string) (string, string, bool) {
	return strings.Cut(name, "__")
}

// BenchmarkTextCallStep is the host's time per agent step when the model
// writes a 4 KB reply that ends in a call written as text, streamed in
// 16-byte pieces: holding back the streamed text, finding the call,
// typing and checking its arguments, and the rest of the step (history,
// context estimate, dispatch). "native" is the same step with a native
// call after the 4 KB of text, for comparison.
func BenchmarkTextCallStep(b *testing.B) {
	const steps = 20
	tools := instantTools{}
	for _, name := range []string{"echo", "get-env", "get-tiny-image", "get-resource-links", "toggle-simulated-logging"} {
		tools.tools = append(tools.tools, provider.Tool{Name: "everything__" + name, Description: "a tool", Parameters: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}}}`)})
	}
	tools.tools = append(tools.tools, provider.Tool{Name: "everything__get-sum", Description: "Returns the sum of two numbers",
		Parameters: json.RawMessage(`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"type":"number","description":"First number"},"b":{"type":"number","description":"Second number"}},"required":["a","b"]}`)})
	para := "The sum tool adds two numbers; the echo tool repeats a message. I will read the files first, then answer.\n"
	prose := strings.Repeat(para, 4000/len(para))
	formats := map[string]func(step int) string{
		"hermes": func(step int) string {
			return fmt.Sprintf("<tool_call>\n{\"name\": \"everything__get-sum\", \"arguments\": {\"a\": %d, \"b\": 1}}\n</tool_call>", step)
		},
		"qwen3 xml": func(step int) string {
			return fmt.Sprintf("<tool_call>\n<function=everything__get-sum>\n<parameter=a>\n%d\n</parameter>\n<parameter=b>\n1\n</parameter>\n</function>\n</tool_call>", step)
		},
		"harmony": func(step int) string {
			return fmt.Sprintf("<|start|>assistant<|channel|>commentary to=functions.everything__get-sum <|constrain|>json<|message|>{\"a\":%d,\"b\":1}<|call|>", step)
		},
		"native": nil,
	}
	for name, call := range formats {
		b.Run(name, func(b *testing.B) {
			var total time.Duration
			for b.Loop() {
				model := &scriptedModel{}
				for step := range steps {
					reply := provider.Message{Content: prose}
					if call == nil {
						reply.ToolCalls = []provider.ToolCall{{ID: fmt.Sprint(step), Name: "everything__get-sum", Arguments: map[string]any{"a": float64(step), "b": 1.0}}}
					} else {
						reply.Content += call(step)
					}
					model.replies = append(model.replies, reply)
					var pieces []string
					for c := reply.Content; c != ""; {
						n := min(16, len(c))
						pieces, c = append(pieces, c[:n]), c[n:]
					}
					model.pieces = append(model.pieces, pieces)
				}
				model.replies = append(model.replies, provider.Message{Content: "done"})
				model.pieces = append(model.pieces, []string{"done"})
				r := runner.New(model, tools, runner.Options{Model: toolModel(), MaxSteps: steps + 1})
				start := time.Now()
				res, err := r.Run(context.Background(), "go", func(runner.Event) {})
				total += time.Since(start)
				if err != nil || res.Steps != steps+1 || len(res.ToolCalls) != steps || res.Rejected > 0 {
					b.Fatalf("run: %v, %d steps, %d calls, %d rejected", err, res.Steps, len(res.ToolCalls), res.Rejected)
				}
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N*(steps+1)), "host-ms/step")
		})
	}
}
