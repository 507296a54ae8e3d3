// Package ollama implements provider.Provider on a local Ollama server,
// through its native /api/chat (streaming, with tools) and /api/show
// endpoints and the typed client of github.com/ollama/ollama/api.
//
// It owns the translation between the neutral provider types and Ollama's
// wire types, and the wording of Ollama's failures for the user.
package ollama

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ollama/ollama/api"

	"github.com/mcphost/mcphost/provider"
)

// row is Ollama's row of the engine table: where it listens unless told
// otherwise, and what to do when it does not answer.
func row() provider.Engine {
	e, _ := provider.LookupEngine(provider.EngineOllama)
	return e
}

// Provider talks to one Ollama server. It is safe for concurrent use.
type Provider struct {
	base   *url.URL
	http   *http.Client
	client *api.Client

	// callSeq numbers tool calls Ollama sent without an ID, so every call
	// in a conversation has a distinct one.
	callSeq atomic.Uint64

	// tools caches converted tool declarations: the runner sends the same
	// catalogue on every step, and decoding each schema again would cost
	// more than the rest of the request building together.
	toolsMu sync.Mutex
	tools   map[string]cachedTool

	retry Retry

	// source says where the address came from, for errors about it; ""
	// for the default address. See SetSource.
	source string
}

var _ provider.Provider = (*Provider)(nil)

// New returns a Provider for the Ollama server at host, written in any form
// OLLAMA_HOST accepts ("127.0.0.1:11434", "http://host:port", "host",
// "https://host/path"); "" means where the engine table says Ollama listens. The caller reads OLLAMA_HOST,
// not New. A nil httpClient means http.DefaultClient; it should have no
// overall Timeout, since answers stream for as long as the model writes.
func New(host string, httpClient *http.Client) (*Provider, error) {
	base, err := ParseHost(host)
	if err != nil {
		return nil, err
	}
	if httpClient == nil {
		httpClient = http.DefaultClient
	}
	return &Provider{base: base, http: httpClient, client: api.NewClient(base, httpClient), retry: provider.DefaultRetry()}, nil
}

// ParseHost turns a host as OLLAMA_HOST writes it into the server's base
// URL, following the rules of Ollama's own envconfig.Host: without a scheme
// it is http and the port 11434; with "http://" or "https://" and no port
// the port is 80 or 443; a path is kept for servers behind a proxy. Unlike
// Ollama it refuses, rather than replaces, a bad port or scheme, so a typo
// is reported instead of silently aimed elsewhere.
func ParseHost(host string) (*url.URL, error) {
	s := strings.TrimSpace(host)
	if s == "" {
		s = row().URL
	}
	invalid := func(why string) error {
		return fmt.Errorf("invalid Ollama host %q: %s", host, why)
	}

	defaultPort := "11434"
	scheme, hostport, ok := strings.Cut(s, "://")
	switch {
	case !ok:
		scheme, hostport = "http", s
		if s == "ollama.com" {
			scheme, hostport = "https", "ollama.com:443"
		}
	case scheme == "http":
		defaultPort = "80"
	case scheme == "https":
		defaultPort = "443"
	default:
		return nil, invalid(fmt.Sprintf("scheme %q is not http or https", scheme))
	}

	hostport, path, _ := strings.Cut(hostport, "/")
	if hostport == "" {
		return nil, invalid("no host name")
	}
	name, port, err := net.SplitHostPort(hostport)
	if err != nil {
		name, port = hostport, defaultPort
		if ip := net.ParseIP(strings.Trim(hostport, "[]")); ip != nil {
			name = ip.String()
		}
	}
	if name == "" {
		// ":11434" is how a server is told to listen everywhere; a client
		// reaches that server on loopback.
		name = "127.0.0.1"
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return nil, invalid(fmt.Sprintf("port %q is not a number from 1 to 65535", port))
	}

	u := &url.URL{Scheme: scheme, Host: net.JoinHostPort(name, port)}
	if path != "" {
		u.Path = "/" + path
	}
	// Re-parse to catch what url.URL happily holds but cannot be sent,
	// such as spaces in the host name.
	if _, err := url.Parse(u.String()); err != nil || strings.ContainsAny(name, " \t/?#@") {
		return nil, invalid("not a host name or address")
	}
	return u, nil
}

// SetSource says where the server's address came from ("OLLAMA_HOST",
// "--ollama-host", a config file's setting), so that an error about the
// address (nothing answers there, or not Ollama) says what to change.
// Call it before the Provider is used.
func (p *Provider) SetSource(source string) { p.source = source }

// Name returns "ollama", the prefix of model references for this backend.
func (p *Provider) Name() string { return "ollama" }

// Show describes a model through /api/show, retried as Chat is.
func (p *Provider) Show(ctx context.Context, model string) (provider.ModelInfo, error) {
	var resp *api.ShowResponse
	err := p.withRetry(ctx, model, func() (bool, error) {
		var err error
		resp, err = p.client.Show(ctx, &api.ShowRequest{Model: model})
		return false, err
	})
	if err != nil {
		return provider.ModelInfo{}, err
	}
	info := provider.ModelInfo{
		Name:          model,
		Capabilities:  make([]string, len(resp.Capabilities)),
		ContextLength: contextLength(resp.ModelInfo),
	}
	for i, c := range resp.Capabilities {
		info.Capabilities[i] = string(c)
	}
	return info, nil
}

// contextLength reads the trained context window from /api/show's
// model_info, where it is keyed by architecture ("qwen3.context_length").
func contextLength(info map[string]any) int {
	if arch, ok := info["general.architecture"].(string); ok {
		if n := toInt(info[arch+".context_length"]); n > 0 {
			return n
		}
	}
	for k, v := range info {
		if strings.HasSuffix(k, ".context_length") {
			if n := toInt(v); n > 0 {
				return n
			}
		}
	}
	return 0
}

func toInt(v any) int {
	switch n := v.(type) {
	case float64:
		return int(n)
	case int:
		return n
	case int64:
		return int(n)
	case interface{ Int64() (int64, error) }: // json.Number
		i, _ := n.Int64()
		return int(i)
	}
	return 0
}
