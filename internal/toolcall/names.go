package toolcall

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcphost/mcphost/internal/spell"
)

// Tool is one tool the model may call: the name it was offered under and
// the server and tool it stands for.
type Tool struct {
	Exposed string // the name the model sees, e.g. "files__read_file"
	Server  string // may be empty when the toolbox does not say
	Name    string // the server's own tool name
}

// Catalog resolves the names models write to the tools they mean.
// A Catalog is immutable and safe for concurrent use.
type Catalog struct {
	exposed map[string]bool
	// aliases maps every accepted spelling, folded, to the exposed names
	// it may mean; more than one means ambiguous.
	aliases map[string][]string
	names   []string // exposed names, for suggestions
}

// NewCatalog indexes tools under every spelling Resolve accepts.
func NewCatalog(tools []Tool) *Catalog {
	c := &Catalog{exposed: make(map[string]bool, len(tools)), aliases: make(map[string][]string, len(tools)*6)}
	for _, t := range tools {
		c.exposed[t.Exposed] = true
		c.names = append(c.names, t.Exposed)
		c.add(t.Exposed, t.Exposed)
		name := t.Name
		if name == "" {
			name = t.Exposed
		}
		c.add(name, t.Exposed)
		if t.Server != "" {
			for _, sep := range [...]string{".", "/", "_", "__", ":", "-"} {
				c.add(t.Server+sep+name, t.Exposed)
			}
		}
	}
	return c
}

func (c *Catalog) add(alias, exposed string) {
	k := fold(alias)
	if !slices.Contains(c.aliases[k], exposed) {
		c.aliases[k] = append(c.aliases[k], exposed)
	}
}

// fold is the key names are compared by: case and the choice between '-'
// and '_' (models swap them freely) do not count.
func fold(s string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "-", "_")
}

// NameError is a tool name that names no tool, or more than one.
type NameError struct {
	Name string
	// Matches are the tools an ambiguous name could mean; empty when the
	// name matches none.
	Matches []string
	// Closest are the most similar real names, for an unknown name.
	Closest []string
}

func (e *NameError) Error() string {
	if len(e.Matches) > 0 {
		return fmt.Sprintf("tool name %q is ambiguous: it could be %s; call one of them by its full name", e.Name, quoteList(e.Matches))
	}
	if len(e.Closest) > 0 {
		return fmt.Sprintf("unknown tool %q; the closest tools are %s", e.Name, quoteList(e.Closest))
	}
	return fmt.Sprintf("unknown tool %q: no tools are available", e.Name)
}

// Resolve returns the exposed name of the tool name means: the exposed
// name itself; the server's tool name when no other server has a tool of
// that name; "server.tool", "server/tool", "server_tool" or "server:tool";
// all regardless of case and of '-' versus '_'. Prefixes models add from
// their training ("functions.", "default_api.") are ignored. Anything else
// is a *NameError.
func (c *Catalog) Resolve(name string) (string, error) {
	if c.exposed[name] {
		return name, nil
	}
	for _, try := range candidates(name) {
		switch m := c.aliases[fold(try)]; len(m) {
		case 0:
			continue
		case 1:
			return m[0], nil
		default:
			return "", &NameError{Name: name, Matches: slices.Clone(m)}
		}
	}
	return "", &NameError{Name: name, Closest: c.closest(name, 3)}
}

// candidates are the spellings of name to try, the name as written first.
func candidates(name string) []string {
	out := []string{name}
	for _, p := range [...]string{"functions.", "function.", "default_api.", "tools.", "tool."} {
		if len(name) > len(p) && strings.EqualFold(name[:len(p)], p) {
			out = append(out, name[len(p):])
		}
	}
	return out
}

// closest returns up to n exposed names nearest to name, nearest first:
// by edit distance of the folded forms, to the whole name or to its tool
// part (models often drop the server), with a name that contains the other
// (a shortened "list_dir") counting as nearly equal.
func (c *Catalog) closest(name string, n int) []string {
	target := fold(name)
	score := func(cand string) int {
		if strings.Contains(cand, target) || strings.Contains(target, cand) {
			return 1
		}
		return spell.Distance(target, cand)
	}
	return spell.Nearest(c.names, n, func(e string) (int, bool) {
		d := score(fold(e))
		if _, tool, ok := strings.Cut(e, "__"); ok {
			d = min(d, score(fold(tool)))
		}
		return d, true
	})
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	switch len(q) {
	case 1:
		return q[0]
	case 2:
		return q[0] + " or " + q[1]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
