package config

import (
	"net/url"
	"time"
)

// Transport is how mcphost talks to an MCP server.
type Transport string

// The transports mcphost supports.
const (
	TransportStdio Transport = "stdio" // a child process, JSON-RPC over stdin/stdout
	TransportHTTP  Transport = "http"  // Streamable HTTP
	TransportSSE   Transport = "sse"   // legacy HTTP+SSE
	// TransportBuiltin is an MCP server compiled into mcphost, reached
	// over the SDK's in-memory transport (no subprocess).
	TransportBuiltin Transport = "builtin"
)

// DefaultStartTimeout bounds how long one server may take to start and list
// its tools when the config does not say. It is long because npx and uvx
// servers were seen to take 27 s on a busy 2-core machine.
const DefaultStartTimeout = 60 * time.Second

// DefaultServerWait bounds how long a model call waits for servers still
// starting whose tools are not known yet (see Settings.ServerWait). An
// installed npm server started through npx was measured ready in 1.5 to
// 2 s alone, and in up to 9 s with two more starting on a 2-core machine
// loaded 14 deep: the default covers that with a little margin, and a
// server that never answers costs this, not its whole start timeout.
const DefaultServerWait = 10 * time.Second

// Defaults for the reliability settings of a server (toolTimeout,
// maxRestarts, maxResultBytes) when the config does not say.
const (
	// DefaultToolTimeout bounds the silence of one tool call: no answer
	// and no progress.
	DefaultToolTimeout = 60 * time.Second
	// DefaultToolTotalTimeout bounds one tool call that keeps reporting
	// progress.
	DefaultToolTotalTimeout = 30 * time.Minute
	// DefaultMaxRestarts is how many automatic restarts a server that
	// keeps exiting gets within a minute.
	DefaultMaxRestarts = 5
	// DefaultMaxResultBytes is the most text one tool result may bring
	// into mcphost (and into a saved conversation); the rest is cut.
	// What the model sees is cut further to fit its context window.
	DefaultMaxResultBytes = 100_000
)

// ServerSpec is one MCP server, normalised from whichever config format it
// was written in. Variables are already expanded.
type ServerSpec struct {
	// Name is the key under mcpServers, with its case kept.
	Name      string
	Transport Transport

	// Command and Args start a stdio server; Env is added on top of the
	// user's environment (keys keep their case).
	Command string
	Args    []string
	Env     map[string]string
	// Dir is the working directory of a stdio server; empty means ours.
	Dir string

	// URL and Headers reach an http or sse server (header keys keep their case).
	URL     string
	Headers map[string]string
	// FallbackSSE tries an http server again as SSE when it answers, but
	// not as Streamable HTTP: the transport of a bare --url is not known.
	FallbackSSE bool
	// OAuth is how an http or sse server that asks for a sign-in (OAuth
	// 2.1, the MCP authorization spec) is signed in to; nil means with a
	// client registered dynamically, or not at all for servers that never
	// ask.
	OAuth *OAuth

	// Builtin names the in-process server of a builtin spec ("fs",
	// "bash", ...) and Options configures it.
	Builtin string
	Options map[string]any
	// Protected are files and folders (absolute paths) that a built-in
	// server which writes files (fs) refuses to change: mcphost's own
	// config, hooks, trust store, cache and session locks, and the project
	// scripts that trusted entries run. A model allowed to write files
	// could otherwise rewrite what mcphost runs or trusts. The loader
	// fills it; the user's own config can lift it per path.
	Protected []string

	// StartTimeout bounds connecting, initialize and tools/list.
	StartTimeout time.Duration
	// ToolTimeout bounds the silence of one tool call: the wait for its
	// answer, started again by each progress notification; 0 means
	// DefaultToolTimeout.
	ToolTimeout time.Duration
	// ToolTotalTimeout bounds one tool call however much progress it
	// reports; 0 means DefaultToolTotalTimeout, and it is never less than
	// ToolTimeout.
	ToolTotalTimeout time.Duration
	// Roots are the directories (absolute paths) offered to the server as
	// its roots (MCP roots); none means the server is not told that the
	// client has roots at all.
	Roots []string
	// MaxRestarts is how many times within a minute the server is
	// restarted after it exits; 0 means DefaultMaxRestarts, a negative
	// value never (the config's "maxRestarts: 0").
	MaxRestarts int
	// MaxResultBytes caps the text of one tool result; 0 means
	// DefaultMaxResultBytes.
	MaxResultBytes int

	// AllowedTools, when not empty, is the only tools exposed;
	// ExcludedTools are hidden. Both hold the server's own tool names.
	AllowedTools  []string
	ExcludedTools []string

	// Disabled servers are not started.
	Disabled bool

	// Source is the config file the server came from, for error messages.
	Source string

	// Err, when not nil, is why the entry cannot be used (a variable it
	// needs has no value): this server fails to start with it, while the
	// others run.
	Err error
}

// OAuth configures the sign-in to one remote server (the "oauth" object of
// its entry, or --oauth-client-id and friends with --url). Without a
// client ID or a client metadata document, mcphost registers itself with
// the server's authorization server (dynamic client registration).
type OAuth struct {
	// ClientID and ClientSecret are a client registered beforehand with
	// the authorization server; the secret is empty for a public client.
	ClientID, ClientSecret string
	// ClientMetadataURL is the https URL of a client ID metadata document
	// that describes mcphost, used as the client ID where the
	// authorization server accepts such documents.
	ClientMetadataURL string
	// Scopes, when not empty, are asked for instead of the ones the server
	// names.
	Scopes []string
	// RedirectPort is the loopback port the sign-in returns to
	// (http://127.0.0.1:PORT/callback), for a client registered with a
	// fixed redirect URI; 0 means any free port.
	RedirectPort int
}

// IsHTTPURL reports whether s is an address a remote server can be reached
// at: an http:// or https:// URL with a host.
func IsHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
