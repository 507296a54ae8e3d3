package ollama

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mcphost/mcphost/ollamatest"
	"github.com/mcphost/mcphost/provider"
)

func TestParseHost(t *testing.T) {
	tests := []struct {
		host, want string
		wantErr    bool
	}{
		{host: "", want: "http://127.0.0.1:11434"},
		{host: "  ", want: "http://127.0.0.1:11434"},
		{host: "127.0.0.1:11434", want: "http://127.0.0.1:11434"},
		{host: "localhost", want: "http://localhost:11434"},
		{host: "example.com:8080", want: "http://example.com:8080"},
		{host: "http://host:1234", want: "http://host:1234"},
		{host: "http://host", want: "http://host:80"},
		{host: "https://host", want: "https://host:443"},
		{host: "https://host/ollama", want: "https://host:443/ollama"},
		{host: "ollama.com", want: "https://ollama.com:443"},
		{host: "0.0.0.0", want: "http://0.0.0.0:11434"},
		{host: ":11434", want: "http://127.0.0.1:11434"},
		{host: "::1", want: "http://[::1]:11434"},
		{host: "[::1]:8080", want: "http://[::1]:8080"},
		{host: "ftp://host", wantErr: true},
		{host: "http://", wantErr: true},
		{host: "host:abc", wantErr: true},
		{host: "host:70000", wantErr: true},
		{host: "my host", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			u, err := ParseHost(tt.host)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("ParseHost(%q) = %v, want an error", tt.host, u)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if u.String() != tt.want {
				t.Errorf("ParseHost(%q) = %q, want %q", tt.host, u, tt.want)
			}
		})
	}
}

func TestNewNamesBadHost(t *testing.T) {
	_, err := New("host:abc", nil)
	if err == nil || err.Error() != `invalid Ollama host "host:abc": port "abc" is not a number from 1 to 65535` {
		t.Errorf("err = %v", err)
	}
}

func newProvider(t *testing.T, s *ollamatest.Server) *Provider {
	t.Helper()
	p, err := New(s.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.SetRetry(fastRetry)
	return p
}

// fastRetry keeps DefaultRetry's number of attempts without its waits.
var fastRetry = Retry{Attempts: provider.DefaultRetry().Attempts, Delay: time.Millisecond, MaxDelay: 4 * time.Millisecond}

func TestShow(t *testing.T) {
	s := ollamatest.NewServer(ollamatest.Model{
		Name: "qwen3:8b", Capabilities: []string{"completion", "tools", "thinking"}, ContextLength: 40960, Family: "qwen3",
	})
	defer s.Close()
	info, err := newProvider(t, s).Show(context.Background(), "qwen3:8b")
	if err != nil {
		t.Fatal(err)
	}
	want := provider.ModelInfo{Name: "qwen3:8b", Capabilities: []string{"completion", "tools", "thinking"}, ContextLength: 40960}
	if !reflect.DeepEqual(info, want) {
		t.Errorf("Show = %+v, want %+v", info, want)
	}
	if !info.Has(provider.CapabilityThinking) {
		t.Error("no thinking capability")
	}
}

func TestContextLength(t *testing.T) {
	tests := []struct {
		name string
		info map[string]any
		want int
	}{
		{"by architecture", map[string]any{"general.architecture": "qwen3", "qwen3.context_length": 40960.0, "other.context_length": 1.0}, 40960},
		{"any key", map[string]any{"llama.context_length": 8192.0}, 8192},
		{"architecture key missing", map[string]any{"general.architecture": "x", "llama.context_length": 4096.0}, 4096},
		{"none", map[string]any{"general.architecture": "x"}, 0},
		{"nil", nil, 0},
	}
	for _, tt := range tests {
		if got := contextLength(tt.info); got != tt.want {
			t.Errorf("%s: contextLength = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// closedPort returns an address where nothing listens.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

func TestErrors(t *testing.T) {
	s := ollamatest.NewServer(ollamatest.Model{Name: "tiny"})
	defer s.Close()
	addr := closedPort(t)

	// Something that is not Ollama: its 404 is a wrong host, not a
	// missing model.
	other := http.Server{Handler: http.NotFoundHandler()}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go other.Serve(l)
	defer other.Close()

	// Something that takes the connection and hangs up without a word.
	hangup, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer hangup.Close()
	go func() {
		for {
			c, err := hangup.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()

	tests := []struct {
		name  string
		host  string
		model string
		reply *ollamatest.Reply
		kind  error
		msg   string
	}{
		{name: "unreachable", host: addr, model: "tiny", kind: provider.ErrUnreachable,
			msg: `cannot reach Ollama at http://` + addr + `: is "ollama serve" running? (tried 4 times)`},
		{name: "hang up", host: hangup.Addr().String(), model: "tiny", kind: provider.ErrUnreachable,
			msg: `cannot reach Ollama at http://` + hangup.Addr().String() + `: is "ollama serve" running? (tried 4 times)`},
		{name: "not found", host: s.URL, model: "qwen3:8b", kind: provider.ErrModelNotFound,
			msg: `model "qwen3:8b" not found: run "ollama pull qwen3:8b"`},
		{name: "server error", host: s.URL, model: "tiny", kind: provider.ErrProvider,
			reply: &ollamatest.Reply{Status: 500, Error: "model requires more system memory"},
			msg:   "ollama: model requires more system memory (tried 4 times)"},
		{name: "bad request", host: s.URL, model: "tiny", kind: provider.ErrProvider,
			reply: &ollamatest.Reply{Status: 400, Error: "invalid options"},
			msg:   "ollama: invalid options"},
		{name: "not ollama", host: "http://" + l.Addr().String(), model: "tiny", kind: provider.ErrProvider,
			msg: "Ollama at http://" + l.Addr().String() + " answered HTTP 404 Not Found (404 page not found): no Ollama API is there; give Ollama's address with OLLAMA_HOST or --ollama-host"},
	}
	for _, tt := range tests {
		for _, call := range []string{"show", "chat"} {
			if tt.reply != nil && call == "show" {
				continue // scripted replies are for /api/chat
			}
			t.Run(tt.name+"/"+call, func(t *testing.T) {
				p, err := New(tt.host, nil)
				if err != nil {
					t.Fatal(err)
				}
				p.SetRetry(fastRetry)
				if tt.reply != nil {
					s.Enqueue(*tt.reply)
					if tt.reply.Status >= 500 {
						for range fastRetry.Attempts - 1 { // one per retry
							s.Enqueue(*tt.reply)
						}
					}
				}
				if call == "show" {
					_, err = p.Show(context.Background(), tt.model)
				} else {
					_, err = p.Chat(context.Background(), provider.Request{Model: tt.model}, nil)
				}
				var perr *provider.Error
				if !errors.As(err, &perr) {
					t.Fatalf("err = %v (%T), want *provider.Error", err, err)
				}
				if !errors.Is(err, tt.kind) {
					t.Errorf("kind = %v, want %v", perr.Kind, tt.kind)
				}
				if err.Error() != tt.msg {
					t.Errorf("message = %q\nwant      %q", err, tt.msg)
				}
			})
		}
	}
}

func TestUntrustedCertificateIsNotUnreachable(t *testing.T) {
	ts := httptest.NewTLSServer(http.NotFoundHandler())
	defer ts.Close()
	p, err := New(ts.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Show(context.Background(), "tiny")
	if !errors.Is(err, provider.ErrProvider) || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("err = %v, want a provider error about the certificate", err)
	}
}
