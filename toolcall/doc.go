// Package toolcall turns what a small local model meant as a tool call into
// a call that can run, or into an error the model can act on:
//
//   - Extract finds calls written as text instead of as native tool calls
//     (bare JSON, fenced blocks, <tool_call>, [TOOL_CALLS], <|python_tag|>,
//     <|tool_call|>, functools[...], Python-style calls).
//   - Catalog resolves the names models shorten or decorate ("echo",
//     "everything.echo", "Everything/Echo") to the exposed tool names, and
//     words unknown or ambiguous names with the closest real ones.
//   - Schema validates arguments against the tool's own input schema with
//     github.com/google/jsonschema-go, after only the repairs that cannot
//     change their meaning, and words what is still wrong for the model.
//
// It knows nothing of the runner or of MCP sessions; the runner calls it
// between the model's reply and the dispatch of the calls.
package toolcall
