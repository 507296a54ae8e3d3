package host_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
)

func TestAServerThatCannotStartIsNamedWithItsCause(t *testing.T) {
	refuse := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "no", http.StatusServiceUnavailable)
	}))
	defer refuse.Close()
	tests := []struct {
		name string
		spec config.ServerSpec
		want []string // in the message
	}{
		{"missing command", config.ServerSpec{Name: "gone", Command: "/nonexistent/mcp-server"},
			[]string{`server "gone"`, "/nonexistent/mcp-server", "not found"}},
		{"exit status and stderr", config.ServerSpec{Name: "crash", Command: "sh", Args: []string{"-c", "echo boom-on-stderr >&2; exit 3"}, MaxRestarts: -1},
			[]string{`server "crash"`, "exit status 3", "boom-on-stderr"}},
		{"timeout", config.ServerSpec{Name: "slow", Command: "sh", Args: []string{"-c", "exec sleep 30"}, StartTimeout: 300 * time.Millisecond},
			[]string{`server "slow"`, "did not start within 300ms"}},
		{"HTTP status", config.ServerSpec{Name: "web", URL: refuse.URL, MaxRestarts: -1},
			[]string{`server "web"`, "503"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var news error
			h, err := host.New(context.Background(), host.Options{Config: noFiles("", "", tt.spec),
				OnStart: func(n host.StartNews) {
					if n.Server != "" {
						news = n.Err
					}
				}})
			if h != nil {
				h.Close()
			}
			var fromNews *host.ServerError
			if !errors.As(news, &fromNews) || fromNews.Server != tt.spec.Name {
				t.Errorf("OnStart heard %v; want the server's *ServerError", news)
			}
			var se *host.ServerError
			if !errors.Is(err, host.ErrNoServers) || !errors.Is(err, host.ErrServerStart) || !errors.As(err, &se) || se.Server != tt.spec.Name {
				t.Fatalf("New: %v (%#v); want ErrNoServers wrapping the server's *ServerError", err, se)
			}
			// A program that hears no warnings reads the cause in the error.
			for _, want := range tt.want {
				if !strings.Contains(err.Error(), want) || !strings.Contains(se.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
			if tt.name == "timeout" && !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("a timeout does not match context.DeadlineExceeded: %v", err)
			}
		})
	}
}

func TestEveryFailedServerIsInErrNoServers(t *testing.T) {
	var warned []string
	_, err := host.New(context.Background(), host.Options{Warn: func(s string) { warned = append(warned, s) },
		Config: noFiles("", "", config.ServerSpec{Name: "a", Command: "/nonexistent/a"}, config.ServerSpec{Name: "b", Command: "/nonexistent/b"})})
	var names []string
	if u, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range u.Unwrap() {
			var se *host.ServerError
			if errors.As(e, &se) {
				names = append(names, se.Server)
			}
		}
	}
	if strings.Join(names, " ") != "a b" {
		t.Errorf("servers in %v: %q, want a and b", err, names)
	}
	// Given a Warn, the program heard each error there, as the command
	// prints them above its last line.
	if len(warned) != 2 || !strings.Contains(err.Error(), "fix the errors above") {
		t.Errorf("warned %q; error %v", warned, err)
	}
}

func TestServersInCodeWithABadNameOrURLAreAConfigError(t *testing.T) {
	tests := []struct {
		name   string
		spec   config.ServerSpec
		server string
		field  string
	}{
		{"empty name", config.ServerSpec{Command: "x"}, "", "name"},
		{"blank name", config.ServerSpec{Name: " ", Command: "x"}, "", "name"},
		{"separator in name", config.ServerSpec{Name: "a__b", Command: "x"}, "a__b", "name"},
		{"bad URL", config.ServerSpec{Name: "web", Transport: config.TransportHTTP, URL: "localhost:8080/mcp"}, "web", "url"},
		{"URL not http", config.ServerSpec{Name: "web", URL: "ftp://example.com/mcp"}, "web", "url"},
		{"no command", config.ServerSpec{Name: "p", Transport: config.TransportStdio}, "p", "command"},
		{"unknown transport", config.ServerSpec{Name: "p", Transport: "tcp", Command: "x"}, "p", "transport"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := host.New(context.Background(), host.Options{Config: noFiles("", "", tt.spec)})
			if h != nil {
				h.Close()
			}
			var ce *config.Error
			if !errors.Is(err, host.ErrConfig) || errors.Is(err, host.ErrNoServers) || !errors.As(err, &ce) || ce.Server != tt.server || ce.Field != tt.field {
				t.Errorf("New: %v (%+v); want a config error on server %q, field %s", err, ce, tt.server, tt.field)
			}
		})
	}
	// Twice the same name.
	_, err := host.New(context.Background(), host.Options{Config: noFiles("", "", config.ServerSpec{Name: "a", Command: "x"}, config.ServerSpec{Name: "a", Command: "y"})})
	if !errors.Is(err, host.ErrConfig) {
		t.Errorf("a name given twice: %v", err)
	}
}
