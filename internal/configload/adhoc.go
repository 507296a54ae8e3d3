package configload

import (
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/shellwords"
)

// AdhocServer is the one server given on the command line with --url or
// --stdio (for "mcphost servers" and "mcphost tools") instead of the
// config's; nil when neither is given. A --url server is tried as
// Streamable HTTP, then as SSE.
func AdhocServer(rawURL, command string) (*config.ServerSpec, error) {
	switch {
	case rawURL != "" && command != "":
		return nil, &config.Error{Field: keyURL, Message: "give --url or --stdio, not both"}
	case rawURL != "":
		u, err := url.Parse(rawURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, &config.Error{Field: keyURL, Message: fmt.Sprintf("--url %q is not an http:// or https:// URL", rawURL)}
		}
		return &config.ServerSpec{
			Name: urlName(u), Transport: config.TransportHTTP, FallbackSSE: true,
			URL: rawURL, StartTimeout: config.DefaultStartTimeout, Source: "--url",
		}, nil
	case command != "":
		argv, err := shellwords.Split(command)
		if err != nil {
			return nil, &config.Error{Field: keyStdio, Message: fmt.Sprintf("--stdio: %v", err)}
		}
		if len(argv) == 0 {
			return nil, &config.Error{Field: keyStdio, Message: `--stdio needs the command that starts the server, e.g. --stdio "npx -y @modelcontextprotocol/server-everything"`}
		}
		return &config.ServerSpec{
			Name: commandName(argv), Transport: config.TransportStdio, Command: argv[0], Args: argv[1:],
			StartTimeout: config.DefaultStartTimeout, Source: "--stdio",
		}, nil
	}
	return nil, nil
}

// urlName names a remote server after its host; a bare address says
// nothing, so that is "server".
func urlName(u *url.URL) string {
	host := u.Hostname()
	if host == "localhost" || net.ParseIP(host) != nil {
		return "server"
	}
	return serverName(strings.ReplaceAll(host, ".", "-"))
}

// launchers run the program named by a later argument, which names the
// server better than they do.
var launchers = []string{"npx", "uvx", "uv", "node", "python", "python3", "deno", "bun", "bunx", "pipx", "docker"}

// commandName names a stdio server after its program: "npx -y
// @modelcontextprotocol/server-everything" is "server-everything".
func commandName(argv []string) string {
	name := filepath.Base(argv[0])
	if slices.Contains(launchers, name) {
		for _, a := range argv[1:] {
			if !strings.HasPrefix(a, "-") && a != "run" && a != "x" {
				name = filepath.Base(a)
				break
			}
		}
	}
	if i := strings.LastIndexByte(name, '@'); i > 0 {
		name = name[:i] // a version: pkg@1.2.3
	}
	return serverName(strings.TrimSuffix(name, filepath.Ext(name)))
}

// serverName keeps the characters a server name may have in tool names.
func serverName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	name := b.String()
	for strings.Contains(name, "__") {
		name = strings.ReplaceAll(name, "__", "_")
	}
	name = strings.Trim(name, "_-")
	if name == "" {
		return "server"
	}
	return name
}

// OnlyServer returns the spec named name, or an error listing the names:
// for the commands that work on one server.
func OnlyServer(specs []config.ServerSpec, name string) ([]config.ServerSpec, error) {
	var names []string
	for _, s := range specs {
		if s.Name == name {
			return []config.ServerSpec{s}, nil
		}
		names = append(names, s.Name)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no server named %q: no MCP servers are configured", name)
	}
	return nil, fmt.Errorf("no server named %q; configured: %s", name, strings.Join(names, ", "))
}
