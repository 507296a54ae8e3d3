package host

import (
	"fmt"
	"strings"

	"github.com/mcphost/mcphost/config"
)

// checkServers checks the servers of a configuration given in code: the
// names of all, and the fields of those a program wrote itself (no Source:
// no config parser has seen them). A name or address that cannot work is
// a configuration error naming the server and the field, not a server that
// fails to start. A spec without a Transport is a stdio server when it has
// a Command and an http one when it has a URL. It returns the specs to
// run, the caller's slice left as it was; nil stays nil.
func checkServers(specs []config.ServerSpec) ([]config.ServerSpec, error) {
	if specs == nil {
		return nil, nil
	}
	out := make([]config.ServerSpec, len(specs))
	seen := map[string]bool{}
	for i, spec := range specs {
		fail := func(field, format string, args ...any) error {
			return configError(&config.Error{Server: spec.Name, Field: field, Message: fmt.Sprintf(format, args...)})
		}
		switch {
		case strings.TrimSpace(spec.Name) == "":
			return nil, configError(&config.Error{Field: "name", Message: fmt.Sprintf(
				"server %d of the configuration's servers has no name: give each server a name, as the key under mcpServers would be", i+1)})
		case strings.Contains(spec.Name, "__"):
			return nil, fail("name", `a server name must not contain "__", which separates it from its tools' names`)
		case seen[spec.Name]:
			return nil, fail("name", "the name is given to two servers of the configuration: give each server its own")
		}
		seen[spec.Name] = true
		if spec.Source != "" {
			// Read from a file (or a flag), and checked there.
			out[i] = spec
			continue
		}
		if spec.Transport == "" {
			switch {
			case spec.Command != "":
				spec.Transport = config.TransportStdio
			case spec.URL != "":
				spec.Transport = config.TransportHTTP
			}
		}
		switch spec.Transport {
		case config.TransportStdio:
			if strings.TrimSpace(spec.Command) == "" {
				return nil, fail("command", "a stdio server needs a Command: the program to run")
			}
		case config.TransportHTTP, config.TransportSSE:
			// The URL is not quoted back: it may carry a token in its query.
			if !config.IsHTTPURL(spec.URL) {
				return nil, fail("url", "the URL must be an http:// or https:// address")
			}
		case config.TransportBuiltin:
			// builtin.Check checks the name and options when the Host starts.
		case "":
			return nil, fail("command", "give a Command (a stdio server), a URL (an http server) or a Transport")
		default:
			return nil, fail("transport", "unknown Transport %q: use %q, %q, %q or %q", spec.Transport,
				config.TransportStdio, config.TransportHTTP, config.TransportSSE, config.TransportBuiltin)
		}
		out[i] = spec
	}
	return out, nil
}
