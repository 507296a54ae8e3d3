package configload

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/mcphost/mcphost/config"
)

func TestOAuthEntry(t *testing.T) {
	env := map[string]string{"HOME": "/home/u", "GH_SECRET": "s3cret"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	raw := map[string]any{"gh": map[string]any{"url": "https://mcp.example/mcp", "oauth": map[string]any{
		"clientId": "abc", "client_secret": "${GH_SECRET}", "scopes": "repo read:org", "redirect-port": 8976,
		"client_metadata_url": "https://mcphost.example/client.json",
	}}}
	specs, err := ServersFromMap(raw, "f.json", "/p", lookup)
	if err != nil {
		t.Fatal(err)
	}
	want := &config.OAuth{ClientID: "abc", ClientSecret: "s3cret", Scopes: []string{"repo", "read:org"}, RedirectPort: 8976, ClientMetadataURL: "https://mcphost.example/client.json"}
	if !reflect.DeepEqual(specs[0].OAuth, want) {
		t.Errorf("oauth = %+v, want %+v", specs[0].OAuth, want)
	}

	for _, tt := range []struct {
		oauth any
		want  string
	}{
		{"x", `"oauth" must be an object`},
		{map[string]any{"client": "x"}, `unknown field "client"`},
		{map[string]any{"client_secret": "x"}, `without "oauth.client_id"`},
		{map[string]any{"redirect_port": 70000}, `port number from 1 to 65535`},
		{map[string]any{"client_metadata_url": "http://x/doc"}, `must be an https:// URL with a path`},
		{map[string]any{"scopes": []any{map[string]any{}}}, `"oauth.scopes" must be a list`},
	} {
		_, err := ServersFromMap(map[string]any{"gh": map[string]any{"url": "https://mcp.example/mcp", "oauth": tt.oauth}}, "f.json", "/p", lookup)
		var ce *config.Error
		if !errors.As(err, &ce) || ce.Server != "gh" || ce.Field != "oauth" || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("oauth %v: %v, want an error on gh's oauth with %q", tt.oauth, err, tt.want)
		}
	}
}

func TestOAuthFlags(t *testing.T) {
	parse := func(args ...string) (*config.Settings, error) {
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		RegisterFlags(fs)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		return Load(LoadOptions{Flags: fs, HomeDir: t.TempDir(), WorkDir: t.TempDir(), Env: func(string) (string, bool) { return "", false }})
	}
	s, err := parse("--url", "http://127.0.0.1:9/mcp", "--oauth-client-id", "id", "--oauth-client-secret", "sec")
	if err != nil {
		t.Fatal(err)
	}
	if o := s.Servers[0].OAuth; o == nil || o.ClientID != "id" || o.ClientSecret != "sec" {
		t.Errorf("--url server's oauth = %+v", o)
	}
	for _, args := range [][]string{
		{"--oauth-client-id", "id"},
		{"--stdio", "x", "--oauth-client-id", "id"},
		{"--url", "http://127.0.0.1:9/mcp", "--oauth-client-secret", "sec"},
		{"--url", "http://127.0.0.1:9/mcp", "--oauth-client-metadata-url", "https://x/"},
	} {
		if _, err := parse(args...); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}
