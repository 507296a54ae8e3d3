// Package configload turns mcphost's command-line flags, MCPHOST_*
// environment variables, config files and script files into the plain
// values of package config: a config.Settings and a list of
// config.ServerSpec, one per MCP server. It is the only package that looks
// at raw config maps, viper, YAML or pflag; everything downstream sees
// normalised values.
//
// Settings come, highest precedence first, from flags (RegisterFlags
// defines them all), a script's front matter, MCPHOST_* variables
// (MCPHOST_MODEL, MCPHOST_MAX_STEPS, ...; dashes become underscores), the
// project config file, the user config file and built-in defaults; Load
// stacks them and checks every value, each problem a *config.Error naming
// the file, server and field. Unknown keys are warned about with the key
// probably meant (Settings.Warnings), and a YAML error names its line.
//
// Config files are YAML (.yml, .yaml) or JSON (.json). mcphost reads
// ~/.mcp.json, then the first of ~/.mcphost.yml, ~/.mcphost.yaml and
// ~/.mcphost.json, then the first of config.yml, config.yaml and
// config.json in the platform's config directory (Dirs.Config) as user
// files, and ./.mcp.json and then the first of ./.mcphost.yml,
// ./.mcphost.yaml and ./.mcphost.json in the working directory as project
// files; --config FILE replaces all of them. Hooks may also come from
// hooks.yml (or .yaml, .json) in the config directory and, as a project
// file, .mcphost/hooks.yml. UserDirs says where each platform keeps
// config, state and cache. The mcpServers section accepts both the Claude
// Desktop / Claude Code format and mcphost's own (type local/remote)
// format, with ${VAR} expanded; see ServersFromMap. Script files
// (LoadScript, TakeScriptArgs) carry settings and servers in YAML front
// matter above the prompt; --url and --stdio give one server on the
// command line instead (AdhocServer).
//
// Project files come with the folder, not from the user, so Load reads
// them only when trusted: TrustStore records trusted files by path and
// SHA-256 (TrustFile says where), LoadOptions.TrustProject (--trust-project,
// MCPHOST_TRUST_PROJECT) trusts them for one run, and the untrusted ones
// are listed in Settings.Untrusted, with Describe saying what each would
// start and set. Files the user names (--config, a script) and the user's
// own files need no trust. Even a trusted project file's approval rules
// are kept apart (Approval.Project), to only tighten the user's, and its
// yolo is refused.
package configload
