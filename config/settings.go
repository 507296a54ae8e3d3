package config

import (
	"time"

	"github.com/mcphost/mcphost/provider"
)

// Settings is everything mcphost was told, from flags, MCPHOST_* variables,
// config files and defaults, checked and normalised.
type Settings struct {
	// Model is as given (e.g. "ollama:qwen3:8b"); empty when none was
	// given anywhere, which the caller decides how to handle.
	Model string
	// Prompt is the --prompt text; empty means interactive use.
	Prompt string
	// OllamaHost is empty unless given; the caller falls back to
	// OLLAMA_HOST and Ollama's default.
	OllamaHost string
	// ProviderURL and ProviderAPIKey reach an OpenAI-compatible server
	// for openai:MODEL and the presets (llamacpp:, lmstudio:, vllm:);
	// ProviderKeySource says where the key was given (a flag, a variable
	// or a file), for errors that must not quote it. Without a key,
	// openai:MODEL uses OPENAI_API_KEY.
	ProviderURL, ProviderAPIKey, ProviderKeySource string
	// ProviderURLProject is the project config file (trusted) that set
	// ProviderURL, empty when the user did: a run that sends a model's
	// requests there says so.
	ProviderURLProject string
	// OllamaHostProject is, likewise, the project config file (trusted)
	// that set OllamaHost, empty when the user did.
	OllamaHostProject string
	// OllamaHostSource says where OllamaHost was given ("--ollama-host",
	// "OLLAMA_HOST", `"ollama-host" in ~/.mcphost.yml`), for errors about
	// the address; empty for Ollama's default address.
	OllamaHostSource string
	// ProviderURLSource says, likewise, where ProviderURL was given
	// ("--provider-url", "MCPHOST_PROVIDER_URL", a config file's
	// setting); empty when it was not.
	ProviderURLSource string
	// Providers are the engines config files name ("providers:"), sorted
	// by name.
	Providers []Engine
	// Pull pulls a missing Ollama model before a one-shot run.
	Pull bool
	// SystemPrompt is the text itself, already read from its file when the
	// setting named one.
	SystemPrompt string
	// Output is one of OutputText, OutputJSON and OutputStreamJSON.
	Output string

	// MaxSteps (at least 1) bounds the model calls for one prompt.
	MaxSteps int
	// NumCtx is the context window to ask Ollama for; 0 keeps the model's.
	NumCtx int
	// MaxResultBytes caps each tool result the model sees; 0 leaves the
	// cap to the runner (about half the context window).
	MaxResultBytes int
	// MaxReplyBytes caps one model reply, ModelIdleTimeout the time a
	// model call may go without receiving anything and ModelTimeout the
	// time it may take in all; MaxStdinBytes caps piped input. All at
	// least 1 (ModelTimeout: 0 means provider.DefaultTimeout).
	MaxReplyBytes    int
	ModelIdleTimeout time.Duration
	ModelTimeout     time.Duration
	MaxStdinBytes    int
	// ServerWait bounds how long a model call waits for the servers that
	// are still starting and whose tools are not known yet (not cached
	// from an earlier run, not listed yet), counted from the start of
	// each: after it, the model is called without their tools, a turn's
	// events say which servers were left out (host.ServerLeftOut), and
	// their tools join at the first model call after they are ready. The
	// start itself keeps its own, longer, timeout. 0 means
	// DefaultServerWait; a negative value waits not at all.
	ServerWait time.Duration
	// MaxParallelTools is how many tool calls of one model message run at
	// once, MaxToolCalls how many run at all. Both at least 1.
	MaxParallelTools, MaxToolCalls int
	// ToolShare (0 to 1) is the share of the context window the tools may
	// take before only the most relevant are offered; 0 offers every tool.
	ToolShare float64
	// EmbedModel is the Ollama embedding model that ranks tools by
	// meaning too; empty for words alone; "auto" for an embedding model
	// the engine already has, when it has one (words alone otherwise).
	EmbedModel string

	// Quiet asks for the final answer only; Debug for a log of config
	// files, server start-up and MCP traffic.
	Quiet, Debug bool
	// HideThinking hides reasoning models' thinking.
	HideThinking bool
	// Think, when not nil, says whether reasoning models should think:
	// false asks them not to (--think=false). nil leaves it to the model.
	Think *bool
	// Theme is dark, light or auto: the colours of rendered Markdown.
	Theme string
	// NoCache turns off the cache of servers' tool lists.
	NoCache bool
	// AuditResultBytes caps the result kept in an audit line; 0 keeps none.
	AuditResultBytes int
	// Hooks are the user's commands to run at fixed points (see HookRule);
	// NoHooks turns them all off for this run.
	Hooks   Hooks
	NoHooks bool
	// Generation are the generation parameters of every model; ModelGeneration
	// those of one model (by its name without the provider prefix), which
	// replace the general ones for it.
	Generation      provider.GenerationOptions
	ModelGeneration map[string]provider.GenerationOptions
	// Session is the conversation file a run continues and saves.
	Session string
	// SessionWait bounds the wait for another run that holds Session; 0
	// fails at once, a negative value waits as long as it takes.
	SessionWait time.Duration

	// Approval holds the tool approval rules of all config files and of
	// --allow-tool/--deny-tool; Yolo allows every tool not denied.
	Approval Approval
	Yolo     bool
	// Audit is the absolute path of the audit log; empty for none.
	Audit string
	// Elicitation is how a run that cannot ask anyone answers a server's
	// request for input.
	Elicitation Elicitation
	// ServerSampling is how a run that cannot ask anyone answers a
	// server's request for a completion by the model.
	ServerSampling ServerSampling
	// MCPPrompt is the MCP prompt (server__prompt) a one-shot run starts
	// with, and PromptArgs its arguments; flags only.
	MCPPrompt  string
	PromptArgs map[string]string

	// Servers are the MCP servers of all config files, merged by name and
	// sorted by name; or the script's, or the one of --url/--stdio.
	Servers []ServerSpec
	// Adhoc is the server given with --url or --stdio, nil without one;
	// it is then the only entry of Servers.
	Adhoc *ServerSpec
	// ScriptFile is the absolute path of the script being run, if any,
	// and ScriptServers tells whether its mcpServers replaced the config's.
	ScriptFile    string
	ScriptServers bool
	// Files lists the config files that were read, in precedence order
	// (the one that wins first), for --debug.
	Files []string
	// Untrusted lists the project config files that were found but not
	// read because the user does not trust them; the caller warns or
	// asks.
	Untrusted []ProjectFile
	// Warnings are what loading refused or ignored in a file but did not stop
	// for (yolo in a project file, unknown keys with the key probably
	// meant), worded for the user, each naming its file.
	Warnings []string
}

// The values --output accepts.
const (
	OutputText       = "text"
	OutputJSON       = "json"
	OutputStreamJSON = "stream-json"
)
