// Package openai implements provider.Provider on any server that speaks the
// OpenAI chat-completions API: llama.cpp's llama-server, LM Studio, vLLM,
// Ollama's /v1, LocalAI, Jan, and OpenAI itself.
//
// It owns the translation between the neutral provider types and the wire
// format (streamed as server-sent events, tool calls assembled from
// fragments by index, reasoning_content or reasoning as thinking, usage
// from the last chunk), what each engine says about its models beyond the
// standard /v1/models (llama.cpp's /props, vLLM's max_model_len, LM
// Studio's /api/v0/models), and the wording of their failures.
//
// The client is written by hand rather than on an SDK: the wire format is
// small, the engines differ in the fields an SDK does not model (reasoning,
// context windows, error bodies), and the stream is read with one small
// buffer per call, as the Ollama backend does, to keep the host's own time
// per agent step well under a millisecond.
package openai

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcphost/mcphost/provider"
)

// Kind is the software behind the server: the name of its row in
// provider.Engines, which gives its display name and the hints its errors
// carry (how to start it, how its window is set, how tools are turned on).
// It also decides where the model's context window and vision are read.
type Kind string

// The kinds of server whose models this package reads more about than
// /v1/models says (llama.cpp's /props, LM Studio's /api/v0/models,
// Ollama's /api/show) or asks in their own way not to think. KindOpenAI is
// any other OpenAI-compatible server; New detects the others from the
// owned_by of /v1/models when told KindOpenAI. Any other name of
// provider.Engines is a Kind too.
const (
	KindOpenAI   Kind = provider.EngineOpenAI
	KindLlamaCpp Kind = provider.EngineLlamaCpp
	KindLMStudio Kind = provider.EngineLMStudio
	KindVLLM     Kind = provider.EngineVLLM
	KindOllama   Kind = provider.EngineOllama
)

// row is the kind's row of the engine table; a kind the table does not
// have is a plain OpenAI-compatible server.
func (k Kind) row() provider.Engine {
	if e, ok := provider.LookupEngine(string(k)); ok {
		return e
	}
	e, _ := provider.LookupEngine(provider.EngineOpenAI)
	return e
}

// displayName is how messages name the software.
func (k Kind) displayName() string { return k.row().Display }

// Options configure a Provider.
type Options struct {
	// Name is the prefix of model references for this engine ("openai",
	// "llamacpp", or a name from a config file's providers).
	Name string
	// Kind is the software behind URL; KindOpenAI (or "") lets the
	// Provider tell from the server's answers.
	Kind Kind
	// URL is the API's base, ending in /v1 as a rule
	// ("http://127.0.0.1:8080/v1"); a URL without a path gets /v1.
	URL string
	// APIKey, when not empty, is sent as "Authorization: Bearer KEY".
	// KeySource says where it came from ("--provider-api-key",
	// "OPENAI_API_KEY"), for the error when the server refuses it; the
	// key itself is never quoted.
	APIKey, KeySource string
	// Headers are sent with every request (after Authorization, which
	// they may replace).
	Headers map[string]string
	// HTTPClient is used for every request; nil means
	// http.DefaultClient. It should have no overall Timeout, since answers
	// stream for as long as the model writes.
	HTTPClient *http.Client
	// Warn hears of problems that do not stop a call: a server that
	// cannot give the model tools, so that it answers without them. Nil
	// drops them.
	Warn func(string)
}

// Provider talks to one OpenAI-compatible server. It is safe for
// concurrent use.
type Provider struct {
	opts Options
	base *url.URL // the API base: .../v1
	root *url.URL // the server's root, where /props and /api/v0 live
	http *http.Client

	// kind is opts.Kind, or what the server's model list showed it to be.
	kind atomic.Pointer[Kind]

	// callSeq numbers tool calls that came without an ID.
	callSeq atomic.Uint64

	// tools caches the wire form of tool declarations: the runner sends
	// the same catalogue on every step.
	toolsMu sync.Mutex
	tools   map[string][]byte

	// noTools holds the models the server refused tools for; they are
	// asked without tools from then on, after one warning.
	noTools sync.Map

	retry Retry
}

var (
	_ provider.Provider = (*Provider)(nil)
	_ provider.Lister   = (*Provider)(nil)
)

// New returns a Provider for the server at opts.URL.
func New(opts Options) (*Provider, error) {
	base, err := ParseURL(opts.URL)
	if err != nil {
		return nil, err
	}
	if opts.Kind == "" {
		opts.Kind = KindOpenAI
	}
	if opts.Name == "" {
		opts.Name = string(opts.Kind)
	}
	hc := opts.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	root := *base
	root.Path = strings.TrimSuffix(strings.TrimSuffix(root.Path, "/"), "/v1")
	p := &Provider{opts: opts, base: base, root: &root, http: hc, retry: provider.DefaultRetry()}
	k := opts.Kind
	p.kind.Store(&k)
	return p, nil
}

// ParseURL checks an API base URL: http or https, with a host; without a
// path it gets /v1, the path every OpenAI-compatible server uses.
func ParseURL(s string) (*url.URL, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, fmt.Errorf("no URL for the OpenAI-compatible server: give one with --provider-url, e.g. http://127.0.0.1:8080/v1")
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		// Not quoted: a URL may carry a token in its query.
		return nil, fmt.Errorf("the provider URL must be an http:// or https:// address such as http://127.0.0.1:8080/v1")
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/v1"
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawQuery, u.Fragment = "", ""
	return u, nil
}

// Name returns the prefix of model references for this engine.
func (p *Provider) Name() string { return p.opts.Name }

// Kind returns the software behind the server, as configured or as its
// model list showed it.
func (p *Provider) Kind() Kind { return *p.kind.Load() }

// URL returns the API's base URL.
func (p *Provider) URL() string { return p.base.String() }

// Engine names the server for messages: "llama.cpp at http://…/v1", or
// with a configured name, "gpu-box (vLLM at http://…/v1)".
func (p *Provider) Engine() string {
	s := p.Kind().displayName() + " at " + p.base.String()
	if e, ok := provider.LookupEngine(p.opts.Name); (!ok || e.Name != p.opts.Name) && p.opts.Name != string(p.Kind()) {
		s = fmt.Sprintf("%s (%s)", p.opts.Name, s)
	}
	return s
}

// warn reports a problem that does not stop the call.
func (p *Provider) warn(msg string) {
	if p.opts.Warn != nil {
		p.opts.Warn(msg)
	}
}

// newRequest builds a request to path under the API base (or the root when
// root is set), with the key and headers.
func (p *Provider) header(h http.Header) {
	h.Set("User-Agent", "mcphost")
	if p.opts.APIKey != "" {
		h.Set("Authorization", "Bearer "+p.opts.APIKey)
	}
	for k, v := range p.opts.Headers {
		h.Set(k, v)
	}
}
