package host

import (
	"fmt"
	"math"
	"os"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/internal/configload"
)

// LoadOptions say where [LoadConfig] reads the configuration. The zero value
// reads it as the mcphost command does.
type LoadOptions struct {
	// File, when not empty, is read instead of the usual config files, as
	// the command's --config does. It is read with NoFiles too.
	File string
	// NoFiles reads no config files (but File) and no MCPHOST_* or
	// OLLAMA_HOST variables: the defaults only, for programs that set
	// everything themselves.
	NoFiles bool
	// TrustProject uses the project config files of the working directory
	// (./.mcp.json, ./.mcphost.*) even when the user has not trusted them
	// (see "mcphost trust"); otherwise an untrusted one is left out, and
	// the Settings' Untrusted names it ([New] warns about it).
	TrustProject bool
}

// LoadConfig reads the configuration as the mcphost command does (the
// config files, the MCPHOST_* variables and the defaults, by the same
// precedence) and returns it as a value a program may change before it
// gives it to [New] as [Options.Config]. Unlike the command, it adds no
// default server when no file names one: the [Host] starts the servers the
// configuration names, and nothing else. A problem in a file or a
// variable is an error matching [ErrConfig], naming them.
func LoadConfig(opts LoadOptions) (*config.Settings, error) {
	s, err := configload.Load(configload.LoadOptions{ConfigFile: opts.File, Isolated: opts.NoFiles, TrustProject: opts.TrustProject})
	if err != nil {
		return nil, configError(err)
	}
	return s, nil
}

// DefaultConfig is the configuration of the defaults alone, as
// LoadConfig(LoadOptions{NoFiles: true}) reads it: no model, no servers,
// and nothing from the user's files or environment. A program sets what
// it needs on it and gives it to [New] as [Options.Config].
func DefaultConfig() *config.Settings {
	// The working directory only anchors relative paths, of which the
	// defaults have none: a deleted one must not fail this.
	wd, err := os.Getwd()
	if err != nil {
		wd = os.TempDir()
	}
	s, err := configload.Load(configload.LoadOptions{Isolated: true, WorkDir: wd})
	if err != nil {
		// The defaults are constants that load without error; the zero
		// Settings, whose bounds mean the defaults too, is the fallback.
		return &config.Settings{}
	}
	return s
}

// checkSettings checks, in place, what a configuration given in code may
// get wrong that no config parser has seen: the servers without a source
// file, and the bounds. Problems match ErrConfig and name the setting as
// a config file does.
func checkSettings(s *config.Settings) error {
	servers, err := checkServers(s.Servers)
	if err != nil {
		return err
	}
	s.Servers = servers
	for _, b := range []struct {
		key   string
		value int
	}{
		{"max-steps", s.MaxSteps}, {"num-ctx", s.NumCtx}, {"max-result-bytes", s.MaxResultBytes},
		{"max-reply-bytes", s.MaxReplyBytes}, {"max-parallel-tools", s.MaxParallelTools},
		{"max-tool-calls", s.MaxToolCalls}, {"audit-result-bytes", s.AuditResultBytes},
	} {
		if b.value < 0 {
			return configError(&config.Error{Field: b.key, Message: fmt.Sprintf("%s must not be negative (0 means the default), got %d", b.key, b.value)})
		}
	}
	if s.ModelTimeout < 0 {
		return configError(&config.Error{Field: "model-timeout", Message: fmt.Sprintf("model-timeout must not be negative (0 means the default), got %s", s.ModelTimeout)})
	}
	if s.ModelIdleTimeout < 0 {
		return configError(&config.Error{Field: "model-idle-timeout", Message: fmt.Sprintf("model-idle-timeout must not be negative (0 means the default), got %s", s.ModelIdleTimeout)})
	}
	if s.ToolShare < 0 || s.ToolShare > 1 || math.IsNaN(s.ToolShare) {
		return configError(&config.Error{Field: "tool-share", Message: fmt.Sprintf("tool-share must be from 0 (always offer every tool) to 1 (the whole context window), got %v", s.ToolShare)})
	}
	return nil
}
