// Package builtin holds the MCP servers compiled into mcphost, so that it
// is useful with nothing else installed: fs (files, confined to allowed
// directories), bash (shell commands with a timeout and an output cap),
// fetch (a web page as Markdown) and todo (a task list for the session).
// Each is an ordinary *mcp.Server of the official SDK, which the servers
// package reaches over the in-memory transport; config selects one with
// `type: builtin`, `name` and `options`.
//
// The tools declare MCP annotations (readOnlyHint, destructiveHint,
// openWorldHint) truthfully: approval allows the read-only, closed-world
// ones without asking and asks for the rest.
package builtin

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcphost/mcphost/config"
)

// Names lists the built-in servers.
func Names() []string { return []string{"fs", "bash", "fetch", "todo"} }

// implementation names our servers to the client.
func implementation(name string) *mcp.Implementation {
	return &mcp.Implementation{Name: "mcphost-" + name, Version: "1"}
}

// New creates the built-in server that spec names, configured by its
// options. ctx is the life of the server: resources it holds (open
// directories) are released when ctx ends. New has the signature of
// servers.Options.Builtin.
func New(ctx context.Context, spec config.ServerSpec) (*mcp.Server, error) {
	s, err := configure(spec)
	if err != nil {
		return nil, err
	}
	return s.serve(ctx), nil
}

// Check validates a builtin spec as New would, without keeping anything
// open or registering any tool, so that a mistake is a config error at
// start-up naming the file, the server and the field. Errors are
// *config.Error.
func Check(spec config.ServerSpec) error {
	s, err := configure(spec)
	if err == nil {
		s.close()
		return nil
	}
	if ce, ok := err.(*config.Error); ok {
		return ce
	}
	return &config.Error{File: spec.Source, Server: spec.Name, Field: "options", Message: err.Error()}
}

// configured is a built-in server whose options were read and checked,
// with what they name opened, before its tools are registered: New goes
// on to serve it, Check only needs to know that it could.
type configured interface {
	// serve registers the tools; ctx is the life of the server.
	serve(ctx context.Context) *mcp.Server
	// close releases what configuring opened, for a server never served.
	close()
}

// configure reads and checks the options of the server spec names.
func configure(spec config.ServerSpec) (configured, error) {
	switch spec.Builtin {
	case "fs":
		var o FSOptions
		if err := decodeOptions(spec, &o); err != nil {
			return nil, err
		}
		o.Protected = spec.Protected
		return newFSServer(o)
	case "bash":
		var o BashOptions
		if err := decodeOptions(spec, &o); err != nil {
			return nil, err
		}
		return newBashServer(o)
	case "fetch":
		var o FetchOptions
		if err := decodeOptions(spec, &o); err != nil {
			return nil, err
		}
		return newFetchServer(o)
	case "todo":
		var o struct{}
		if err := decodeOptions(spec, &o); err != nil {
			return nil, err
		}
		return newTodoServer(), nil
	}
	return nil, unknown(spec)
}

func unknown(spec config.ServerSpec) error {
	if spec.Builtin == "" {
		return &config.Error{File: spec.Source, Server: spec.Name, Field: "name",
			Message: fmt.Sprintf(`a builtin server needs "name": one of %s`, strings.Join(Names(), ", "))}
	}
	return &config.Error{File: spec.Source, Server: spec.Name, Field: "name",
		Message: fmt.Sprintf(`there is no built-in server %q: use one of %s`, spec.Builtin, strings.Join(Names(), ", "))}
}
