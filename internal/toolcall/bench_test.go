package toolcall_test

import (
	"strings"
	"testing"

	"github.com/mcphost/mcphost/internal/toolcall"
)

// replies4K are 4 KB replies of the kinds Extract meets: plain prose,
// prose ending in a call in several formats, and prose that quotes calls
// without making one.
func replies4K() map[string]string {
	para := "The echo tool returns the message it is given, and the sum tool adds two numbers. " +
		"For a file, the model reads it first, then writes the answer; it stops to wait for each result.\n"
	prose := strings.Repeat(para, 4096/len(para))
	quoted := strings.Repeat("Qwen writes <tool_call>{\"name\": \"echo\", \"arguments\": {\"message\": \"hi\"}}</tool_call> in its reply, "+
		"and `[TOOL_CALLS]` starts a Mistral call; see ```json blocks``` too.\n", 4096/180)
	return map[string]string{
		"prose":         prose,
		"quoted calls":  quoted,
		"hermes at end": prose + "<tool_call>\n{\"name\": \"everything__echo\", \"arguments\": {\"message\": \"hi\"}}\n</tool_call>",
		"qwen3 xml":     prose + "<tool_call>\n<function=everything__get-sum>\n<parameter=a>\n1\n</parameter>\n<parameter=b>\n2\n</parameter>\n</function>\n</tool_call>",
		"harmony":       "<|channel|>analysis<|message|>" + prose + "<|end|><|start|>assistant<|channel|>commentary to=functions.everything__echo <|constrain|>json<|message|>{\"message\":\"hi\"}<|call|>",
		"fenced json":   prose + "```json\n{\"name\": \"everything__echo\", \"arguments\": {\"message\": \"hi\"}}\n```",
	}
}

// BenchmarkExtract is Extract's share of a step for a 4 KB reply.
func BenchmarkExtract(b *testing.B) {
	for name, reply := range replies4K() {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(reply)))
			for b.Loop() {
				toolcall.Extract(reply)
			}
		})
	}
}

// BenchmarkExtractDegenerate: a reply that repeats an unfinished call
// until the model's token limit costs time in proportion to its length.
func BenchmarkExtractDegenerate(b *testing.B) {
	for name, unit := range map[string]string{
		"open tags":       "<tool_call>{\"name\": \"echo\", \"arguments\": {",
		"open parameters": "<function=f><parameter=a>",
		"open fences":     "```json\n{\"name\": ",
		"deepseek tokens": "<｜tool▁call▁begin｜>f<｜tool▁sep｜>{",
		"harmony headers": "<|channel|>commentary to=functions.f <|constrain|>json<|message|>{\"a\": ",
	} {
		reply := strings.Repeat(unit, 64<<10/len(unit))
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(reply)))
			for b.Loop() {
				toolcall.Extract(reply)
			}
		})
	}
}
