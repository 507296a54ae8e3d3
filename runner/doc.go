// Package runner is the agent loop of mcphost and nothing else: it keeps the
// conversation history, calls the model, dispatches the model's tool calls to
// the MCP servers, appends their results and calls the model again until it
// answers in plain text or a limit is reached.
//
// The runner never prints, never reads the terminal and never exits the
// process: it reports what happens as Events to whatever renders them, so the
// one-shot output, the JSON modes and the chat all share this one loop.
package runner
