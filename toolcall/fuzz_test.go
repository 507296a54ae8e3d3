package toolcall_test

import (
	"testing"

	"github.com/mcphost/mcphost/toolcall"
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
