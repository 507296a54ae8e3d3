// Package config is mcphost's vocabulary: the plain values that describe a
// run, which the command, the library (package host) and every other
// package share. Settings is everything mcphost was told; ServerSpec is one
// MCP server (its Transport, command or URL, OAuth client, timeouts and
// tool filters); Approval, Hooks, Engine, Elicitation and ServerSampling
// are the rules and modes a run follows; ProjectFile is a project config
// file waiting for the user's trust; Error is a configuration problem
// worded for the user.
//
// It holds values, defaults and small pure methods on them only: it reads
// no file, no environment variable and no flag, so importing it costs
// little. The mcphost command fills these values from its flags, the
// MCPHOST_* variables and its config files (Claude Desktop and Claude Code
// .mcp.json, mcphost's YAML or JSON files, script front matter, --url and
// --stdio), reading project files only once the user trusts them; host.New
// does the same unless host.Options says to read nothing. A Go program may
// as well build the values itself and give them to host.New.
package config
