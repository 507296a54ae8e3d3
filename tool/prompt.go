package tool

// Prompt is a prompt template as its server listed it (MCP prompts/list).
type Prompt struct {
	// Name is the server's own name for the prompt (not the exposed
	// "server__prompt" name).
	Name        string
	Title       string
	Description string
	Arguments   []PromptArgument
}

// PromptArgument is one argument a prompt takes.
type PromptArgument struct {
	Name, Title, Description string
	Required                 bool
}

// PromptMessage is one message of a prompt as the server filled it in:
// Role is "user" or "assistant".
type PromptMessage struct {
	Role    string
	Content Content
}

// PromptResult is a prompt filled in with its arguments (MCP
// prompts/get).
type PromptResult struct {
	Description string
	Messages    []PromptMessage
}

// Completion is what a server proposes for an argument's value (MCP
// completion/complete).
type Completion struct {
	Values []string
	// Total is how many values the server has in all, 0 when it did not
	// say; HasMore is true when it has more than Values.
	Total   int
	HasMore bool
}
