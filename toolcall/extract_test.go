package toolcall_test

import (
	"encoding/json"
	"testing"

	"github.com/mcphost/mcphost/toolcall"
)

// call is a compact expectation: name and arguments as JSON.
type call struct{ name, args string }

func TestExtract(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    []call
		format  string
		rest    string
	}{
		// qwen2.5 / hermes-style templates, when Ollama's parser misses the
		// call (e.g. text before the tag).
		{"qwen tool_call tag after prose", "I'll echo it for you.\n<tool_call>\n{\"name\": \"everything__echo\", \"arguments\": {\"message\": \"hi\"}}\n</tool_call>",
			[]call{{"everything__echo", `{"message":"hi"}`}}, toolcall.FormatToolCallTag, "I'll echo it for you."},
		{"qwen two tags, no closing on the last", "<tool_call>\n{\"name\": \"a\", \"arguments\": {}}\n</tool_call>\n<tool_call>\n{\"name\": \"b\", \"arguments\": {\"x\": 1}}",
			[]call{{"a", `{}`}, {"b", `{"x":1}`}}, toolcall.FormatToolCallTag, ""},
		// qwen3 and others writing the bare object as the whole reply.
		{"bare json object", `{"name": "LLM_Tool_RAG", "arguments": {"term": "accidents", "vector": "tribunal"}}`,
			[]call{{"LLM_Tool_RAG", `{"term":"accidents","vector":"tribunal"}`}}, toolcall.FormatJSON, ""},
		// llama3.1/3.2: "parameters", sometimes "type": "function".
		{"llama parameters", `{"type": "function", "name": "get-sum", "parameters": {"a": "3", "b": "1"}}`,
			[]call{{"get-sum", `{"a":"3","b":"1"}`}}, toolcall.FormatJSON, ""},
		{"llama python_tag", "<|python_tag|>{\"name\": \"echo\", \"parameters\": {\"message\": \"x\"}}<|eom_id|>",
			[]call{{"echo", `{"message":"x"}`}}, toolcall.FormatPythonTag, ""},
		{"llama python_tag two calls with semicolon", "<|python_tag|>{\"name\": \"a\", \"parameters\": {}}; {\"name\": \"b\", \"parameters\": {}}",
			[]call{{"a", `{}`}, {"b", `{}`}}, toolcall.FormatPythonTag, ""},
		// mistral: a JSON list after [TOOL_CALLS], also with single quotes,
		// and the newer name[ARGS]{...} form.
		{"mistral list", `[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Paris"}}]`,
			[]call{{"get_weather", `{"city":"Paris"}`}}, toolcall.FormatMistral, ""},
		{"mistral single quotes then prose", `[TOOL_CALLS][{'name': 'get_weather', 'arguments': {'city': 'Dallas', 'metric': True}}] Let me find the data for you.`,
			[]call{{"get_weather", `{"city":"Dallas","metric":true}`}}, toolcall.FormatMistral, "Let me find the data for you."},
		{"mistral ARGS form", `[TOOL_CALLS]web_search[ARGS]{"query": "latest releases"}`,
			[]call{{"web_search", `{"query":"latest releases"}`}}, toolcall.FormatMistral, ""},
		// phi4-mini.
		{"phi tool_call tokens", `<|tool_call|>[{"name": "get_date_time", "arguments": {}}]<|/tool_call|>`,
			[]call{{"get_date_time", `{}`}}, toolcall.FormatPhi, ""},
		{"phi functools", `functools[{"name": "search", "arguments": {"keywords": ["AI"]}}]`,
			[]call{{"search", `{"keywords":["AI"]}`}}, toolcall.FormatFunctools, ""},
		// gemma3: fenced blocks, JSON or Python.
		{"gemma fenced json at the end", "To add these numbers I will use the tool.\n```json\n{\"name\": \"get-sum\", \"parameters\": {\"a\": 2, \"b\": 3}}\n```",
			[]call{{"get-sum", `{"a":2,"b":3}`}}, toolcall.FormatFenced, "To add these numbers I will use the tool."},
		{"gemma tool_code python", "```tool_code\nprint(default_api.get_weather(city=\"London\", days=2))\n```",
			[]call{{"default_api.get_weather", `{"city":"London","days":2}`}}, toolcall.FormatFenced, ""},
		{"pythonic list", `[get_weather(city='San Francisco'), get_time(zone="PST")]`,
			[]call{{"get_weather", `{"city":"San Francisco"}`}, {"get_time", `{"zone":"PST"}`}}, toolcall.FormatPython, ""},
		// OpenAI shape, arguments as a JSON string.
		{"openai nested string arguments", `{"type": "function", "function": {"name": "echo", "arguments": "{\"message\": \"hi\"}"}}`,
			[]call{{"echo", `{"message":"hi"}`}}, toolcall.FormatJSON, ""},
		{"list of bare objects", `[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"k": "v"}}]`,
			[]call{{"a", `{}`}, {"b", `{"k":"v"}`}}, toolcall.FormatJSON, ""},
		{"name only", `{"name": "get-env"}`, []call{{"get-env", `{}`}}, toolcall.FormatJSON, ""},

		// Not calls.
		{"prose mentioning a tool", "You could use the echo tool with {\"message\": \"hi\"} to test it.", nil, "", ""},
		{"example followed by explanation", "Call it like this:\n```json\n{\"name\": \"echo\", \"arguments\": {\"message\": \"hi\"}}\n```\nand it will answer with the same text.", nil, "", ""},
		{"json that is data", `{"name": "Alice", "age": 30}`, nil, "", ""},
		{"code block in another language", "```go\nfmt.Println(x(y=1))\n```", nil, "", ""},
		{"inline mention of a marker without a call", "Models use <tool_call> tags for this.", nil, "", ""},
		{"plain answer", "The sum is 5.", nil, "", ""},
		{"broken json", `{"name": "echo", "arguments": {"message": "hi"`, nil, "", ""},
		{"arguments not an object", `{"name": "echo", "arguments": 5}`, nil, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, rest := toolcall.Extract(tt.content)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d calls %+v, want %d", len(got), got, len(tt.want))
			}
			if len(tt.want) == 0 {
				if rest != tt.content {
					t.Errorf("text changed without calls: %q", rest)
				}
				return
			}
			for i, w := range tt.want {
				args, _ := json.Marshal(got[i].Arguments)
				if got[i].Name != w.name || string(args) != w.args {
					t.Errorf("call %d = %s %s, want %s %s", i, got[i].Name, args, w.name, w.args)
				}
				if got[i].Format != tt.format {
					t.Errorf("call %d format %q, want %q", i, got[i].Format, tt.format)
				}
			}
			if rest != tt.rest {
				t.Errorf("rest = %q, want %q", rest, tt.rest)
			}
		})
	}
}

func TestExtractLiterals(t *testing.T) {
	// Escapes and Python literals inside arguments come through as values.
	got, _ := toolcall.Extract(`{"name": "x", "arguments": {"s": "a\"b\\n\u00e9\ud83d\ude00", "n": -1.5e2, "none": None, "list": [1, 2,], 'q': 'it\'s'}}`)
	if len(got) != 1 {
		t.Fatalf("got %d calls", len(got))
	}
	b, _ := json.Marshal(got[0].Arguments)
	if want := `{"list":[1,2],"n":-150,"none":null,"q":"it's","s":"a\"b\\né😀"}`; string(b) != want {
		t.Errorf("arguments = %s, want %s", b, want)
	}
}
