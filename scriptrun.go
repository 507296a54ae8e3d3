package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/script"
	"github.com/mcphost/mcphost/secret"
)

// runScript runs "mcphost script FILE", also reached through a script's
// "#!/usr/bin/env -S mcphost script" line: the script's front matter is a
// settings layer between the flags and the config files, its mcpServers
// (if any) replace the config's, and its prompt is answered like -p. A
// script without a prompt opens the chat.
func runScript(fs *pflag.FlagSet, vars map[string]string, stdin, stdout, stderr *os.File) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "mcphost: %v\n", err)
		return exitUsage
	}
	switch {
	case fs.NArg() < 2:
		return fail(fmt.Errorf("script needs a file: mcphost script FILE [--args:NAME VALUE ...]"))
	case fs.NArg() > 2:
		return fail(fmt.Errorf("unexpected argument %q after the script: give its variables as --args:NAME VALUE", fs.Arg(2)))
	}
	path := fs.Arg(1)
	f, err := script.Load(path, vars, nil)
	if err != nil {
		return fail(err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return fail(err)
	}
	opts := config.LoadOptions{Flags: fs, Script: f.Settings, ScriptFile: abs}
	if f.Servers != nil {
		// ${PROJECT_DIR} is the script's directory, as for a config file.
		specs, err := config.ServersFromMap(f.Servers, path, filepath.Dir(abs), f.Lookup)
		if err != nil {
			return fail(err)
		}
		opts.Servers = append([]config.ServerSpec{}, specs...) // not nil: "no servers" too replaces the config's
	}
	settings, err := config.Load(opts)
	if err != nil {
		return fail(err)
	}
	logger := newLogger(stderr, settings.Debug, secret.FromServers(settings.Servers))
	defer logResources(logger)
	logger.Debug("script read", "file", abs, "servers_from_script", f.Servers != nil)
	logConfigFiles(logger, settings)

	// -p on the command line wins over the script's prompt.
	prompt := settings.Prompt
	if prompt == "" {
		prompt = f.Prompt
	}
	if prompt, err = readPrompt(prompt, stdin); err != nil {
		return fail(err)
	}
	return answer(settings, logger, prompt, stdin, stdout, stderr,
		path+` has no prompt: write it after the front matter or as "prompt:", give -p "…", or run the script in a terminal for a chat`)
}
