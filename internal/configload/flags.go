package configload

import (
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/provider"
)

// The names of mcphost's settings. Each is a flag name, the key a config file
// uses and, upper-cased with dashes turned into underscores and prefixed with
// MCPHOST_, the name of an environment variable.
const (
	keyModel        = "model"
	keyPrompt       = "prompt"
	keyConfig       = "config"
	keyOllamaHost   = "ollama-host"
	keyMaxSteps     = "max-steps"
	keySystemPrompt = "system-prompt"
	keyQuiet        = "quiet"
	keyDebug        = "debug"
	keyNumCtx       = "num-ctx"
	keyOutput       = "output"
	keyHideThinking = "hide-thinking"
	keySession      = "session"
	// keyTheme picks the Markdown colours: dark, light or auto.
	keyTheme = "theme"
	// keyNoCache turns off the cache of servers' tool lists.
	keyNoCache = "no-cache"
	// keyAuditResultBytes caps the result kept in an audit line.
	keyAuditResultBytes = "audit-result-bytes"
	// keySessionWait bounds the wait for another run on the same session.
	keySessionWait = "session-wait"
	// keyMaxResultBytes caps each tool result the model sees.
	keyMaxResultBytes = "max-result-bytes"
	// keyElicitation says how a run that cannot ask anyone answers a
	// server's elicitation request.
	keyElicitation = "elicitation"
	// keySampling says how a run that cannot ask anyone answers a
	// server's request for a completion by the model.
	keySampling = "sampling"
	// keyMCPPrompt and keyPromptArg run an MCP prompt as a one-shot
	// prompt; flags only.
	keyMCPPrompt = "mcp-prompt"
	keyPromptArg = "prompt-arg"
	// The bounds on what the model and the input may cost: the size of
	// one model reply, how long the model may stay silent and how long a
	// model call may take in all, the size of piped stdin, and the tool
	// calls of one model message (at once and in all).
	keyMaxReplyBytes    = "max-reply-bytes"
	keyModelIdleTimeout = "model-idle-timeout"
	keyModelTimeout     = "model-timeout"
	keyMaxStdinBytes    = "max-stdin-bytes"
	keyMaxParallelTools = "max-parallel-tools"
	keyMaxToolCalls     = "max-tool-calls"
	// keyServerWait bounds how long a model call waits for servers still
	// starting whose tools are not known yet.
	keyServerWait = "server-wait"
	// keyURL and keyStdio give one server on the command line instead of
	// the config's; flags only.
	keyURL   = "url"
	keyStdio = "stdio"
	// keyToolShare is the share of the context window the offered tools
	// may take before only the most relevant are offered.
	keyToolShare = "tool-share"
	// keyEmbedModel names an Ollama embedding model that ranks tools by
	// meaning too.
	keyEmbedModel = "embed-model"
	// keyThink asks reasoning models to think or not; unset leaves it to
	// the model.
	keyThink = "think"
)

// Defaults of the settings that have one other than the zero value.
const (
	defaultMaxSteps = 20
	defaultNumCtx   = 8192
	defaultOutput   = config.OutputText
	// defaultElicitation declines: nothing is sent in the user's name
	// unless they said so.
	defaultElicitation = string(config.ElicitDecline)
	// defaultSampling refuses: a server does not spend the user's model
	// unless they said so.
	defaultSampling = string(config.ServerSamplingDeny)
	// The bounds: the reply and idle defaults are provider.Limits', the
	// tool-call ones runner.Options'.
	defaultMaxReplyBytes    = 8 << 20
	defaultModelIdleTimeout = 5 * time.Minute
	defaultModelTimeout     = provider.DefaultTimeout
	defaultMaxStdinBytes    = 16 << 20
	defaultMaxParallelTools = 8
	defaultMaxToolCalls     = 32
	// defaultToolShare: a quarter of the window for the tools leaves the
	// rest for the conversation and the answer.
	defaultToolShare = 0.25
)

