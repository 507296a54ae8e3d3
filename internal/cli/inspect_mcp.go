package cli

// MCP prompts and resources without a model: "mcphost prompts list",
// "mcphost prompts get", "mcphost resources list", "mcphost resources
// read". They run on the config's servers or the one of --url or --stdio.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/configload"
	"github.com/mcphost/mcphost/internal/servers"
	"github.com/mcphost/mcphost/internal/ui"
	"github.com/mcphost/mcphost/tool"
)

// The verbs of the prompts and resources commands.
const (
	verbPromptsList   = "prompts list"
	verbPromptsGet    = "prompts get"
	verbResourcesList = "resources list"
	verbResourcesRead = "resources read"
)

// parseMCPInspect reads the command line of noun, "prompts" or
// "resources".
func parseMCPInspect(noun string) func(args []string) (action, error) {
	return func(args []string) (action, error) {
		c, err := readMCPInspect(append([]string{noun}, args...))
		if err != nil {
			return nil, misuse(err)
		}
		return inspectAction(c), nil
	}
}

// readMCPInspect reads "prompts ..." and "resources ...".
func readMCPInspect(args []string) (inspectCommand, error) {
	noun := args[0]
	if len(args) < 2 {
		return inspectCommand{}, fmt.Errorf("%s needs list or %s", noun, map[string]string{"prompts": "get", "resources": "read"}[noun])
	}
	verb := noun + " " + args[1]
	rest := args[2:]
	switch verb {
	case verbPromptsList, verbResourcesList:
		if len(rest) > 1 {
			return inspectCommand{}, fmt.Errorf("unexpected argument %q after %s", rest[1], verb)
		}
		c := inspectCommand{verb: verb}
		if len(rest) == 1 {
			c.server = rest[0]
		}
		return c, nil
	case verbPromptsGet:
		if len(rest) == 0 {
			return inspectCommand{}, errors.New("prompts get needs the name of a prompt (see mcphost prompts list)")
		}
		values, err := promptArgs(rest[1:])
		if err != nil {
			return inspectCommand{}, err
		}
		return inspectCommand{verb: verb, name: rest[0], values: values}, nil
	case verbResourcesRead:
		switch {
		case len(rest) == 0:
			return inspectCommand{}, errors.New("resources read needs the URI of a resource (see mcphost resources list)")
		case len(rest) > 1:
			return inspectCommand{}, fmt.Errorf("unexpected argument %q after the URI", rest[1])
		}
		return inspectCommand{verb: verb, name: rest[0]}, nil
	}
	return inspectCommand{}, fmt.Errorf("unknown command %s %q: use %s list or %s %s", noun, args[1], noun, noun, map[string]string{"prompts": "get", "resources": "read"}[noun])
}

// promptArgs reads NAME=VALUE arguments.
func promptArgs(list []string) (map[string]string, error) {
	values := map[string]string{}
	for _, a := range list {
		name, value, ok := strings.Cut(a, "=")
		if !ok || strings.TrimSpace(name) == "" {
			return nil, fmt.Errorf("argument %q must be NAME=VALUE, e.g. city=Paris", a)
		}
		values[strings.TrimSpace(name)] = value
	}
	return values, nil
}

// mcpInspectServers picks the servers a prompts or resources command
// needs: the one it names, else all.
func mcpInspectServers(cmd inspectCommand, specs []config.ServerSpec) ([]config.ServerSpec, error) {
	switch cmd.verb {
	case verbPromptsList, verbResourcesList:
		if cmd.server != "" {
			return configload.OnlyServer(specs, cmd.server)
		}
	case verbPromptsGet:
		// Prompts are named as tools are: server__prompt starts its server.
		return servers.ForCall(specs, cmd.name), nil
	case verbResourcesRead:
		// SERVER:URI, the URI with a scheme or without one
		// ("terraform:/terraform/style-guide"), starts that server
		// alone; the host then reads the whole as a URI only if that
		// server lists it rather than the rest (see host.ReadResource).
		if prefix, rest, ok := strings.Cut(cmd.name, ":"); ok && rest != "" && !strings.HasPrefix(rest, "//") {
			if some, err := configload.OnlyServer(specs, prefix); err == nil {
				return some, nil
			}
		}
	}
	return specs, nil
}

// runMCPInspect runs a prompts or resources command on a started host.
func runMCPInspect(ctx context.Context, h *host.Host, cmd inspectCommand, stdout io.Writer, tty, jsonOut bool) (int, error) {
	switch cmd.verb {
	case verbPromptsList:
		return written(ui.PromptsReport(stdout, h.Prompts(), jsonOut))
	case verbPromptsGet:
		return getPrompt(ctx, h, cmd, stdout, tty, jsonOut)
	case verbResourcesList:
		return written(ui.ResourcesReport(stdout, h.Resources(), h.ResourceTemplates(), jsonOut))
	case verbResourcesRead:
		return readResource(ctx, h, cmd, stdout, tty, jsonOut)
	}
	return exitOK, nil
}

// getPrompt runs "prompts get": it fills in the prompt and prints its
// messages.
func getPrompt(ctx context.Context, h *host.Host, cmd inspectCommand, stdout io.Writer, tty, jsonOut bool) (int, error) {
	res, err := h.GetPrompt(ctx, cmd.name, cmd.values)
	switch {
	case errors.Is(err, host.ErrUnknownPrompt), errors.Is(err, host.ErrPromptArguments):
		return exitUsage, err
	case err != nil && ctx.Err() != nil:
		return exitInterrupted, ctx.Err()
	case err != nil:
		return exitToolFailed, err
	}
	name, _ := h.ResolvePrompt(cmd.name)
	res = maskPrompt(res, h.Mask)
	if jsonOut {
		return written(ui.WriteJSON(stdout, ui.PromptResultRecord(name, res)))
	}
	ui.PromptResult(stdout, res, tty)
	return exitOK, nil
}

// readResource runs "resources read": it reads the resource and prints
// it.
func readResource(ctx context.Context, h *host.Host, cmd inspectCommand, stdout io.Writer, tty, jsonOut bool) (int, error) {
	server, contents, err := h.ReadResource(ctx, cmd.name)
	switch {
	case err != nil && ctx.Err() != nil:
		return exitInterrupted, ctx.Err()
	case err != nil && server == "":
		return exitUsage, err
	case err != nil:
		return exitToolFailed, err
	}
	contents = maskContents(contents, h.Mask)
	if jsonOut {
		return written(ui.WriteJSON(stdout, ui.ResourceContentsRecord(server, contents)))
	}
	return written(ui.ResourceContents(stdout, contents, tty))
}

// written is the outcome of a command whose last act was writing its
// report.
func written(err error) (int, error) {
	if err != nil {
		return exitError, err
	}
	return exitOK, nil
}

// maskContents returns contents with the secrets in their text masked, as
// in every other output: a server may echo back a secret it was given.
// Binary data is kept as it is.
func maskContents(contents []tool.Content, mask func(string) string) []tool.Content {
	out := make([]tool.Content, len(contents))
	for i, c := range contents {
		c.Text = mask(c.Text)
		if c.Raw != nil {
			c.Raw = maskJSON(c.Raw, mask)
		}
		out[i] = c
	}
	return out
}

// maskPrompt is maskContents for a filled-in prompt.
func maskPrompt(res *tool.PromptResult, mask func(string) string) *tool.PromptResult {
	masked := *res
	masked.Description = mask(res.Description)
	masked.Messages = slices.Clone(res.Messages)
	for i, m := range masked.Messages {
		masked.Messages[i].Content = maskContents([]tool.Content{m.Content}, mask)[0]
	}
	return &masked
}
