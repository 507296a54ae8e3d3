package toolcall_test

import (
	"encoding/json"
	"testing"

	"github.com/mcphost/mcphost/internal/toolcall"
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

// TestExtractNewFormats: each family's reader, with the format it reports
// and whether its values are text for the schema to type.
func TestExtractNewFormats(t *testing.T) {
	tests := []struct {
		name, content string
		want          []call
		format        string
		text          bool
	}{
		{"qwen3-coder xml", "<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>",
			[]call{{"f", `{"a":"1"}`}}, toolcall.FormatQwenXML, true},
		{"llama 3.1 function tag", `<function=f>{"a": 1}</function>`, []call{{"f", `{"a":1}`}}, toolcall.FormatFunctionTag, false},
		{"glm", "<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>x y</arg_value>\n</tool_call>", []call{{"f", `{"a":"x y"}`}}, toolcall.FormatGLM, true},
		{"deepseek v3", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{\"a\": 1}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
			[]call{{"f", `{"a":1}`}}, toolcall.FormatDeepSeek, false},
		{"dsml", `<｜DSML｜function_calls><｜DSML｜invoke name="f"><｜DSML｜parameter name="a" string="false">[1, 2]</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls>`,
			[]call{{"f", `{"a":[1,2]}`}}, toolcall.FormatDSML, true},
		{"kimi", `<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{"a": 1}<|tool_call_end|><|tool_calls_section_end|>`,
			[]call{{"f", `{"a":1}`}}, toolcall.FormatKimi, false},
		{"harmony", `<|channel|>commentary to=functions.f <|constrain|>json<|message|>{"a":1}<|call|>`, []call{{"f", `{"a":1}`}}, toolcall.FormatHarmony, false},
		{"gemma 4", `<|tool_call>call:f{a:<|"|>x, "y"<|"|>,b:[1,{c:true}]}<tool_call|>`, []call{{"f", `{"a":"x, \"y\"","b":[1,{"c":true}]}`}}, toolcall.FormatGemma, false},
		{"minimax", `<minimax:tool_call><invoke name="f"><parameter name="a">1</parameter></invoke></minimax:tool_call>`, []call{{"f", `{"a":"1"}`}}, toolcall.FormatInvoke, true},
		{"nemotron", `<TOOLCALL>[{"name": "f", "arguments": {"a": 1}}]</TOOLCALL>`, []call{{"f", `{"a":1}`}}, toolcall.FormatNemotron, false},
		{"command-r", "Action: ```json\n[{\"tool_name\": \"f\", \"parameters\": {\"a\": 1}}]\n```", []call{{"f", `{"a":1}`}}, toolcall.FormatCommandR, false},
		{"functionary", ">>>f\n{\"a\": 1}", []call{{"f", `{"a":1}`}}, toolcall.FormatFunctionary, false},
		{"mistral call id", `[TOOL_CALLS]f[CALL_ID]abc123XYZ[ARGS]{"a": 1}`, []call{{"f", `{"a":1}`}}, toolcall.FormatMistral, false},
		{"lfm2 python", `<|tool_call_start|>[f(a=1)]<|tool_call_end|>`, []call{{"f", `{"a":1}`}}, toolcall.FormatLFM2, false},
		{"hermes missing outer brace", "<tool_call>\n\"name\": \"f\", \"args\": {\"a\": 1}\n</tool_call>", []call{{"f", `{"a":1}`}}, toolcall.FormatToolCallTag, false},
		{"xlam tool_calls object", `{"tool_calls": [{"name": "f", "arguments": {"a": 1}}]}`, []call{{"f", `{"a":1}`}}, toolcall.FormatJSON, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, rest := toolcall.Extract(tt.content)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d calls %+v, want %d", len(got), got, len(tt.want))
			}
			for i, w := range tt.want {
				args, _ := json.Marshal(got[i].Arguments)
				if got[i].Name != w.name || string(args) != w.args || got[i].Format != tt.format || got[i].Text != tt.text {
					t.Errorf("call %d = %s %s (%q, text %v), want %s %s (%q, text %v)", i, got[i].Name, args, got[i].Format, got[i].Text, w.name, w.args, tt.format, tt.text)
				}
			}
			if rest != "" {
				t.Errorf("rest = %q", rest)
			}
		})
	}
}

