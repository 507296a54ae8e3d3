// Package approval decides whether each tool call the model makes may run:
// a Policy of glob rules over "server__tool" names from the config and
// flags, defaults from the tools' MCP annotations, and, for calls that
// need a human, an Asker (the chat) with a memory of "yes for this tool".
// Toolbox applies all of it as a decorator of runner.Toolbox: denied tools
// are never offered to the model, and a refused call becomes a tool error
// the model can read, so the loop goes on.
package approval

import (
	"fmt"
	"path"

	"github.com/mcphost/mcphost/tool"
)

// Decision is what the policy says about a tool.
type Decision string

// The decisions, from most to least permissive.
const (
	Allow Decision = "allow" // runs without asking
	Ask   Decision = "ask"   // runs only if a human says yes
	Deny  Decision = "deny"  // never offered, never run
)

// rank orders decisions of equally specific rules: deny beats ask beats
// allow, so a tie never loosens the policy.
func (d Decision) rank() int {
	switch d {
	case Deny:
		return 3
	case Ask:
		return 2
	}
	return 1
}

// Policy is the user's approval rules: glob patterns ("*" any run of
// characters, "?" one, "[a-z]" a class) over the names the model sees
// ("server__tool").
type Policy struct {
	Allow, Ask, Deny []string
	// Yolo turns every ask into allow. Deny rules still hold: the user
	// wrote them on purpose.
	Yolo bool
}

// Verdict is a decision and why it was made.
type Verdict struct {
	Decision Decision
	// Pattern is the rule that decided, empty when a default did.
	Pattern string
	// Why says in a few words how the decision was reached, for the user.
	Why string
}

// Match returns the decision of the most specific rule matching any of
// names (the exposed name and, when it differs, the server's own
// "server__tool"), and false when no rule matches.
func (p Policy) Match(names ...string) (Decision, string, bool) {
	best, bestSpec, bestPattern, found := Allow, -1, "", false
	consider := func(d Decision, patterns []string) {
		for _, pat := range patterns {
			for _, n := range names {
				if ok, _ := path.Match(pat, n); !ok {
					continue
				}
				spec := specificity(pat)
				if spec > bestSpec || (spec == bestSpec && d.rank() > best.rank()) {
					best, bestSpec, bestPattern, found = d, spec, pat, true
				}
			}
		}
	}
	consider(Allow, p.Allow)
	consider(Ask, p.Ask)
	consider(Deny, p.Deny)
	return best, bestPattern, found
}

// Decide returns the verdict for a tool. info is its MCP definition (nil
// when unknown); builtin says it belongs to a server compiled into
// mcphost, whose annotations we wrote ourselves.
func (p Policy) Decide(info *tool.Def, builtin bool, names ...string) Verdict {
	v := p.rule(names)
	if v.Decision == "" {
		v = defaultVerdict(info, builtin)
	}
	if v.Decision == Ask && p.Yolo {
		return Verdict{Decision: Allow, Pattern: v.Pattern, Why: "--yolo allows every tool that is not denied"}
	}
	return v
}

func (p Policy) rule(names []string) Verdict {
	d, pat, ok := p.Match(names...)
	if !ok {
		return Verdict{}
	}
	return Verdict{Decision: d, Pattern: pat, Why: fmt.Sprintf("the rule %s: %q", d, pat)}
}

// defaultVerdict applies when no rule matches. A configured server's tool
// that declares readOnlyHint is allowed, as the issue asks. Our own tools
// are held to more: read-only and closed-world, since a read-only tool
// that reaches the network (fetch) can still carry data out in a URL.
func defaultVerdict(info *tool.Def, builtin bool) Verdict {
	if info == nil || info.Annotations == nil || !info.Annotations.ReadOnlyHint {
		return Verdict{Decision: Ask, Why: "it may change things (not marked read-only)"}
	}
	if !builtin {
		return Verdict{Decision: Allow, Why: "its server marks it read-only"}
	}
	if ow := info.Annotations.OpenWorldHint; ow == nil || *ow {
		return Verdict{Decision: Ask, Why: "it reaches outside this machine"}
	}
	return Verdict{Decision: Allow, Why: "a built-in tool that only reads"}
}

// specificity ranks a pattern: the more literal characters, the more
// specific; a pattern without wildcards (an exact name) beats every glob.
func specificity(p string) int {
	n, wild := 0, false
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case inClass:
			if c == ']' {
				inClass = false
				n++ // a class stands for one character
			}
		case c == '\\' && i+1 < len(p):
			i++
			n++
		case c == '*' || c == '?':
			wild = true
		case c == '[':
			inClass, wild = true, true
		default:
			n++
		}
	}
	if !wild {
		n += 1 << 16
	}
	return n
}