// outputFormats lists the --output values in the order help and errors show them.
func outputFormats() []string {
	return []string{config.OutputText, config.OutputJSON, config.OutputStreamJSON}
}

// fileKeys are the settings a config file or an MCPHOST_* variable may set.
// --prompt and --config are left out on purpose: a prompt in a config file
// would run on every start, and a config file cannot name itself.
func fileKeys() []string {
	return []string{keyModel, keyOllamaHost, keyProviderURL, keyProviderAPIKey, keyPull, keyMaxSteps, keySystemPrompt, keyQuiet, keyDebug, keyNumCtx, keyOutput, keyHideThinking, keySession, keySessionWait, keyTheme, keyNoCache, keyYolo, keyAudit, keyMaxResultBytes, keyElicitation, keySampling,
		keyMaxReplyBytes, keyModelIdleTimeout, keyModelTimeout, keyMaxStdinBytes, keyMaxParallelTools, keyMaxToolCalls, keyServerWait,
		keyTemperature, keyTopP, keyTopK, keyMaxTokens, keySeed, keyStopSequences, keyAuditResultBytes, keyNoHooks, keyToolShare, keyEmbedModel, keyThink}
}

// settingKey returns the setting that k names in a config file or a
// script, in any spelling (max-steps, max_steps, maxSteps), and whether k
// names one.
func settingKey(k string) (string, bool) {
	nk := normKey(k)
	for _, key := range fileKeys() {
		if normKey(key) == nk {
			return key, true
		}
	}
	return "", false
}

