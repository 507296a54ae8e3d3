// Package host lets a Go program give a local model the tools of MCP
// servers: it is the library the mcphost command is built on.
//
// A [Host] runs with a configuration, a *[config.Settings]: by default the
// one the command reads (config files, MCPHOST_* variables, the defaults);
// [LoadConfig] returns that as a value to change, and [DefaultConfig] the
// defaults alone, for a program that sets everything itself. It starts the
// MCP servers the configuration names, connects to the model's engine, and
// applies the approval policy, the audit log and secret masking to every
// tool call:
//
//	cfg, err := host.LoadConfig(host.LoadOptions{})
//	if err != nil {
//		return err
//	}
//	cfg.Model = "ollama:qwen3:8b"
//	h, err := host.New(ctx, host.Options{Config: cfg})
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
// The configuration's Model ([Options].Config) is a model reference as
// the command's -m takes it: an Ollama model ("ollama:qwen3:8b"), a model
// of an OpenAI-compatible engine ("llamacpp:any", "lmstudio:qwen3-8b",
// "vllm:Qwen/Qwen3-8B", "openai:MODEL" at its ProviderURL), or of an
// engine a config file names under "providers" ("gpu-box:MODEL").
// [Conversation.SetModel] takes the same references, so a conversation can
// move between engines; [Host.Models] lists what every engine serves and
// [Host.Pull] downloads an Ollama model.
//
// # Conversations
//
// [Host.Prompt] continues one default conversation. [Host.NewConversation]
// starts others, each with its own history; any number of them may run at
// once on one Host and share its servers. [Conversation.Save] and
// [Conversation.Load] keep a conversation in the JSON file that "mcphost
// --session" and the chat's /save write. [Conversation.Undo] drops the
// last turn, [Conversation.Retry] runs it again, and
// [Conversation.Compact] has the model summarise the older turns to free
// the context window; an answer cut short by cancelling stays in the
// history, marked "[interrupted]".
//
// # Events
//
// [Conversation.PromptFunc] and [Conversation.Stream] deliver what happens
// while a turn runs, the events the command renders, each an [Event]:
//   - [TextDelta] and [ThinkingDelta] as the model streams;
//   - [ModelCallStarted] and [ModelCallFinished] (with token usage) around
//     each model call, [ToolsSelected] before one that is offered only some
//     of the tools, [HistoryTrimmed] when old turns are left out to fit the
//     context window, and [FinalAnswerRequested] before the last call of a
//     turn stopped at the step limit;
//   - [ToolCallRepaired] and [ToolCallRejected] before a call whose
//     arguments were repaired or that is not sent at all;
//   - [ToolCallStarted] and [ToolCallFinished] around each tool call, with
//     [ToolCallApproved] between them when the call waited for the user's
//     approval, and [ToolProgress] while a call reports progress (or runs
//     as an MCP task);
//   - [Warning], and [Finished] last, with the turn's [Result] and error.
//
// # Asking the user
//
// Everything that needs a person goes to one [ask.Asker], given in
// [Options].Asker or with [Host.SetAsker]: tool calls that need approval,
// servers' forms (MCP elicitation), servers' requests for a completion by
// the model (MCP sampling) and OAuth sign-ins. A program that gives none,
// or whose Asker answers a question with [ask.ErrNoOne] (embedding
// [ask.Nobody] does, for the questions it does not ask), gets the
// behaviour of a one-shot run: such calls are refused and never run
// silently, forms are answered as the --elicitation setting says (decline
// by default), sampling requests as the --sampling setting says (deny by
// default), and no sign-in happens.
//
// # Prompts, resources, sampling and roots
//
// [Host.Prompts], [Host.GetPrompt] and [Host.CompletePrompt] reach the
// servers' prompts; [Conversation.RunPrompt] adds one's messages to a
// conversation and runs the turn. [Host.Resources],
// [Host.ResourceTemplates], [Host.ReadResource] and [Host.CompleteResource]
// reach their resources; [Conversation.UserMessage] attaches the ones a
// prompt names as "@SERVER:URI", for [Conversation.PromptMessages]. While
// a server has resources, the model is offered two tools of the host's
// own, [ListResourcesTool] and [ReadResourceTool]. A server's request for
// a completion (MCP sampling) is decided by the [ask.Asker], else by the
// sampling setting (deny by default), and answered by the current model
// without tools. [Options].OnChange hears when a server's lists change
// ([ListChange]); [Host.SetRoots] changes the directories a server is
// offered as its roots.
//
// # Go functions as tools
//
// [NewTool] makes a Go function a tool, given in [Options].Tools: its
// input schema is inferred from its argument's type, and its calls go
// through the same argument checks, approval ([ReadOnly] lets the model
// call it without asking), hooks, audit log and events as a server's
// tools. [Host.CallTool] reaches it too.
//
// # Tools without a model
//
// [Host.Servers], [Host.Tools] and [Host.CallTool] reach the MCP servers
// directly; a Host made without a model can do only that. CallTool does
// not apply the approval policy: the program named the tool itself.
//
// # Evaluating models
//
// [Host.Eval] runs [EvalTask]s (a prompt; the tools that must be called,
// with some of their arguments; a regular expression on the answer) on
// several models, each run in a new conversation with the Host's servers
// and policy, and reports per model how many runs passed, how the model
// called the tools (natively, written as text and recovered, repaired,
// rejected), its steps, tokens and time, and a one-line verdict: which
// local model works with these tools. The mcphost command's "mcphost
// eval" reads the tasks from a YAML file.
//
// # Remote servers that sign in
//
// A Streamable HTTP or SSE server that answers 401 with a Bearer challenge
// wants an OAuth 2.1 sign-in (the MCP authorization spec). [Host.Login]
// runs one (the program shows the URL and opens it in a browser) and keeps
// the token in the user's state directory, where the command's "mcphost
// auth login" keeps its own; later Hosts use it, refreshed as needed, and
// send it to that server alone. [Host.SignIns] and [Host.Logout] list and
// forget the stored sign-ins. Unless the [ask.Asker] given in [Options]
// signs in, a server that needs a (new) sign-in fails with an error
// matching [ErrSignIn] instead of opening anything.
//
// # Errors
//
// Errors can be told apart with errors.Is: [ErrConfig] (a problem in the
// configuration or the options; errors.As with *[config.Error] names the
// file and field), [ErrModelNotFound], [ErrUnreachable] and [ErrProvider]
// (the model's engine), [ErrNoServers] (no configured server could start;
// it wraps each server's *[ServerError], which matches [ErrServerStart]
// and names the server and the cause), [ErrSignIn] (a server needs a
// sign-in), [ErrMaxSteps] and [ErrLoop] (the model was stopped and gave a
// final answer, which the [Result] holds), [ErrClosed] (the Host was
// closed) and [context.Canceled]. The mcphost command maps these, but
// ErrClosed, to its exit codes. [ErrUnknownTool], [ErrServerUnavailable],
// [ErrUnknownPrompt], [ErrPromptArguments] and [ErrNoSignIn] match the
// errors of the methods whose docs name them.
//
// # Concurrency
//
// Every method of Host and of [Conversation] is safe for concurrent use.
// A Conversation runs one turn at a time: a second Prompt on the same
// conversation waits for the first to end, and so do its methods that read
// or change the history (History, Save, Load, Reset, Undo, Retry,
// Compact, SetModel, ToolTokens); [Conversation.Model] answers at once.
// Conversations of one Host run concurrently.
package host
