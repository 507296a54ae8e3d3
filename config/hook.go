package config

import (
	"regexp"
	"time"
)

// The events hooks run at, as the original mcphost and Claude Code name
// them.
const (
	HookPreToolUse       = "PreToolUse"
	HookPostToolUse      = "PostToolUse"
	HookUserPromptSubmit = "UserPromptSubmit"
	HookStop             = "Stop"
	HookNotification     = "Notification"
)

// HookEvents lists the events, in the order of a turn.
func HookEvents() []string {
	return []string{HookUserPromptSubmit, HookPreToolUse, HookPostToolUse, HookNotification, HookStop}
}

// DefaultHookTimeout bounds one hook command that says no timeout.
const DefaultHookTimeout = 60 * time.Second

// Hooks are the user's commands to run at fixed points, by event.
type Hooks map[string][]HookRule

// HookRule is one matcher of an event and the commands it runs.
type HookRule struct {
	// Matcher selects tools by the name the model sees ("bash__run"): the
	// exact name, or a regular expression found in it; empty or "*"
	// matches every tool (and events without a tool).
	Matcher string
	// Commands run in order.
	Commands []HookCommand
	// File is where the rule was written.
	File string
	// Project marks a rule of a project config file (trusted): its
	// PreToolUse hooks may block a call or ask about it, never approve
	// one, so that a cloned folder cannot answer for the user.
	Project bool
	// Scripts are, for a project rule, the project's files that its file
	// runs (ProjectFile.Scripts) with the hex SHA-256 they were trusted
	// with: the rule's commands do not run once one of them changed, so
	// that a script rewritten during a run does not run in it.
	Scripts map[string]string

	re *regexp.Regexp
}

// HookCommand is one command of a rule, run by the shell.
type HookCommand struct {
	Command string
	Timeout time.Duration
}

// NewHookRule returns the rule for matcher written in file, with no
// commands yet; the error is the regular expression's problem, when
// matcher is neither empty, "*" nor a valid regular expression.
func NewHookRule(matcher, file string) (HookRule, error) {
	rule := HookRule{Matcher: matcher, File: file}
	if matcher != "" && matcher != "*" {
		re, err := regexp.Compile(matcher)
		if err != nil {
			return HookRule{}, err
		}
		rule.re = re
	}
	return rule, nil
}

// Matches reports whether the rule applies to the tool named name (empty
// for events without a tool).
func (r HookRule) Matches(name string) bool {
	switch {
	case r.Matcher == "" || r.Matcher == "*" || r.Matcher == name:
		return true
	case name == "" || r.re == nil:
		return false
	}
	return r.re.MatchString(name)
}
