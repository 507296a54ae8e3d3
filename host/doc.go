// Package host lets a Go program give a local model the tools of MCP
// servers: it is the library the mcphost command is built on.
//
// A Host reads the same configuration as the command (config files,
// MCPHOST_* variables, the defaults) unless its Options say otherwise,
// starts the MCP servers, connects to the model's engine, and applies the
// approval policy, the audit log and secret masking to every tool call:
//
//	h, err := host.New(ctx, host.Options{Model: "ollama:qwen3:8b"})
//	if err != nil {
//		return err
//	}
//	defer h.Close()
//	res, err := h.Prompt(ctx, "What files are in this folder?")
//	if err != nil {
//		return err
//	}
//	fmt.Println(res.Answer)
//
// # Engines
//
// Options.Model is a model reference as the command's -m takes it: an
// Ollama model ("ollama:qwen3:8b"), a model of an OpenAI-compatible engine
// ("llamacpp:any", "lmstudio:qwen3-8b", "vllm:Qwen/Qwen3-8B",
// "openai:MODEL" at Options.ProviderURL), or of an engine a config file
// names under "providers" ("gpu-box:MODEL"). Conversation.SetModel takes
// the same references, so a conversation can move between engines; Models
// lists what every engine serves and Pull downloads an Ollama model.
//
// # Conversations
//
// Host.Prompt continues one default conversation. NewConversation starts
// others, each with its own history; any number of them may run at once on
// one Host and share its servers. A conversation saves and loads its
// history as the JSON file that "mcphost --session" and the chat's /save
// write. Undo drops the last turn, Retry runs it again, and Compact has the
// model summarise the older turns to free the context window; an answer
// cut short by cancelling stays in the history, marked "[interrupted]".
//
// # Events
//
// PromptFunc and Stream deliver what happens while a turn runs, the events
// the command renders: TextDelta and ThinkingDelta as the model streams,
// ModelCallStarted and ModelCallFinished (with token usage) around each
// model call, ToolCallStarted and ToolCallFinished around each tool call,
// ToolProgress between them while a call reports progress (or runs as an
// MCP task), Warning, and Finished last, with the turn's result and error.
//
// # Approval and elicitation
//
// Tools that need approval are refused unless Options.Asker (or SetAsker)
// gives someone to ask: a program that gives none gets the behaviour of a
// one-shot run, where such calls are refused and never run silently.
// Servers' requests for input (MCP elicitation) are answered by
// Options.Elicit, else by the --elicitation setting (decline by default).
//
// # Prompts, resources, sampling and roots
//
// Prompts, GetPrompt and CompletePrompt reach the servers' prompts;
// Conversation.RunPrompt adds one's messages to a conversation and runs
// the turn. Resources, ResourceTemplates, ReadResource and
// CompleteResource reach their resources; Conversation.UserMessage
// attaches the ones a prompt names as "@SERVER:URI", for PromptMessages.
// While a server has resources, the model is offered two tools of the
// host's own, ListResourcesTool and ReadResourceTool. A server's request
// for a completion (MCP sampling) is decided by Options.Sampling (or
// SetSampling), else by the sampling setting (deny by default), and
// answered by the current model without tools. Options.OnChange hears
// when a server's lists change; SetRoots changes the directories a
// server is offered as its roots.
//
// # Tools without a model
//
// Servers, Tools and CallTool reach the MCP servers directly; a Host made
// without a model can do only that. CallTool does not apply the approval
// policy: the program named the tool itself.
//
// # Remote servers that sign in
//
// A Streamable HTTP or SSE server that answers 401 with a Bearer challenge
// wants an OAuth 2.1 sign-in (the MCP authorization spec). Login runs one
// (the program shows the URL; oauth.OpenBrowser opens it) and keeps the
// token in the user's state directory, where the command's "mcphost auth
// login" keeps its own; later Hosts use it, refreshed as needed, and send
// it to that server alone. SignIns and Logout list and forget the stored
// sign-ins. Without Options.SignIn, a server that needs a (new) sign-in
// fails with an error matching ErrSignIn instead of opening anything.
//
// # Errors
//
// Errors can be told apart with errors.Is: ErrConfig (a problem in the
// configuration or the options; errors.As with *config.Error names the
// file and field), ErrModelNotFound, ErrUnreachable and ErrProvider (the
// model's engine), ErrNoServers (no configured server could start; it
// wraps each server's *ServerError, which matches ErrServerStart and names
// the server and the cause), ErrSignIn (a server needs a sign-in),
// ErrMaxSteps and ErrLoop (the model was stopped and gave a final answer,
// which the Result holds), ErrClosed (the Host was closed) and
// context.Canceled. The mcphost command maps these, but ErrClosed, to its
// exit codes.
//
// # Concurrency
//
// Every method of Host and of Conversation is safe for concurrent use.
// A Conversation runs one turn at a time: a second Prompt on the same
// conversation waits for the first to end, and so do its methods that read
// or change the history (History, Save, Load, Reset, Undo, Retry,
// Compact, SetModel, ToolTokens); Model answers at once. Conversations of one Host run
// concurrently.
package host
