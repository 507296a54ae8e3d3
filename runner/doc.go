// Package runner is the agent loop of mcphost: it keeps the conversation
// history, calls the model, dispatches the model's tool calls to the MCP
// servers, appends their results and calls the model again until it
// answers in plain text or a limit is reached.
//
// Around each step it applies what small local models need, through
// packages that each own one part: toolschema normalises the schemas the
// model is shown; toolcall recovers calls written as text, resolves
// shortened tool names and checks arguments against the original schemas;
// budget keeps the request inside the context window and tool results
// inside their byte budget; toolselect picks the tools to offer when all of
// them would take more than their share of the window, and the runner
// answers the search tool that finds the others itself. A repeated call or the step limit ends the loop
// with one more model call, without tools, for a final answer.
//
// The runner never prints, never reads the terminal and never exits the
// process: it reports what happens as Events to whatever renders them, so the
// one-shot output, the JSON modes and the chat all share this one loop.
package runner
