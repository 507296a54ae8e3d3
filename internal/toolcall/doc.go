// Package toolcall turns what a small local model meant as a tool call into
// a call that can run, or into an error the model can act on:
//
//   - Extract finds calls written as text instead of as native tool calls,
//     in the formats open models' chat templates write (one file per
//     family): hermes JSON in <tool_call> and Qwen2.5-Coder's <tools> and
//     <function> (json.go, tagged.go), Qwen3-Coder's <function=…> and
//     <parameter=…>, GLM's <arg_key>/<arg_value> and MiniMax's <invoke>
//     (xml.go), DeepSeek's and Kimi-K2's special tokens (sections.go),
//     gpt-oss harmony (harmony.go), Gemma 4 and FunctionGemma
//     (gemma.go), Mistral's [TOOL_CALLS] (mistral.go), Command-R's
//     Action (commandr.go), functionary's >>> (functionary.go), Python
//     calls (python.go), fenced blocks and bare JSON (fence.go).
//   - Catalog resolves the names models shorten or decorate ("echo",
//     "everything.echo", "Everything/Echo") to the exposed tool names, and
//     words unknown or ambiguous names with the closest real ones.
//   - Schema types the arguments of formats that write every value as
//     text, tells a tool's definition from a call, and validates arguments
//     against the tool's own input schema with
//     github.com/google/jsonschema-go, after only the repairs that cannot
//     change their meaning, and words what is still wrong for the model.
//
// Call syntax alone never makes a call. Models quote calls: in tutorials,
// in explanations of a format, in a log line the user asked about, in an
// example the user asked for. Extract decides by where the call stands
// and what follows it: a call counts when it ends the reply (the model
// stops to wait for the result) and stands on its own line or after a
// finished sentence, outside code, on a line that does not introduce an
// example; or when it opens the reply after a marker and what follows
// starts a new sentence. The reply ends at the model's turn-ending token:
// what it makes up after that is not read. Everything else is the answer,
// as written.
//
// It knows nothing of the runner or of MCP sessions; the runner calls it
// between the model's reply and the dispatch of the calls.
package toolcall
