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

// Subject is the server whose data a call of one of mcphost's own tools
// reaches: the resource tools read a server's resources, which is the
// server's data as much as its tools' answers are.
type Subject struct {
	// Server is the server's name.
	Server string
	// Tools are the names rules are matched against for each of the
	// server's tools (the exposed name and the server's own
	// "server__tool").
	Tools [][]string
}

// DecideSubject returns the verdict for a call of the tool the model calls
// name (a resource tool) that reaches sub's server, so that reading a
// server's resources is decided as a read-only tool of that server is:
//
//   - denying all of the server's tools (a rule such as "vault__*" that
//     matches every tool name of it, or a deny rule for each tool it has)
//     denies reading it, whatever allows the resource tool;
//   - a deny rule for the resource tool denies it for every server;
//   - otherwise the more specific of a rule for all of the server's tools
//     and a rule naming the resource tool decides (the stricter at equal
//     specificity); with neither, a server whose every tool the rules ask
//     about (or deny) is asked about, and any other is allowed: reading
//     only reads.
//
// --yolo turns an ask into an allow, as for any tool.
func (p Policy) DecideSubject(name string, sub Subject) Verdict {
	v := p.decideSubject(name, sub)
	if v.Decision == Ask && p.Yolo {
		return Verdict{Decision: Allow, Pattern: v.Pattern, Why: "--yolo allows every tool that is not denied"}
	}
	return v
}

func (p Policy) decideSubject(name string, sub Subject) Verdict {
	if v, denied := p.DeniesServer(sub); denied {
		return v
	}
	server := p.rule([]string{sub.Server + separator})
	each := p.eachTool(sub)
	own := p.rule([]string{name})
	switch {
	case own.Decision == Deny:
		return own
	case server.Decision != "" && own.Decision != "":
		sp, op := specificity(server.Pattern), specificity(own.Pattern)
		if sp > op || (sp == op && server.Decision.rank() > own.Decision.rank()) {
			return p.serverWide(server, sub.Server)
		}
		return own
	case server.Decision != "":
		return p.serverWide(server, sub.Server)
	case own.Decision != "":
		return own
	case each == Ask:
		return Verdict{Decision: Ask, Why: fmt.Sprintf("the rules ask about every tool of server %q, and so about its resources", sub.Server)}
	}
	return Verdict{Decision: Allow, Why: fmt.Sprintf("it only reads server %q's resources", sub.Server)}
}

// DeniesServer reports whether the rules deny every tool of sub's server
// (a rule such as "vault__*" that matches every tool name of it, or a
// deny rule for each tool it has), and the verdict saying so: such a
// server's resources are denied too, never listed nor read.
func (p Policy) DeniesServer(sub Subject) (Verdict, bool) {
	// A rule for every tool of the server matches the server's prefix
	// with an empty tool name: "vault__*", "vault*", "*".
	if v := p.rule([]string{sub.Server + separator}); v.Decision == Deny {
		v.Why = fmt.Sprintf("%s, which denies every tool of server %q and so its resources", v.Why, sub.Server)
		return v, true
	}
	if p.eachTool(sub) == Deny {
		return Verdict{Decision: Deny, Why: fmt.Sprintf("the rules deny every tool of server %q, and so its resources", sub.Server)}, true
	}
	return Verdict{}, false
}

// eachTool is the least strict of the verdicts of the rules for each of
// sub's tools, when a rule decides every one of them; "" otherwise.
func (p Policy) eachTool(sub Subject) Decision {
	var each Decision
	for _, names := range sub.Tools {
		v := p.rule(names)
		if v.Decision == "" {
			return ""
		}
		if each == "" || v.Decision.rank() < each.rank() {
			each = v.Decision
		}
	}
	return each
}

// serverWide words the verdict of a rule for all of server's tools, as
// applied to its resources.
func (Policy) serverWide(v Verdict, server string) Verdict {
	v.Why = fmt.Sprintf("%s, for every tool of server %q and so its resources", v.Why, server)
	return v
}

// separator joins a server's name and its tool's in the names rules match.
const separator = "__"
