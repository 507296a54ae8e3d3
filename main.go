// Command mcphost lets a local model use the tools of any MCP server: it
// answers one-shot and piped prompts, runs script files, opens a chat when
// run in a terminal without a prompt, and reaches MCP servers without a
// model (servers, tools, prompts, resources).
//
// The command is internal/cli; a Go program uses package host instead.
package main

import (
	"os"

	"github.com/mcphost/mcphost/internal/cli"
)

func main() { os.Exit(cli.Main()) }
