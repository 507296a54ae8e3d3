package main

import (
	"github.com/mcphost/mcphost/approval"
	"github.com/mcphost/mcphost/audit"
	"github.com/mcphost/mcphost/builtin"
	"github.com/mcphost/mcphost/config"
	"github.com/mcphost/mcphost/runner"
)

// startSafety checks the built-in servers' names and options, so that a
// mistake is a config error (exit 2) naming the file, server and field,
// and opens the audit log.
func (a *app) startSafety(warn func(string)) error {
	for _, spec := range a.settings.Servers {
		if spec.Transport == config.TransportBuiltin && !spec.Disabled {
			if err := builtin.Check(spec); err != nil {
				return &codedError{exitUsage, err}
			}
		}
	}
	if a.settings.Audit != "" {
		log, err := audit.Open(a.settings.Audit, a.mask, warn)
		if err != nil {
			return &codedError{exitUsage, err}
		}
		a.audit = log
	}
	return nil
}

// withApproval wraps the manager in the approval policy of the settings.
// Nobody is asked until a chat sets an Asker: in one-shot and piped runs a
// tool that needs approval is refused and warn says how to allow it.
func (a *app) withApproval(warn func(string)) runner.Toolbox {
	builtins := map[string]bool{}
	for _, spec := range a.settings.Servers {
		if spec.Transport == config.TransportBuiltin {
			builtins[spec.Name] = true
		}
	}
	opts := approval.Options{
		Policy: approval.Policy{
			Allow: a.settings.Approval.Allow,
			Ask:   a.settings.Approval.Ask,
			Deny:  a.settings.Approval.Deny,
			Yolo:  a.settings.Yolo,
		},
		Info:    a.manager,
		Builtin: func(server string) bool { return builtins[server] },
		Notice:  warn,
	}
	if a.audit != nil {
		opts.Observer = a.audit
	}
	a.approval = approval.New(a.manager, opts)
	return a.approval
}

// maskWarn masks the config's secrets in warnings, which quote server
// errors and stderr lines.
func (a *app) maskWarn(warn func(string)) func(string) {
	return func(msg string) { warn(a.mask.String(msg)) }
}

// maskEvent masks the config's secrets in what a renderer shows of an
// event: tool arguments and results. The model still gets them unmasked.
func (a *app) maskEvent(ev runner.Event) runner.Event {
	switch e := ev.(type) {
	case runner.ToolCallStarted:
		e.Call.Arguments = a.mask.Map(e.Call.Arguments)
		return e
	case runner.ToolCallFinished:
		e.Call.Arguments = a.mask.Map(e.Call.Arguments)
		e.Output = a.mask.String(e.Output)
		return e
	}
	return ev
}