// RegisterFlags defines all of mcphost's flags on fs, so that their names,
// defaults and help text live in one place. Load reads them back from the
// parsed set.
func RegisterFlags(fs *pflag.FlagSet) {
	// Back-quoted words name the flag's value in the usage output.
	fs.StringP(keyModel, "m", "", "`MODEL` to use, e.g. ollama:qwen3:8b")
	fs.StringP(keyPrompt, "p", "", "run `TEXT` as a single prompt, print the answer and exit")
	fs.String(keyConfig, "", "read settings and MCP servers only from `FILE` (.yml, .yaml or .json)")
	fs.String(keyOllamaHost, "", "`URL` of the Ollama server (default $OLLAMA_HOST or http://localhost:11434)")
	fs.String(keyProviderURL, "", "`URL` of the OpenAI-compatible server for openai:MODEL, or instead of a preset's ("+strings.Join(provider.Presets(), ":, ")+":)")
	fs.String(keyProviderAPIKey, "", "API `KEY` for that server (default $OPENAI_API_KEY for openai:MODEL)")
	fs.Bool(keyPull, false, "pull a missing Ollama model before answering (progress on a terminal)")
	fs.Int(keyMaxSteps, defaultMaxSteps, "allow `N` tool-calling model calls for one prompt, then ask for a final answer without tools")
	fs.String(keySystemPrompt, "", "system prompt `TEXT`, or the path of a file holding it")
	fs.Bool(keyQuiet, false, "print only the final answer")
	fs.Bool(keyDebug, false, "log config files, MCP server start-up and traffic to stderr")
	fs.Int(keyNumCtx, defaultNumCtx, "context window of `N` tokens asked of Ollama (0 keeps the model's default)")
	fs.Int(keyMaxResultBytes, 0, "cut each tool result to `N` bytes before the model sees it (0: about half the context window)")
	fs.Int(keyMaxReplyBytes, defaultMaxReplyBytes, "stop a model reply longer than `N` bytes (an error, exit 3)")
	fs.Duration(keyModelIdleTimeout, defaultModelIdleTimeout, "stop a model call that sends nothing for `DURATION` (an error, exit 3)")
	fs.Duration(keyModelTimeout, defaultModelTimeout, "stop a model call that takes longer than `DURATION` in all (an error, exit 3)")
	fs.Duration(keyServerWait, config.DefaultServerWait, "call the model without the tools of a server still starting after `DURATION` (0: do not wait); they join once it is ready")
	fs.Int(keyMaxStdinBytes, defaultMaxStdinBytes, "refuse piped input longer than `N` bytes (exit 2)")
	fs.Int(keyMaxParallelTools, defaultMaxParallelTools, "run at most `N` tool calls of one model message at once; the rest wait")
	fs.Int(keyMaxToolCalls, defaultMaxToolCalls, "run at most `N` tool calls of one model message; the model is told the rest were not run")
	fs.String(keyOutput, defaultOutput, "output `FORMAT`: text, json or stream-json")
	fs.String(keySession, "", "continue the conversation saved in `FILE` and save this run into it (created if missing)")
	fs.String(keySessionWait, "", "wait at most `DURATION` (e.g. 30s; 0: not at all) for another run using the --session file (default: as long as it takes)")
	fs.String(keyTheme, "auto", "colours of rendered Markdown: `THEME` dark, light, or auto (COLORFGBG, else one quick question to the terminal)")
	fs.Bool(keyNoCache, false, "do not use or keep the cache of servers' tool lists: start every server at once, as on a first run")
	fs.Bool(keyHideThinking, false, "hide the thinking of reasoning models (shown dimmed on a terminal otherwise)")
	fs.Bool(keyThink, false, "--think=false asks reasoning models not to think, where the engine can ask (default: the model decides)")
	fs.StringArray(keyAllowTool, nil, "run tools matching `GLOB` (e.g. 'fs__*') without asking; repeatable")
	fs.StringArray(keyDenyTool, nil, "never offer or run tools matching `GLOB`; repeatable")
	fs.Bool(keyYolo, false, "run every tool call without asking, except denied tools")
	fs.Bool(keyTrustProject, false, "use this folder's .mcp.json and .mcphost.* for this run even if not trusted (see mcphost trust)")
	fs.String(keyAudit, "", "append one JSON line per tool call to `FILE` (secrets masked)")
	fs.Bool(keyNoHooks, false, "run no hooks (hooks.yml, .mcphost/hooks.yml, hooks: in config files) in this run")
	fs.Int(keyAuditResultBytes, 4096, "keep at most `N` bytes of each result in the audit log (0: none)")
	fs.Float64(keyToolShare, defaultToolShare, "when the tools would take more than `SHARE` of the context window, offer the most relevant ones and a search tool (0: always every tool)")
	fs.String(keyEmbedModel, "", "rank tools by meaning too, with the Ollama embedding `MODEL` (e.g. nomic-embed-text; auto: one Ollama already has), when not all are offered")
	fs.String(keyElicitation, defaultElicitation, "answer a server's request for input, when no one can be asked, with `MODE`: decline or accept-defaults")
	fs.String(keySampling, defaultSampling, "answer a server's request for a completion by the model, when no one can be asked, with `MODE`: deny or allow")
	fs.String(keyMCPPrompt, "", "run the MCP prompt `SERVER__PROMPT` (see mcphost prompts list) as the prompt, or before -p's")
	fs.StringArray(keyPromptArg, nil, "give the --mcp-prompt argument `NAME=VALUE`; repeatable")
	fs.String(keyURL, "", "with servers/tools: use the MCP server at `URL` (Streamable HTTP, else SSE) instead of the config's")
	fs.String(keyStdio, "", "with servers/tools: run the MCP server `COMMAND` (quoted as in a shell) instead of the config's")
	registerGenerationFlags(fs)
	fs.String(keyOAuthClientID, "", "with --url: sign in as the OAuth client `ID` registered with the server's authorization server")
	fs.String(keyOAuthClientSecret, "", "with --url: the `SECRET` of the --oauth-client-id client")
	fs.String(keyOAuthClientMetadataURL, "", "with --url: use the client ID metadata document at `URL` as the OAuth client ID where it is accepted")
}
