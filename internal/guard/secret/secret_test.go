package secret

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/mcphost/mcphost/config"
)

func TestIsSecretKey(t *testing.T) {
	for key, want := range map[string]bool{
		"GITHUB_TOKEN": true, "token": true, "Authorization": true, "x-api-key": true,
		"api_key": true, "apiKey": true, "password": true, "client_secret": true,
		"DB_PASSWD": true, "Cookie": true,
		"prompt_tokens": false, "path": false, "message": false, "LOG_LEVEL": false, "author": false,
	} {
		if got := IsSecretKey(key); got != want {
			t.Errorf("IsSecretKey(%q) = %v, want %v", key, got, want)
		}
	}
}

func TestStringMasksPatternsAndValues(t *testing.T) {
	m := New("hunter2-very-secret", "hunter2")
	tests := []struct{ in, want string }{
		{"password is hunter2-very-secret!", "password is ***!"},
		{"Authorization: Bearer abc.DEF-123", "Authorization: Bearer ***"},
		{"curl -H 'Authorization: Basic dXNlcjpwYXNz'", "curl -H 'Authorization: Basic ***'"},
		{"GITHUB_TOKEN=ghp_12345 make", "GITHUB_TOKEN=*** make"},
		{`{"api_key": "sk-999", "n": 1}`, `{"api_key": "***", "n": 1}`},
		{"https://x.example/mcp?token=abc&x=1", "https://x.example/mcp?token=***&x=1"},
		{"prompt_tokens=120 completion_tokens=5", "prompt_tokens=120 completion_tokens=5"},
		{"nothing to see", "nothing to see"},
	}
	for _, tt := range tests {
		if got := m.String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	var nilMasker *Masker
	if got := nilMasker.String("Bearer abcdef"); got != "Bearer ***" {
		t.Errorf("nil masker: %q", got)
	}
}

func TestFromServersTakesDeclaredValues(t *testing.T) {
	m := FromServers([]config.ServerSpec{
		{Name: "a", Env: map[string]string{"API_TOKEN": "tok", "LOG_LEVEL": "warn", "DB_URL": "postgres://u:p@h/db", "ARGS": "--level debug"}},
		{Name: "b", Headers: map[string]string{"Authorization": "Bearer xyz987", "X-Trace": "1"}},
	})
	in := "tok postgres://u:p@h/db xyz987 warn 1 debug"
	if got, want := m.String(in), "*** *** *** warn 1 debug"; got != want {
		t.Errorf("String(%q) = %q, want %q", in, got, want)
	}
}

func TestFromSettingsTakesEngineKeysAndHeaders(t *testing.T) {
	m := FromSettings(&config.Settings{
		Servers:        []config.ServerSpec{{Name: "a", Env: map[string]string{"API_TOKEN": "tok"}}},
		ProviderAPIKey: "sk-provider-1",
		Providers: []config.Engine{{Name: "gpu", APIKey: "vllm-key-22",
			Headers: map[string]string{"X-Gateway-Token": "gw-333", "X-Team": "ml"}}},
	})
	in := "tok sk-provider-1 vllm-key-22 gw-333 ml"
	if got, want := m.String(in), "*** *** *** *** ml"; got != want {
		t.Errorf("String(%q) = %q, want %q", in, got, want)
	}
}

// TestFromServersTakesURLCredentials masks the password of a server's URL
// (as written, percent-encoded, and decoded) and a token given as the user
// name, but not a plain user name beside a password.
func TestFromServersTakesURLCredentials(t *testing.T) {
	m := FromServers([]config.ServerSpec{
		{Name: "a", URL: "http://ann:s3cret%2Fpw@127.0.0.1:8080/mcp"},
		{Name: "b", URL: "https://ghp_tokenvalue42@example.com/mcp"},
		{Name: "c", Env: map[string]string{"DB": "postgres://bob:hunter22@db/x"}},
	})
	for in, want := range map[string]string{
		"cannot connect to http://ann:s3cret%2Fpw@127.0.0.1:8080/mcp": "cannot connect to http://ann:***@127.0.0.1:8080/mcp",
		"password s3cret/pw":                       "password ***",
		"https://ghp_tokenvalue42@example.com/mcp": "https://***@example.com/mcp",
		"login bob:hunter22":                       "login bob:***",
	} {
		if got := m.String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestValueMasksACopy(t *testing.T) {
	m := New("s3cr3t-value")
	args := map[string]any{
		"password": "pw",
		"query":    "find s3cr3t-value",
		"nested":   []any{map[string]any{"token": "t", "n": 2.0}},
		"empty":    map[string]any{"secret": ""},
	}
	got := m.Map(args)
	if got["password"] != Mask || got["query"] != "find ***" {
		t.Errorf("masked = %v", got)
	}
	inner := got["nested"].([]any)[0].(map[string]any)
	if inner["token"] != Mask || inner["n"] != 2.0 {
		t.Errorf("nested = %v", inner)
	}
	if got["empty"].(map[string]any)["secret"] != "" {
		t.Error("an empty secret was replaced by the mask, which suggests a value where there is none")
	}
	if args["password"] != "pw" || args["nested"].([]any)[0].(map[string]any)["token"] != "t" {
		t.Error("Value modified its input")
	}
}

func TestHandlerMasksTheLog(t *testing.T) {
	var buf bytes.Buffer
	m := New("header-secret-42")
	log := slog.New(m.Handler(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	log = log.With("server", "x", "authorization", "anything")
	log.WithGroup("g").Debug("server said header-secret-42",
		"line", "sent Bearer abcdefgh", "error", errors.New("failed with header-secret-42"),
		"count", 3, "token", "t0k")
	out := buf.String()
	for _, leak := range []string{"header-secret-42", "abcdefgh", "anything", "t0k"} {
		if strings.Contains(out, leak) {
			t.Errorf("log leaks %q: %s", leak, out)
		}
	}
	for _, keep := range []string{"server=x", "g.count=3", "server said ***"} {
		if !strings.Contains(out, keep) {
			t.Errorf("log lacks %q: %s", keep, out)
		}
	}
}

func TestMaskerAddMasksLaterSecrets(t *testing.T) {
	m := New("configured-secret")
	if got := m.String("echo abc-123-token-value"); got != "echo abc-123-token-value" {
		t.Fatalf("masked before it was added: %q", got)
	}
	m.Add("abc-123-token-value", "")
	if got := m.String("echo abc-123-token-value and configured-secret"); got != "echo *** and ***" {
		t.Errorf("after Add: %q", got)
	}
	var zero Masker
	zero.Add("x") // does nothing, and does not panic
}

// TestStringMasksValuesNotWords: what follows a secret-looking key is
// masked when it is a literal value, and kept when it is an expansion (so
// the log shows the command that ran) or a word of a sentence.
func TestStringMasksValuesNotWords(t *testing.T) {
	var m *Masker
	kept := []string{
		`token=$(cat key) && curl -H "Authorization: Bearer $token" https://api.example`,
		`export GITHUB_TOKEN="${GITHUB_TOKEN:-}"; PASSWORD=$DB_PASSWORD ./run`,
		"token=`cat key` secret='$(pass show x)'",
		`set API_KEY=%API_KEY% && curl -u user:%PASSWORD%`,
		`with: {token: ${{ secrets.GITHUB_TOKEN }}}`,
		"passwd: no such resource",
		"cat: /etc/passwd: no such file or directory",
		"Error: token: not found, password: Required. Try again",
		"a Bearer token is needed; Basic auth is refused",
	}
	for _, in := range kept {
		if got := m.String(in); got != in {
			t.Errorf("String(%q) = %q, want it unchanged", in, got)
		}
	}
	masked := []struct{ in, want string }{
		{"password: hunter2 was refused", "password: *** was refused"},
		{"token: abc", "token: ***"},
		{"TOKEN=abc make && echo done", "TOKEN=*** make && echo done"},
		{`{"password": "correct horse battery staple", "user": "ann"}`, `{"password": "***", "user": "ann"}`},
		{`password='pass word' ./login`, `password='***' ./login`},
		{`{\"api_key\": \"sk-live-42\"}`, `{\"api_key\": \"***\"}`},
		{"Authorization: Bearer abc.DEF-123", "Authorization: Bearer ***"},
		{"Authorization: Basic dXNlcjpwYXNz more", "Authorization: Basic *** more"},
		{"token=ghp_abc$(x)", "token=***"},
	}
	for _, tt := range masked {
		if got := m.String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestValueMasksLiteralsUnderSecretKeys: under a secret-looking key each
// literal is masked, however deep, and an expansion or a true/false
// stays, so the log shows what was sent.
func TestValueMasksLiteralsUnderSecretKeys(t *testing.T) {
	m := New("s3cr3t-value")
	got := m.Map(map[string]any{
		"token":       "$(cat key)",
		"password":    123456.0,
		"auth":        true,
		"credentials": map[string]any{"user": "bob", "pass": "pw", "keys": []any{"k1", nil}},
		"secret":      "${VAULT_SECRET} s3cr3t-value",
		"api_key":     "sk-123",
	})
	want := map[string]any{
		"token":       "$(cat key)",
		"password":    Mask,
		"auth":        true,
		"credentials": map[string]any{"user": Mask, "pass": Mask, "keys": []any{Mask, nil}},
		"secret":      "${VAULT_SECRET} ***",
		"api_key":     Mask,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Map =\n%v\nwant\n%v", got, want)
	}
}

// TestExpansionDefaultsAreMaskedButThePlaceholder: the hint mcphost writes
// for an unset variable, "${MY_API_KEY:-default}", reads as the config
// form to type; a default written out is a value, masked as any other.
func TestExpansionDefaultsAreMaskedButThePlaceholder(t *testing.T) {
	m := New()
	for in, want := range map[string]string{
		"export MY_API_KEY or write ${MY_API_KEY:-default}": "export MY_API_KEY or write ${MY_API_KEY:-default}",
		"started with ${MY_API_KEY:-sk-live-4f9a8b7c6d}":    "started with ${MY_API_KEY:***}",
		"${DB_PASSWORD:-defaults}":                          "${DB_PASSWORD:***}",
		"MY_API_KEY:-default":                               "MY_API_KEY:***",
		"api_key=default":                                   "api_key=***",
	} {
		if got := m.String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}
