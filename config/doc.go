// Package config turns mcphost's command-line flags, MCPHOST_* environment
// variables and config files into plain Go values: a Settings struct and a
// list of ServerSpec, one per MCP server. It is the only package that looks
// at raw config maps; everything downstream sees normalised values.
//
// Settings come, highest precedence first, from flags, MCPHOST_* variables
// (MCPHOST_MODEL, MCPHOST_MAX_STEPS, ...; dashes become underscores), the
// project config file, the user config file and built-in defaults.
//
// Config files are YAML (.yml, .yaml) or JSON (.json). mcphost reads
// ~/.mcp.json, then the first of ~/.mcphost.yml, ~/.mcphost.yaml and
// ~/.mcphost.json, then the first of config.yml, config.yaml and
// config.json in the platform's config directory (Dirs.Config) as user
// files, and ./.mcp.json and then the first of ./.mcphost.yml,
// ./.mcphost.yaml and ./.mcphost.json in the working directory as project
// files; --config FILE replaces all of them. UserDirs says where each
// platform keeps config and state. The
// mcpServers section accepts both the Claude Desktop / Claude Code format
// and mcphost's own (type local/remote) format; see ServersFromMap.
package config
