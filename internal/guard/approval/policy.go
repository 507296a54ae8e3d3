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
	// Allow, Ask and Deny are the rules of the user's own config files and
	// of the command line (or of the program using the host).
	Allow, Ask, Deny []string
	// Project holds the rules of project config files, which came with a
	// folder rather than from the user: they may make a verdict stricter
	// (allow → ask → deny), never looser than one of the user's rules.
	// Where no user rule matches they decide like the user's.
	Project Rules
	// Yolo turns every ask into allow. Deny rules still hold: the user
	// wrote them on purpose.
	Yolo bool
}

// Rules is one layer's allow, ask and deny patterns.
type Rules struct {
	Allow, Ask, Deny []string
}

// Verdict is a decision and why it was made.
type Verdict struct {
	Decision Decision
	// Pattern is the rule that decided, empty when a default did.
	Pattern string
	// Why says in a few words how the decision was reached, for the user.
	Why string
}

// Match returns the decision of the rule that decides for any of names
// (the exposed name and, when it differs, the server's own
// "server__tool"), and false when no rule matches. Within one layer the
// most specific rule decides; a project rule then replaces the user's
// verdict only when it is stricter.
func (p Policy) Match(names ...string) (Decision, string, bool) {
	d, pat, _, ok := p.match(names)
	return d, pat, ok
}

// match is Match, also telling whether the deciding rule is a project's.
func (p Policy) match(names []string) (d Decision, pattern string, project, ok bool) {
	d, pattern, ok = matchRules(Rules{Allow: p.Allow, Ask: p.Ask, Deny: p.Deny}, names)
	pd, ppattern, pok := matchRules(p.Project, names)
	if pok && (!ok || pd.rank() > d.rank()) {
		return pd, ppattern, true, true
	}
	return d, pattern, false, ok
}

// matchRules returns the decision of the most specific rule of r matching
// any of names; at equal specificity the stricter decision wins.
func matchRules(r Rules, names []string) (Decision, string, bool) {
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
	consider(Allow, r.Allow)
	consider(Ask, r.Ask)
	consider(Deny, r.Deny)
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
	d, pat, project, ok := p.match(names)
	if !ok {
		return Verdict{}
	}
	why := fmt.Sprintf("the rule %s: %q", d, pat)
	if project {
		why = fmt.Sprintf("the project config's rule %s: %q", d, pat)
	}
	return Verdict{Decision: d, Pattern: pat, Why: why}
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
