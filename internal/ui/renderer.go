package ui

import (
	"encoding/json"
	"io"

	"github.com/mcphost/mcphost/host"
)

// Renderer shows a run: Text for people, JSON for programs.
type Renderer interface {
	// Handle shows one event of a turn.
	Handle(host.Event)
	// Warn shows a problem that does not stop the run.
	Warn(string)
	// Start reports the servers and the tools the model sees.
	Start(servers []ServerRecord, tools []string)
	// Finish ends the output; exitCode is what the run exits with.
	Finish(res host.Result, err error, exitCode int)
}

var (
	_ Renderer = (*Text)(nil)
	_ Renderer = (*JSON)(nil)
)

// WriteJSON writes v as indented JSON, as the commands without a model
// print their results.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
