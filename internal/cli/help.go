package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"
)

// summaryColumn is where --help starts what a command does, after its
// synopsis (indented by 2).
const summaryColumn = 44

// helpText is the help for name: the whole usage for "" (and "help"),
// else that command's, which "mcphost help COMMAND" and "mcphost COMMAND
// --help" both print. An unknown name is an error listing the commands.
func helpText(fs *pflag.FlagSet, name string) (string, error) {
	if name == "" || name == "help" {
		full := strings.Replace(usage, "{{COMMANDS}}", commandsHelp(commands()), 1)
		return strings.Replace(full, "{{FLAGS}}", fs.FlagUsages(), 1), nil
	}
	c, known := lookup(name)
	if !known {
		return "", fmt.Errorf("unknown command %q: the commands are %s (mcphost help COMMAND)", name, strings.Join(commandNames(), ", "))
	}
	var b strings.Builder
	b.WriteString("Usage:\n")
	writeUsage(&b, c)
	if c.takes&flagsServer != 0 && !c.namesServerFlag() {
		b.WriteString("  " + oneServerHelp + "\n")
	}
	b.WriteString("\nmcphost --help shows the flags, the config files, the environment and the exit codes.\n")
	return b.String(), nil
}

// commandsHelp is --help's Commands section: every command's usage, and
// after those that take --url and --stdio without saying so, one line
// that says it for them all.
func commandsHelp(table []command) string {
	var b strings.Builder
	var oneServer []string
	for i, c := range table {
		writeUsage(&b, c)
		if c.takes&flagsServer == 0 || c.namesServerFlag() {
			continue
		}
		oneServer = append(oneServer, c.name)
		if i+1 == len(table) || table[i+1].takes&flagsServer == 0 || table[i+1].namesServerFlag() {
			fmt.Fprintf(&b, "  %s take --url URL or --stdio \"COMMAND\" for a server that\n  is not in the config.\n", andList(oneServer))
			oneServer = nil
		}
	}
	return b.String()
}

// namesServerFlag reports whether the command's usage itself says how it
// takes --url.
func (c command) namesServerFlag() bool {
	for _, u := range c.usage {
		if strings.Contains(u.synopsis+u.summary, "--url") {
			return true
		}
	}
	return false
}

// writeUsage writes c's usage lines in two columns: a synopsis too long
// for its column has its summary on the next line.
func writeUsage(b *strings.Builder, c command) {
	indent := strings.Repeat(" ", summaryColumn)
	for _, u := range c.usage {
		first := "  " + u.synopsis
		if len(first) > summaryColumn-2 {
			b.WriteString(first + "\n")
			first = ""
		}
		for i, line := range strings.Split(u.summary, "\n") {
			if i > 0 || first == "" {
				b.WriteString(indent + line + "\n")
				continue
			}
			fmt.Fprintf(b, "%-*s%s\n", summaryColumn, first, line)
		}
	}
}

// usageHint is what follows an error in the way a command was given: its
// forms, one a line.
func usageHint(c command) string {
	var forms []string
	for _, u := range c.usage {
		forms = append(forms, u.synopsis)
	}
	return "usage: " + strings.Join(forms, "\n       ")
}

// andList is names as a sentence lists them: "a, b and c".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
