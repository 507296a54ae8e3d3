package doctor

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mcphost/mcphost/host"
	"github.com/mcphost/mcphost/internal/budget"
	"github.com/mcphost/mcphost/internal/toolschema"
)

// defaultToolShare is the share of the window the tools may take when the
// settings leave it at 0 (every tool offered): the share the flag's
// default gives, against which "fits" is judged.
const defaultToolShare = 0.25

// checkServers starts every configured server, as "mcphost servers" does,
// and reports each: its start, its tools and their cost, the problems the
// schema sanitiser found; then whether all the tools fit their share of
// the window. Nothing is called but the servers' tool lists.
func (d *doctor) checkServers(ctx context.Context) {
	if len(d.s.Servers) == 0 {
		d.add(Check{Name: "servers", Status: StatusOK, Detail: "no MCP server is configured"})
		return
	}
	c := *d.s
	c.Model = ""
	c.NoHooks = true
	h, err := host.New(ctx, host.Options{Config: &c, ToolsOnly: true, Start: host.StartAll, AllowFailedStart: true,
		CacheDir: d.opts.CacheDir, Logger: d.opts.Logger, Warn: quiet, ClientVersion: d.opts.ClientVersion})
	if err != nil {
		d.add(Check{Name: "servers", Status: StatusFail, Detail: oneLine(err)})
		return
	}
	defer h.Close()
	tools := h.Tools()
	total, started := 0, 0
	for _, info := range h.Servers() {
		if info.State == host.StateDisabled {
			d.add(Check{Name: "server " + info.Name, Status: StatusOK, Detail: "disabled in the config: not started"})
			continue
		}
		if info.Err != nil || info.StartErr != nil || info.State == host.StateFailed {
			err := info.StartErr
			if err == nil {
				err = info.Err
			}
			detail := "could not start"
			if err != nil {
				detail += ": " + h.Mask(oneLine(err))
			}
			d.add(Check{Name: "server " + info.Name, Status: StatusFail, Detail: detail,
				Fix: "fix what the message says; mcphost servers --debug shows the server's own output"})
			continue
		}
		var own []host.ToolInfo
		for _, t := range tools {
			if t.Server == info.Name {
				own = append(own, t)
			}
		}
		tokens := 0
		for _, t := range own {
			tokens += t.Tokens
		}
		total += tokens
		started++
		detail := fmt.Sprintf("started in %s, %d tools, about %s tokens", seconds(info.Ready), len(own), budget.Short(tokens))
		problems, rewrites := schemaProblems(own)
		if len(rewrites) > 0 {
			detail += "; schemas rewritten for the model: " + strings.Join(rewrites, ", ")
		}
		if len(problems) > 0 {
			d.add(Check{Name: "server " + info.Name, Status: StatusFail, Detail: detail + "; " + strings.Join(problems, "; "),
				Fix: "the server publishes a broken input schema: report it to the server's authors, or leave the tool out (deny it in the config)"})
			continue
		}
		d.add(Check{Name: "server " + info.Name, Status: StatusOK, Detail: detail})
	}
	d.toolTokens = total
	if started > 0 {
		// Without a server that started there are no tools to fit.
		d.checkShare(total)
	}
}

// schemaProblems runs each tool's input schema through the sanitiser:
// schemas it cannot read at all (problems), and what it had to rewrite.
func schemaProblems(tools []host.ToolInfo) (problems, rewrites []string) {
	for _, t := range tools {
		res, err := toolschema.Normalize(t.Def.InputSchema, toolschema.Options{})
		if err != nil {
			problems = append(problems, fmt.Sprintf("tool %s: %v", t.Name, err))
			continue
		}
		for _, c := range res.Changed {
			if !slices.Contains(rewrites, c) {
				rewrites = append(rewrites, c)
			}
		}
	}
	return problems, rewrites
}

// checkShare: do all the tools fit their share of the window, or will
// mcphost offer only the most relevant.
func (d *doctor) checkShare(total int) {
	share := d.s.ToolShare
	if share <= 0 {
		share = defaultToolShare
	}
	if d.window <= 0 {
		d.toolsFit = StatusUnknown
		d.add(Check{Name: "tool share", Status: StatusUnknown, Detail: fmt.Sprintf("the tools take about %s tokens; whether they fit is not known without the model's window", budget.Short(total))})
		return
	}
	limit := int(share * float64(d.window))
	pct := int(share*100 + 0.5)
	if total <= limit {
		d.toolsFit = StatusOK
		d.add(Check{Name: "tool share", Status: StatusOK, Detail: fmt.Sprintf("all tools (about %s tokens) fit their share, %d%% of the %d-token window (%s)", budget.Short(total), pct, d.window, budget.Short(limit))})
		return
	}
	d.toolsFit = StatusWarn
	d.add(Check{Name: "tool share", Status: StatusWarn,
		Detail: fmt.Sprintf("the tools take about %s tokens, more than their share, %d%% of the %d-token window (%s): each request offers the most relevant ones and a search tool", budget.Short(total), pct, d.window, budget.Short(limit)),
		Fix:    "see the recommendations"})
}
