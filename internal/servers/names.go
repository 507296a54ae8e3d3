package servers

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mcphost/mcphost/config"
)

// maxNameLen is the longest function name that Ollama and the
// OpenAI-compatible backends accept.
const maxNameLen = 64

// hashLen is how many hex digits of the full name's hash replace the tail
// of a name that is too long: enough that two long names sharing a prefix
// do not collide in practice.
const hashLen = 8

// separator joins the server and tool parts of an exposed name.
const separator = "__"

// toolRef names a tool by its server and its own name on that server.
type toolRef struct {
	Server string
	Tool   string
}

// sanitize replaces every character a function name may not hold with '_'.
func sanitize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// exposedName is the name the model sees for a tool before collisions are
// resolved: "server__tool", sanitised, and when longer than maxNameLen cut
// short and ended with a hash of the full original names, so two long names
// that share a prefix still differ.
func exposedName(ref toolRef) string {
	name := sanitize(ref.Server) + separator + sanitize(ref.Tool)
	if len(name) <= maxNameLen {
		return name
	}
	sum := sha256.Sum256([]byte(ref.Server + "\x00" + ref.Tool))
	return name[:maxNameLen-hashLen-1] + "_" + hex.EncodeToString(sum[:])[:hashLen]
}

// exposedNames returns one distinct name per ref, in order. A name already
// taken by an earlier ref gets the first free suffix "_2", "_3", ..., so the
// result depends only on the refs and their order.
func exposedNames(refs []toolRef) []string {
	names := make([]string, len(refs))
	used := make(map[string]bool, len(refs))
	for i, ref := range refs {
		base := exposedName(ref)
		name := base
		for n := 2; used[name]; n++ {
			suffix := "_" + strconv.Itoa(n)
			name = base[:min(len(base), maxNameLen-len(suffix))] + suffix
		}
		used[name] = true
		names[i] = name
	}
	return names
}

// ForCall returns the specs a person's call of the tool name needs, with
// results uncut. server__tool needs only its server started: the servers
// whose name, as tool names write it, is what comes before the first "__"
// ("a.b" and "a_b" are both "a_b" in "a_b__tool", so both start). A bare
// tool name, or a prefix no server has, needs them all. The cut protects
// a model's context; a person calling a tool asked for the whole result.
func ForCall(specs []config.ServerSpec, name string) []config.ServerSpec {
	var out []config.ServerSpec
	if prefix, _, ok := strings.Cut(name, "__"); ok {
		for _, s := range specs {
			if sanitize(s.Name) == prefix {
				out = append(out, s)
			}
		}
	}
	if len(out) == 0 {
		out = slices.Clone(specs)
	}
	for i := range out {
		out[i].MaxResultBytes = math.MaxInt32
	}
	return out
}
