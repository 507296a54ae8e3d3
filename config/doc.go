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
//
// Project files come with the folder, not from the user, so Load reads
// them only when trusted: TrustStore records trusted files by path and
// SHA-256 (TrustFile says where), LoadOptions.TrustProject (--trust-project,
// MCPHOST_TRUST_PROJECT) trusts them for one run, and the untrusted ones
// are listed in Settings.Untrusted, with ProjectFile.Describe saying what
// each would start and set. Even a trusted project file's approval rules
// are kept apart (Approval.Project), to only tighten the user's, and its
// yolo is refused.
package config
