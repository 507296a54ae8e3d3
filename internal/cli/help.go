package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"
)

// commandNames are mcphost's commands, in the order errors list them.
func commandNames() []string {
	return []string{"servers", "tools", "prompts", "resources", "script", "trust", "hooks", "models", "auth", "help"}
}

// helpText is the help for cmd: the whole usage for "" (and "help"), else
// the lines of usage.txt about cmd, which "mcphost help COMMAND" and
// "mcphost COMMAND --help" both print. An unknown cmd is an error listing
// the commands.
func helpText(fs *pflag.FlagSet, cmd string) (string, error) {
	full := strings.Replace(usage, "{{FLAGS}}", fs.FlagUsages(), 1)
	if cmd == "" || cmd == "help" {
		return full, nil
	}
	known := false
	for _, c := range commandNames() {
		known = known || c == cmd
	}
	if !known {
		return "", fmt.Errorf("unknown command %q: the commands are %s (mcphost help COMMAND)", cmd, strings.Join(commandNames(), ", "))
	}
	var b strings.Builder
	b.WriteString("Usage:\n")
	// A command's lines start "  mcphost CMD" and go on with lines
	// indented further.
	in := false
	for _, line := range strings.Split(usage, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		switch indent := len(line) - len(trimmed); {
		case indent == 2:
			in = trimmed == "mcphost "+cmd || strings.HasPrefix(trimmed, "mcphost "+cmd+" ")
		case indent < 2:
			in = false
		}
		if in {
			b.WriteString(line + "\n")
		}
	}
	switch cmd {
	case "servers", "tools", "prompts", "resources":
		b.WriteString("  --url URL or --stdio \"COMMAND\": use that server instead of the config's\n")
	}
	b.WriteString("\nmcphost --help shows the flags, the config files, the environment and the exit codes.\n")
	return b.String(), nil
}
