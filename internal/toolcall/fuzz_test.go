package toolcall_test

import (
	"testing"

	"github.com/mcphost/mcphost/internal/toolcall"
)

// FuzzExtract: whatever a model writes, Extract returns without panicking,
// leaves text without calls unchanged, and every call has a name and
// arguments.
func FuzzExtract(f *testing.F) {
	for _, seed := range []string{
		"<tool_call>\n{\"name\": \"a\", \"arguments\": {}}\n</tool_call>",
		`[TOOL_CALLS]x[ARGS]{"k": [1, 'two', None]}`,
		`<|python_tag|>{"name": "a", "parameters": {"x": "\ud83d\ude00"}}; {"name": "b"}`,
		"```tool_code\nprint(f(a=[1, {'b': True}]))\n```",
		`[f(x=1), g(y="2")]`,
		`functools[{"name": "s", "arguments": "{\"q\": 1}"}]`,
		"text {\"name\": \"a\"",
		"<tool_call><tool_call>[TOOL_CALLS]<|python_tag|>",
		"<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>",
		"<function=f>\n<parameter=",
		"Sure: <tool_call>f <arg_key>k</arg_key> <arg_value>v</arg_value></tool_call>",
		"<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{\"a\": 1}\n```<｜tool▁call▁end｜>",
		"<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{}<|tool_call_end|>",
		`<｜DSML｜invoke name="f"><｜DSML｜parameter name="a" string="false">[1</｜DSML｜parameter>`,
		`<|start|>assistant<|channel|>commentary to=functions.fjson<|message|>{"a":1}<|call|>`,
		`<|tool_call>call:f{a:<|"|>x<|"|>,b:<escape>`,
		"Action: ```json\n[{\"tool_name\": \"f\", \"parameters\": {}}]\n```",
		">>>f\n{\"a\": 1}>>>all\nhi",
		`<minimax:tool_call><invoke name='f'><parameter name=a>1</parameter>`,
		"<tool_call>\n\"name\": \"f\", \"arguments\": {\"a\": [1, {\"b\": 2}",
		"text `<tool_call>` ```xml\n<tool_call>{}</tool_call>\n```",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, content string) {
		calls, rest := toolcall.Extract(content)
		if len(calls) == 0 && rest != content {
			t.Errorf("no calls, but the text changed to %q", rest)
		}
		for _, c := range calls {
			if c.Name == "" || c.Arguments == nil || c.Format == "" {
				t.Errorf("incomplete call %+v", c)
			}
		}
	})
}