// TestExtractWhereTheCallStands: the same call syntax is a call or a
// quotation by where it stands and what follows it.
func TestExtractWhereTheCallStands(t *testing.T) {
	const tag = `<tool_call>{"name": "echo", "arguments": {"message": "hi"}}</tool_call>`
	tests := []struct {
		name, content string
		calls         int
		rest          string
	}{
		{"ends the reply on its own line", "I'll echo it.\n" + tag, 1, "I'll echo it."},
		{"ends the reply after a colon", "Echoing now: " + tag, 1, "Echoing now:"},
		{"ends the reply after end tokens", tag + "<|im_end|>\n", 1, ""},
		{"ends the turn, a made-up result after", "Checking.\n" + tag + "<|im_end|>\n<|im_start|>user\n<tool_response>\nEcho: hi\n</tool_response>", 1, "Checking."},
		{"quoted end token, prose after", "Qwen writes " + tag + " then `<|im_end|>` to stop.", 0, ""},
		{"opens the reply, a new sentence after", tag + " I will wait for the result.", 1, "I will wait for the result."},
		{"opens the reply after the thinking", "<think>echo it</think>\n" + tag + "\nWaiting.", 1, "Waiting."},
		{"ends the reply in the middle of a sentence", "The model replied with " + tag, 0, ""},
		{"opens the reply, the sentence going on", tag + " is the tag Qwen uses.", 0, ""},
		{"opens the reply, an aside after it", tag + " (the Qwen tag) asks for echo.", 0, ""},
		{"in the middle of prose", "First " + tag + " then more text.", 0, ""},
		{"in inline code", "Write `" + tag + "`", 0, ""},
		{"in a fenced block of another language", "```python\nreply = '" + tag + "'\n```", 0, ""},
		{"after a line introducing an example", "For example:\n" + tag, 0, ""},
		{"after a line saying how to", "You can call it like this:\n\n" + tag, 0, ""},
		{"a tag in a fence at the end", "Calling it.\n```xml\n" + tag + "\n```", 0, ""},
		{"bare JSON after a colon", "Sure, I'll echo it: {\"name\": \"echo\", \"parameters\": {}}", 1, "Sure, I'll echo it:"},
		{"in a call fence, text after", "```xml\n" + tag + "\n```\nThat is the format.", 0, ""},
		{"first of two runs quoted, the last a call", "Like " + tag + " in the docs.\n" + tag, 1, "Like " + tag + " in the docs."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, rest := toolcall.Extract(tt.content)
			if len(got) != tt.calls {
				t.Fatalf("got %d calls %+v, want %d", len(got), got, tt.calls)
			}
			if tt.calls == 0 {
				if rest != tt.content {
					t.Errorf("text changed without calls: %q", rest)
				}
				return
			}
			if rest != tt.rest {
				t.Errorf("rest = %q, want %q", rest, tt.rest)
			}
		})
	}
}

func TestExtractCleansLeakedThinking(t *testing.T) {
	_, rest := toolcall.Extract(`<|channel|>analysis<|message|>Need the sum.<|end|><|start|>assistant<|channel|>commentary to=functions.sum <|constrain|>json<|message|>{"a":1}<|call|>`)
	if rest != "" {
		t.Errorf("rest = %q, want the analysis and headers gone", rest)
	}
	_, rest = toolcall.Extract("reasoning here</think>Let me check.\n<tool_call>{\"name\": \"f\"}</tool_call>")
	if rest != "Let me check." {
		t.Errorf("rest = %q", rest)
	}
}

func TestExtractCallForTheUser(t *testing.T) {
	// "so you can see" is the model explaining itself, not an example.
	got, rest := toolcall.Extract("I'll echo it so you can see the result:\n<tool_call>{\"name\": \"echo\", \"arguments\": {\"message\": \"hi\"}}</tool_call>")
	if len(got) != 1 || rest != "I'll echo it so you can see the result:" {
		t.Errorf("got %+v, rest %q", got, rest)
	}
}
